"""Each request's best-judge verdict (0045), which the hallucination and support-drop rules and the built-in
alert job sum: on a database the previous version made, every request scored with a value reaches it once, as
its best judge's newest verdict (support over another LLM judge over lexical), also when the migration runs
again after a crash; later writes replace it only with a verdict that outranks it; and the Grafana rules and
the alert job give the figures a reader of every score row gets."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from ragpulse_core.schema import available_migrations, migrate
from ragpulse_core.store import Store
from ragpulse_dashboards.alerts import rules
from ragpulse_dashboards.alerts.conditions import observe
from ragpulse_dashboards.settings import AlertSettings
from test_alert_rule_queries import evaluate
from test_score_tables_migration import COLUMNS, scorings

FIRST_NEW = 45
PREVIOUS = max(m.version for m in available_migrations() if m.version < FIRST_NEW)
JUDGE_RANK = {"support": 2, "lexical": 0}
RequestKey = tuple[str, str, datetime]


@pytest.fixture
def previous_store(chdb_dsn: str) -> Iterator[Store]:
    """A database of its own, migrated as the previous version left it."""
    store = Store(chdb_dsn, f"prev_{uuid.uuid4().hex[:8]}")
    migrate(store, ttl_days=30, through=PREVIOUS)
    yield store
    store.command(f"DROP DATABASE IF EXISTS `{store.database}`", use_database=False)


def best_verdicts(rows: list[list[Any]]) -> dict[RequestKey, tuple[str, str, bool]]:
    """Per request: its variant, the judge whose verdict counts and whether it says hallucinated, read from
    every hallucination row with a value as the rules read them."""
    best: dict[RequestKey, tuple[tuple[int, datetime], str, str, bool]] = {}
    for row in rows:
        trace, span, requested, scored, _, _, variant, scorer, _, metric, value, _, error = row
        if metric != "hallucination" or error or value is None:
            continue
        rank = (JUDGE_RANK.get(scorer, 1), scored)
        key = (trace, span, requested)
        if key not in best or rank > best[key][0]:
            best[key] = (rank, variant, scorer, value >= 0.5)
    return {key: (variant, judge, bad) for key, (_, variant, judge, bad) in best.items()}


def counted_verdicts(store: Store) -> dict[tuple[int, str, datetime], tuple[str, str, bool]]:
    rows = store.query(
        "SELECT TraceKey, SpanId, RequestTime, Variant, Judge, Hallucinated, sum(Sign) AS counted"
        f" FROM {store.table('ragpulse_request_verdicts')}"
        " GROUP BY TraceKey, SpanId, RequestTime, Variant, Judge, Hallucinated HAVING counted != 0"
    )
    assert all(row[6] == 1 for row in rows), rows
    counted = {(row[0], row[1], row[2].replace(tzinfo=UTC)): (row[3], row[4], bool(row[5])) for row in rows}
    assert len(counted) == len(rows)  # one counted verdict per request
    return counted


def check_against(store: Store, rows: list[list[Any]]) -> None:
    expected = best_verdicts(rows)
    keys = {
        trace: key for (trace, _, _), key in zip(expected, store_keys(store, list(expected)), strict=True)
    }
    assert counted_verdicts(store) == {
        (keys[trace], span, requested): verdict for (trace, span, requested), verdict in expected.items()
    }


def store_keys(store: Store, requests: list[RequestKey]) -> list[int]:
    traces = [trace for trace, _, _ in requests]
    return [
        int(key)
        for key in store.query("SELECT arrayMap(t -> cityHash64(t), {t:Array(String)})", {"t": traces})[0][0]
    ]


def test_verdicts_stored_by_the_previous_version_reach_the_table_once(previous_store: Store) -> None:
    store = previous_store
    now = datetime.now(UTC).replace(microsecond=0)
    written = scorings(now)
    for batch in written:
        store.insert("ragpulse_scores", batch, COLUMNS)
    every_row = [row for batch in written for row in batch]

    applied = migrate(store, ttl_days=30)

    assert FIRST_NEW in [m.version for m in applied]
    check_against(store, every_row)

    # A crash before the version was recorded: the migration runs again, and nothing counts twice.
    (migration,) = [m for m in available_migrations() if m.version == FIRST_NEW]
    for statement in migration.statements(store.database, 30):
        store.command(statement)
    check_against(store, every_row)

    # After the upgrade the view decides: a lexical re-score of every request replaces only lexical verdicts
    # (the support judge outranks it), and the support judge on a lexical-only request replaces its verdict.
    later = [[*row[:3], row[3] + timedelta(hours=3), *row[4:8], "3", row[9], 1 - row[10], *row[11:]]
             for row in written[0] if row[7] == "lexical" and row[9] == "hallucination"]  # fmt: skip
    store.insert("ragpulse_scores", later, COLUMNS)
    check_against(store, every_row + later)
    lexical_only = next(row for row in written[0] if row[9] == "hallucination" and row[0] not in {
        r[0] for r in every_row if r[7] == "support"})  # fmt: skip
    judged = [[*lexical_only[:3], lexical_only[3] + timedelta(hours=4), *lexical_only[4:7], "support", "1",
               "hallucination", 0.0, 0.002, ""]]  # fmt: skip
    store.insert("ragpulse_scores", judged, COLUMNS)
    check_against(store, every_row + later + judged)
    store.command(f"OPTIMIZE TABLE {store.table('ragpulse_request_verdicts')} FINAL")
    check_against(store, every_row + later + judged)


def test_rules_and_alert_job_count_each_request_by_its_best_judge(store: Store) -> None:
    """Requests over the last hour and the week before, judged by lexical, some also by the support judge
    (which disagrees) and some re-scored: the rules and the job give the figures of every score row."""
    now = datetime.now(UTC).replace(microsecond=0)
    rows: list[list[Any]] = []
    for index in range(400):
        trace, span = uuid.uuid4().hex, uuid.uuid4().hex[:16]
        at = now - timedelta(minutes=20) if index < 200 else now - timedelta(hours=2 + index % 150)
        row = [trace, span, at, at + timedelta(seconds=30), "svc", "fusion", "A", "lexical", "1",
               "hallucination", float(index % 3 == 0), 0.0, ""]  # fmt: skip
        rows.append(row)
        if index % 4 == 0:
            rows.append([*row[:3], row[3] + timedelta(minutes=5), *row[4:7], "support", "1", "hallucination",
                         float(index % 3 != 0), 0.002, ""])  # fmt: skip
        if index % 5 == 0:
            rows.append([*row[:3], row[3] + timedelta(minutes=9), *row[4:8], "2", "hallucination",
                         float(index % 2 == 0), 0.0, ""])  # fmt: skip
    store.insert("ragpulse_scores", rows, COLUMNS)

    verdicts = best_verdicts(rows)
    recent = [bad for (_, _, at), (_, _, bad) in verdicts.items() if at > now - timedelta(hours=1)]
    week = [bad for (_, _, at), (_, _, bad) in verdicts.items() if at <= now - timedelta(hours=1)]
    observed = {o.key.rule: o for o in observe(store, AlertSettings(), now)}
    assert observed[rules.HALLUCINATION_RATE].samples == len(recent)
    assert observed[rules.HALLUCINATION_RATE].value == pytest.approx(sum(recent) / len(recent))
    assert "lexical" in observed[rules.HALLUCINATION_RATE].summary
    assert "support" in observed[rules.HALLUCINATION_RATE].summary

    (rate,) = evaluate(store, "ragpulse_hallucination_rate", now)
    n, k = len(recent), sum(recent)
    low = (k / n + 1.9208 / n - 1.96 * (k / n * (1 - k / n) / n + 0.9604 / (n * n)) ** 0.5) / (1 + 3.8416 / n)
    assert rate["hallucination_rate_lower_bound"] == pytest.approx(max(0.0, low))
    (drop,) = evaluate(store, "ragpulse_support_drop", now)
    bn, bk = len(week), len(week) - sum(week)
    k = n - k
    base_low = (bk / bn + 1.9208 / bn - 1.96 * (bk / bn * (1 - bk / bn) / bn + 0.9604 / (bn * bn)) ** 0.5) / (
        1 + 3.8416 / bn
    )
    high = (k / n + 1.9208 / n + 1.96 * (k / n * (1 - k / n) / n + 0.9604 / (n * n)) ** 0.5) / (
        1 + 3.8416 / n
    )
    assert drop["support_drop_gap"] == pytest.approx(base_low - min(1.0, high))
