"""A trace scored twice counts once, before its parts merge as after: every panel, every alert rule and the
built-in alert job give the same answer on the demo data with half its traces re-scored (a new scorer version
with other values, in an insert of its own) as after ``OPTIMIZE … FINAL`` has merged the duplicates away."""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from demo_data import VARIANTS, Demo, seed, truncate
from ragpulse_core.store import Store
from ragpulse_dashboards.alerts.conditions import observe
from ragpulse_dashboards.settings import AlertSettings
from test_alert_rule_queries import evaluate
from test_panel_queries import PANELS, run

RULE_UIDS = ("ragpulse_hallucination_rate", "ragpulse_support_drop", "ragpulse_scoring_stalled",
             "ragpulse_judge_errors")  # fmt: skip


@pytest.fixture(scope="module")
def rescored(migrated_store: Store) -> Iterator[tuple[Store, Demo]]:
    """The demo data, then every other trace scored again with other values: the newer rows must win."""
    store = migrated_store
    truncate(store)
    demo = seed(store, datetime.now(UTC).replace(microsecond=0))
    table = store.table("ragpulse_scores")
    store.command(
        f"INSERT INTO {table} SELECT * REPLACE ("
        " ScoredAt + toIntervalSecond(15) AS ScoredAt, '2' AS ScorerVersion,"
        " if(Metric = 'hallucination', 1 - Value, Value / 2) AS Value, CostUSD * 3 AS CostUSD, '' AS Error)"
        f" FROM {table} WHERE TraceKey % 2 = 0"
    )
    yield store, demo
    truncate(store)


def _comparable(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Rows as sorted tuples, floats rounded (sums may add in another order once parts merge)."""

    def cell(value: Any) -> Any:
        if isinstance(value, float):
            return None if math.isnan(value) else round(value, 9)
        return value

    return sorted((tuple(cell(value) for value in row.values()) for row in rows), key=repr)


def _everything(store: Store, demo: Demo) -> dict[str, Any]:
    answers: dict[str, Any] = {}
    for name, panel in PANELS:
        for target in panel["targets"]:
            answers[f"panel {name}"] = _comparable(run(store, target["rawSql"], demo))
    for uid in RULE_UIDS:
        answers[f"rule {uid}"] = _comparable(evaluate(store, uid, demo.now + timedelta(minutes=1)))
    answers["alert job"] = sorted(
        (o.key, round(o.value, 9), o.samples, o.fire)
        for o in observe(store, AlertSettings(), demo.now + timedelta(minutes=1))
    )
    return answers


def _newest_verdicts_counted_once(store: Store, demo: Demo) -> None:
    (panel,) = [panel for name, panel in PANELS if name == "overview:Hallucination rate per variant"]
    shown = {row["Variant"]: row for row in run(store, panel["targets"][0]["rawSql"], demo)}
    traces = store.query_dicts(
        "SELECT Variant, argMax(Value, ScoredAt) AS newest"
        f" FROM {store.table('ragpulse_scores')} WHERE Scorer = 'lexical' AND Metric = 'hallucination'"
        " AND Error = '' AND Value IS NOT NULL GROUP BY Variant, TraceKey"
    )
    for variant in VARIANTS:
        mine = [row for row in traces if row["Variant"] == variant]
        assert shown[variant]["scored"] == len(mine)
        assert shown[variant]["hallucinated"] == sum(row["newest"] >= 0.5 for row in mine)


def test_every_reader_counts_a_rescored_trace_once_before_and_after_the_merge(
    rescored: tuple[Store, Demo],
) -> None:
    store, demo = rescored
    scores = store.table("ragpulse_scores")
    assert store.query(f"SELECT countIf(ScorerVersion = '2'), uniqExact(TraceKey) FROM {scores}")[0][0] > 0
    _newest_verdicts_counted_once(store, demo)
    before = _everything(store, demo)
    for table in ("ragpulse_scores", "ragpulse_trace_verdicts"):
        store.command(f"OPTIMIZE TABLE {store.table(table)} FINAL")
    merged = f"SELECT count() FROM {scores} WHERE ScorerVersion = '1' AND TraceKey % 2 = 0"
    assert store.query(merged)[0][0] == 0
    _newest_verdicts_counted_once(store, demo)
    after = _everything(store, demo)
    differ = [key for key in after if before.get(key) != after[key]]
    assert differ == [], {key: (before.get(key), after[key]) for key in differ[:3]}
