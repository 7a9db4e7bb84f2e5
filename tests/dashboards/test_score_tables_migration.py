"""The tables panels read scores from (0040-0044), on a database the previous version made: every score it
holds reaches them once, as each request's newest judgment (what a re-score replaced counts no more), also
when the migrations run again after a crash; and the hourly sums the panels read over long windows give the
same figures as the per-score rows they read over short ones."""

from __future__ import annotations

import math
import uuid
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from demo_data import Demo
from grafana_macros import TimeRange, expand_dashboard_query
from ragpulse_core.schema import available_migrations, migrate
from ragpulse_core.store import Store
from ragpulse_dashboards.report.queries import score_aggregates
from test_panel_queries import PANELS, variables

FIRST_NEW = 40
PREVIOUS = max(m.version for m in available_migrations() if m.version < FIRST_NEW)
COLUMNS = ["TraceId", "SpanId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer",
           "ScorerVersion", "Metric", "Value", "CostUSD", "Error"]  # fmt: skip
JudgmentKey = tuple[str, str, str]


@pytest.fixture
def previous_store(chdb_dsn: str) -> Iterator[Store]:
    """A database of its own, migrated as the previous version left it."""
    store = Store(chdb_dsn, f"prev_{uuid.uuid4().hex[:8]}")
    migrate(store, ttl_days=30, through=PREVIOUS)
    yield store
    store.command(f"DROP DATABASE IF EXISTS `{store.database}`", use_database=False)


def scorings(now: datetime) -> list[list[list[Any]]]:
    """Writes as the previous version made them, one insert each: lexical and a paid judge on 40 requests over
    three days, some failed; then a new lexical version re-scoring a third of them with other values, a
    failed judgment scored again, and a trace scored before requests had a SpanId."""
    first: list[list[Any]] = []
    again: list[list[Any]] = []
    for index in range(40):
        trace, span = uuid.uuid4().hex, uuid.uuid4().hex[:16]
        at = now - timedelta(hours=index * 1.7)
        variant = "AB"[index % 2]
        row = [trace, span, at, None, "svc", "fusion", variant]
        scored = at + timedelta(seconds=20 + index)
        for metric, value in (("hallucination", float(index % 3 == 0)), ("support", index % 7 / 7)):
            first.append([*row[:3], scored, *row[4:], "lexical", "1", metric, value, 0.0, ""])
            if index % 3 == 1:
                rescored = scored + timedelta(hours=2)
                changed = 1 - value if metric == "hallucination" else value / 2
                again.append([*row[:3], rescored, *row[4:], "lexical", "2", metric, changed, 0.0, ""])
        if index % 4 == 0:
            if index % 8 == 0:
                first.append([*row[:3], scored, *row[4:], "support", "1", "error", None, 0.001, "timed out"])
                scored += timedelta(minutes=10)
            for metric, value in (("hallucination", float(index % 5 == 0)), ("adherence", 0.6)):
                (again if index % 8 == 0 else first).append(
                    [*row[:3], scored, *row[4:], "support", "1", metric, value, 0.002, ""]
                )
    legacy = uuid.uuid4().hex
    at = now - timedelta(hours=5)
    first.append([legacy, "", at, at + timedelta(seconds=9), "svc", "fusion", "A", "lexical", "1",
                  "hallucination", 1.0, 0.0, ""])  # fmt: skip
    return [first, again]


def newest_judgments(rows: list[list[Any]]) -> dict[JudgmentKey, list[list[Any]]]:
    """What counts of each (trace, span, scorer): its newest judgment's rows; an error row counts only when
    no value was written after it."""
    judgments: dict[JudgmentKey, list[list[Any]]] = defaultdict(list)
    for row in rows:
        judgments[(row[0], row[1], row[7])].append(row)
    newest = {}
    for key, written in judgments.items():
        last = max(row[3] for row in written)
        newest[key] = [row for row in written if row[3] == last]
    return newest


def expected_hour_sums(rows: list[list[Any]]) -> dict[tuple[Any, ...], tuple[int, int, float]]:
    sums: dict[tuple[Any, ...], list[float]] = defaultdict(lambda: [0, 0, 0.0])
    for judgment in newest_judgments(rows).values():
        for row in judgment:
            if row[12] == "" and row[10] is not None:
                hour = row[2].replace(minute=0, second=0, microsecond=0, tzinfo=None)
                entry = sums[(hour, row[9], row[7], row[6])]
                entry[0] += 1
                entry[1] += row[10] >= 0.5
                entry[2] += row[10]
    return {key: (int(n), int(k), round(s, 9)) for key, (n, k, s) in sums.items()}


def hour_sums(store: Store) -> dict[tuple[Any, ...], tuple[int, int, float]]:
    rows = store.query(
        "SELECT Hour, Metric, Scorer, Variant, sum(Scores), sum(Positives), sum(ValueSum)"
        f" FROM {store.table('ragpulse_score_hours')} GROUP BY Hour, Metric, Scorer, Variant"
        " HAVING sum(Scores) != 0"
    )
    return {(hour, metric, scorer, variant): (int(n), int(k), round(s, 9))
            for hour, metric, scorer, variant, n, k, s in rows}  # fmt: skip


