"""Worst requests first reads each request's counted verdict from a table sorted worst first
(ragpulse_worst_verdicts, migration 0131): whatever order a request's verdicts arrive in, some in one insert,
some failed, the list is the one the newest verdicts give (issue 41)."""

from __future__ import annotations

import math
import random
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from ragpulse_core.store import Store
from ragpulse_dashboards.report.queries import worst_requests
from test_directed_agreement import COLUMNS

JUDGES = ("lexical", "support")


def _writes(rng: random.Random, now: datetime) -> list[list[list[Any]]]:
    """Per request, each judge's verdicts (a newer one, an older one arriving late, a failed one), shuffled,
    some merged into one insert; a verdict's metrics are written together, as the scorer writes them."""
    verdicts: list[list[list[Any]]] = []
    for index in range(30):
        trace, span = uuid.uuid4().hex, uuid.uuid4().hex[:16]
        at = now - timedelta(minutes=3 + index)
        for judge in rng.sample(JUDGES, rng.randint(1, 2)):
            for version in range(rng.randint(1, 4)):
                scored = at + timedelta(seconds=rng.randint(1, 600))
                error = "x" if version > 0 and rng.random() < 0.2 else ""
                support = rng.choice([0.1, 0.5, 0.9, float("nan")])
                verdicts.append([
                    [trace, span, at, scored, "svc", "fusion", "A", judge, "1", metric, value, error, 1.0]
                    for metric, value in (("hallucination", float(rng.random() < 0.5)), ("support", support))
                ])  # fmt: skip
    rng.shuffle(verdicts)
    writes: list[list[list[Any]]] = []
    while verdicts:
        take = rng.randint(1, 4)
        writes.append([row for verdict in verdicts[:take] for row in verdict])
        verdicts = verdicts[take:]
    return writes


def _expected(store: Store, judge: str) -> list[tuple[str, float, float | None]]:
    """The worst list as the newest verdict of each request gives it (the verdict table, merged): most
    hallucinated, then least supported (unknown support last), then newest."""
    rows = store.query(
        "SELECT TraceId, Hallucination, if(isNaN(Support), NULL, Support), toUnixTimestamp64Nano(RequestTime)"
        f" FROM {store.table('ragpulse_trace_verdicts')} FINAL"
        " WHERE Scorer = {judge:String} AND HasHallucination",
        {"judge": judge},
    )
    ranked = sorted(rows, key=lambda row: (-row[1], math.inf if row[2] is None else row[2], -row[3]))
    return [(trace, hallucination, support) for trace, hallucination, support, _ in ranked]


@pytest.mark.parametrize("seed", [1, 2])
def test_the_worst_list_is_the_newest_verdicts_whatever_their_order(store: Store, seed: int) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    for write in _writes(random.Random(seed), now):
        store.insert("ragpulse_scores", write, COLUMNS)
    since = int((now - timedelta(hours=3)).timestamp() * 1000)
    for judge in JUDGES:
        shown = worst_requests(store, {"since_ms": since, "service": "", "scorer": judge, "limit": 200})
        listed = [(row.trace_id, float(row.hallucinated), row.support) for row in shown]
        assert listed == _expected(store, judge) and listed
