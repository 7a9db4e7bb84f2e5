"""The agreement panel reads one counted row per request both judges scored (ragpulse_judge_pairs, migration
0130) instead of joining a month of verdicts: whatever order verdicts arrive in, and however often either
judge re-scores, it counts what the report counts from the newest verdicts (issue 41)."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from ragpulse_core.store import Store
from ragpulse_dashboards.report import collect_report
from test_directed_agreement import COLUMNS, panel_rows

JUDGES = ("lexical", "support", "coverage")


def _row(
    trace: str, span: str, at: datetime, judge: str, scored: datetime, value: float, **more: Any
) -> list[Any]:
    return [trace, span, at, scored, "svc", "fusion", more.get("variant", "A"), judge, "1", "hallucination",
            value, more.get("error", ""), more.get("chance", 1.0)]  # fmt: skip


def _writes(rng: random.Random, now: datetime) -> list[list[list[Any]]]:
    """Score writes as scorers make them: per request, each judge's verdict and its re-scores (a newer
    verdict, an older one arriving late, a failed one), shuffled, some of them merged into one insert."""
    rows: list[list[Any]] = []
    for index in range(14):
        trace, span = uuid.uuid4().hex, uuid.uuid4().hex[:16]
        at = now - timedelta(minutes=3 + index * 2)
        for judge in rng.sample(JUDGES, rng.randint(1, 3)):
            for version in range(rng.randint(1, 3)):
                scored = at + timedelta(seconds=rng.randint(1, 600))
                failed = version > 0 and rng.random() < 0.2
                chance = 1.0 if judge == "lexical" else rng.choice([1.0, 0.5, 0.25])
                value = float(rng.random() < 0.5)
                rows.append(
                    _row(trace, span, at, judge, scored, value, chance=chance, error="x" if failed else "")
                )
    rng.shuffle(rows)
    writes: list[list[list[Any]]] = []
    while rows:
        take = rng.randint(1, 6)
        writes.append(rows[:take])
        rows = rows[take:]
    return writes


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_panel_counts_what_the_report_counts_from_the_newest_verdicts(store: Store, seed: int) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    for write in _writes(random.Random(seed), now):
        store.insert("ragpulse_scores", write, COLUMNS)
    start = now - timedelta(hours=3)
    expected = {row.reference: row for row in collect_report(store, start).agreement}
    shown = {row["Judges"].removeprefix("lexical vs "): row for row in panel_rows(store, start, now)}
    assert set(shown) == set(expected) and expected
    for judge, row in expected.items():
        assert shown[judge]["shared"] == row.n
        balanced = row.balanced_accuracy
        if balanced is None:
            assert shown[judge]["balanced_accuracy"] is None
        else:
            assert shown[judge]["balanced_accuracy"] == pytest.approx(balanced.value, abs=1e-9)
            assert (shown[judge]["ba_low"], shown[judge]["ba_high"]) == pytest.approx(
                (balanced.low, balanced.high), abs=1e-3
            )