def counted_values(store: Store) -> list[tuple[Any, ...]]:
    return sorted(
        store.query(
            "SELECT TraceKey, SpanId, Scorer, Metric, Value, Failed FROM"
            f" {store.table('ragpulse_score_values')}"
            " GROUP BY TraceKey, SpanId, Scorer, Metric, Value, Failed, ScoredAt HAVING sum(Sign) > 0"
        ),
        key=repr,
    )


def judgment_sums(store: Store) -> tuple[int, int, float]:
    judgments, failures, cost = store.query(
        f"SELECT sum(Judgments), sum(Failures), sum(CostUSD) FROM {store.table('ragpulse_judgment_minutes')}"
    )[0]
    return int(judgments), int(failures), round(cost, 9)


def check_against(store: Store, rows: list[list[Any]]) -> None:
    newest = newest_judgments(rows)
    by_trace = dict(store.query(f"SELECT DISTINCT TraceId, TraceKey FROM {store.table('ragpulse_scores')}"))
    expected = sorted(
        (
            (by_trace[row[0]], row[1], row[7], row[9], row[10], int(row[12] != ""))
            for judgment in newest.values()
            for row in judgment
        ),
        key=repr,
    )
    assert counted_values(store) == expected
    assert hour_sums(store) == expected_hour_sums(rows)
    failures = sum(any(row[12] for row in judgment) for judgment in newest.values())
    cost = round(sum(row[11] for judgment in newest.values() for row in judgment), 9)
    assert judgment_sums(store) == (len(newest), failures, cost)
    lag = store.query(
        f"SELECT sum(LagMap.Judgments) FROM {store.table('ragpulse_scoring_lag_hours')} ARRAY JOIN LagMap"
    )[0][0]
    assert lag == len(newest)


def test_scores_stored_by_the_previous_version_reach_the_new_tables_once(previous_store: Store) -> None:
    store = previous_store
    now = datetime.now(UTC).replace(microsecond=0)
    written = scorings(now)
    for batch in written:
        store.insert("ragpulse_scores", batch, COLUMNS)
    every_row = [row for batch in written for row in batch]
    stored = store.query(f"SELECT count() FROM {store.table('ragpulse_scores')}")[0][0]

    applied = migrate(store, ttl_days=30)

    assert [m.version for m in applied if FIRST_NEW <= m.version <= 44] == [40, 41, 42, 43, 44]
    assert store.query(f"SELECT count() FROM {store.table('ragpulse_scores')}")[0][0] == stored
    check_against(store, every_row)

    # A crash before the versions were recorded: every new migration runs again, and nothing counts twice.
    for migration in (m for m in available_migrations() if m.version >= FIRST_NEW):
        for statement in migration.statements(store.database, 30):
            store.command(statement)
    check_against(store, every_row)

    # Scores written after the upgrade go through the views: a re-score still replaces what it re-scores.
    later = [[*row[:3], row[3] + timedelta(hours=3), *row[4:8], "3", row[9], row[10], row[11], row[12]]
             for row in written[0] if row[7] == "lexical"]  # fmt: skip
    store.insert("ragpulse_scores", later, COLUMNS)
    check_against(store, every_row + later)
    for table in ("ragpulse_score_values", "ragpulse_score_hours", "ragpulse_judgment_minutes"):
        store.command(f"OPTIMIZE TABLE {store.table(table)} FINAL")
    check_against(store, every_row + later)


SCORE_PANELS = [
    (name, panel)
    for name, panel in PANELS
    if "ragpulse_score_hours" in panel["targets"][0]["rawSql"]
    or "ragpulse_scored_request_hours" in panel["targets"][0]["rawSql"]
]


def _rounded(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    def cell(value: Any) -> Any:
        if isinstance(value, float):
            return None if math.isnan(value) else round(value, 9)
        return value

    return sorted((tuple(cell(v) for v in row.values()) for row in rows), key=repr)


@pytest.mark.parametrize(("name", "panel"), SCORE_PANELS, ids=[name for name, _ in SCORE_PANELS])
def test_hourly_sums_over_long_windows_agree_with_every_score(
    demo_store: tuple[Store, Demo], name: str, panel: dict[str, Any]
) -> None:
    """Windows of 3 days (hourly sums) and 47 hours (every score row), hourly buckets, both holding all
    the demo data: one answer."""
    store, demo = demo_store
    chosen = variables(demo, everything=True)
    end = demo.now + timedelta(minutes=1)
    answers = []
    for span in (timedelta(days=3), timedelta(hours=47)):
        window = TimeRange(end - span, end, interval_s=3600)
        sql = expand_dashboard_query(panel["targets"][0]["rawSql"], chosen, window)
        answers.append(_rounded(store.query_dicts(sql)))
    assert answers[0] == answers[1] and answers[0], name


def test_report_reads_hourly_sums_over_long_windows_with_the_same_figures(
    demo_store: tuple[Store, Demo],
) -> None:
    store, _ = demo_store
    now_ms = int(datetime.now(UTC).timestamp() * 1000)
    answers = []
    for span in (timedelta(days=3), timedelta(hours=47)):
        since = now_ms - int(span.total_seconds() * 1000)
        rows = score_aggregates(store, {"since_ms": since, "service": ""})
        answers.append(_rounded(rows))
    assert answers[0] == answers[1] and answers[0]
