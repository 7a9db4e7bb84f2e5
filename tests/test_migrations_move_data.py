"""Migrations that change a table's layout keep its rows: a database migrated with the old schema and holding
data is migrated to the current one, and again after a crash midway, without losing or doubling a row."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from ragpulse_core.schema import available_migrations, migrate
from ragpulse_core.store import Store

OLD_SCHEMA = 9
REQUEST_KEY_SCHEMA = 24
REQUEST_IDENTITY_SCHEMA = 35
SPAN_COLUMNS = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
                "SpanAttributes", "Duration", "StatusCode"]  # fmt: skip
SCORE_COLUMNS = ["TraceId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer",
                 "ScorerVersion", "Metric", "Value", "Error"]  # fmt: skip
STEPS = ("variations", "retrieve", "fuse", "generate")


@pytest.fixture
def old_store(chdb_dsn: str) -> Iterator[Store]:
    """A database of its own beside the session's, migrated to the schema before 0010."""
    store = Store(chdb_dsn, f"old_{uuid.uuid4().hex[:8]}")
    migrate(store, ttl_days=30, through=OLD_SCHEMA)
    yield store
    store.command(f"DROP DATABASE IF EXISTS `{store.database}`", use_database=False)


def seed(store: Store, traces: int) -> list[list[object]]:
    now = datetime.now(UTC).replace(microsecond=0)
    spans: list[list[object]] = []
    scores: list[list[object]] = []
    ids = [uuid.uuid4().hex for _ in range(traces)]
    for index, trace in enumerate(ids):
        at = now - timedelta(hours=index)
        root = uuid.uuid4().hex[:16]
        attributes = {"ragpulse.kind": "rag", "ragpulse.variant": "AB"[index % 2]}
        spans.append([at, trace, root, "", "rag fusion", "Server", "svc", attributes, 900 * 10**6, "Ok"])
        spans += [
            [at, trace, uuid.uuid4().hex[:16], root, step, "Internal", "svc", {}, 10**8, "Ok"]
            for step in STEPS
        ]
        spans.append([at, trace, uuid.uuid4().hex[:16], root, "embed", "Internal", "svc", {}, 10**7, "Ok"])
        for metric, value in (("hallucination", float(index % 3 == 0)), ("support", 0.75)):
            variant = "AB"[index % 2]
            scores.append([trace, at, at + timedelta(minutes=1), "svc", "fusion", variant, "lexical", "1",
                           metric, value, ""])  # fmt: skip
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    store.insert("ragpulse_scores", scores, SCORE_COLUMNS)
    return scores


def score_rows(store: Store) -> list[tuple[object, ...]]:
    return sorted(
        store.query(
            "SELECT TraceId, RequestTime, Scorer, Metric, Value FROM"
            f" {store.table('ragpulse_scores')} ORDER BY TraceId, Metric"
        )
    )


def request_rows(store: Store) -> list[tuple[object, ...]]:
    return sorted(
        store.query(f"SELECT TraceId, SpanId, Timestamp, Variant FROM {store.table('ragpulse_requests')}")
    )


def sorting_key(store: Store, table: str) -> str:
    return str(
        store.query(
            "SELECT sorting_key FROM system.tables WHERE database = {db:String} AND name = {t:String}",
            {"db": store.database, "t": table},
        )[0][0]
    )


# The worst-requests values of each (trace, scorer), computed from the score rows the way readers did before
# the verdict table: the newest rows of each metric, error rows left out.
VERDICTS_FROM_SCORES = (
    "SELECT TraceId, Scorer, any(Variant), maxIf(Value, Metric = 'hallucination'),"
    " minIf(Value, Metric IN ('support', 'adherence')), maxIf(Value, Metric = 'unsupported_sentences'),"
    " countIf(Metric = 'hallucination') > 0"
    " FROM {scores} FINAL WHERE Error = ''"
    " AND Metric IN ('hallucination', 'support', 'adherence', 'unsupported_sentences')"
    " GROUP BY TraceId, Scorer"
)


def verdicts_match_scores(store: Store) -> bool:
    """The verdict table holds exactly one row per scored (trace, scorer), equal to its score rows' values."""
    table = store.table("ragpulse_trace_verdicts")
    verdicts = store.query(
        "SELECT TraceId, Scorer, Variant, Hallucination, Support, Unsupported, HasHallucination = 1"
        f" FROM {table} ORDER BY TraceId, Scorer"
    )
    expected = sorted(store.query(VERDICTS_FROM_SCORES.format(scores=store.table("ragpulse_scores"))))
    return bool(verdicts) and sorted(verdicts) == expected


def test_scores_and_spans_survive_the_new_layout(old_store: Store) -> None:
    scores = seed(old_store, 40)
    before = score_rows(old_store)
    assert not sorting_key(old_store, "ragpulse_scores").startswith("toStartOfHour")

    applied = migrate(old_store, ttl_days=30)

    assert {m.version for m in applied} == {
        m.version for m in available_migrations() if m.version > OLD_SCHEMA
    }
    assert score_rows(old_store) == before and len(before) == len(scores)
    assert sorting_key(old_store, "ragpulse_scores").startswith("toStartOfHour(RequestTime)")
    # Spans stored before the step table existed are in it: every step and the request itself, no others.
    steps = old_store.query(
        f"SELECT Step, count() FROM {old_store.table('ragpulse_step_latency')} GROUP BY Step ORDER BY Step"
    )
    assert dict(steps) == {"total": 40, **{step: 40 for step in STEPS}}
    # And their hourly quantile states, one count per step row.
    hourly = old_store.query(
        f"SELECT Step, sum(Calls), quantilesBFloat16Merge(0.5, 0.95, 0.99)(Latency)[2]"
        f" FROM {old_store.table('ragpulse_step_latency_hours')} GROUP BY Step ORDER BY Step"
    )
    assert {step: calls for step, calls, _ in hourly} == dict(steps)
    assert {step: p95 for step, _, p95 in hourly}["total"] == pytest.approx(900, rel=0.01)
    assert stored_trace_keys_match(old_store)
    assert verdicts_match_scores(old_store)
    assert worst_verdicts_match_verdicts(old_store)


def worst_verdicts_match_verdicts(store: Store) -> bool:
    """The worst-first table (0131) counts each request's verdict once, as the verdict table holds it."""
    columns = "TraceKey, SpanId, RequestTime, ScoredAt, Scorer, Variant, Hallucination, Support, Unsupported"
    worst = store.query(
        f"SELECT {columns} FROM {store.table('ragpulse_worst_verdicts')}"
        f" GROUP BY {columns} HAVING sum(Sign) = 1"
    )
    verdicts = store.query(f"SELECT {columns} FROM {store.table('ragpulse_trace_verdicts')} FINAL")
    return bool(worst) and sorted(worst) == sorted(verdicts)


def stored_trace_keys_match(store: Store) -> bool:
    """Every score row's trace key is its trace id's hash, written into the parts (by a finished mutation, or
    on insert when a later migration copied the rows into a new table)."""
    table = store.table("ragpulse_scores")
    pending = store.query(
        "SELECT countIf(NOT is_done) FROM system.mutations"
        " WHERE database = {db:String} AND table = 'ragpulse_scores'",
        {"db": store.database},
    )[0][0]
    # A part lists the columns it stores: one from before the column was added and never mutated does not.
    stored = store.query(
        "SELECT countIf(has(columns, 'TraceKey')), count() FROM (SELECT name, groupArray(column) AS columns"
        " FROM system.parts_columns WHERE database = {db:String} AND table = 'ragpulse_scores' AND active"
        " GROUP BY name)",
        {"db": store.database},
    )[0]
    keys = store.query(f"SELECT countIf(TraceKey != cityHash64(TraceId)), count() FROM {table}")[0]
    return pending == 0 and stored[0] == stored[1] > 0 and keys[0] == 0 and keys[1] > 0


def test_rerunning_a_layout_migration_after_a_crash_keeps_every_row_once(old_store: Store) -> None:
    seed(old_store, 12)
    before = score_rows(old_store)
    # Each crash is replayed on the schema of its time: a migration runs again only before any later one.
    migrate(old_store, ttl_days=30, through=REQUEST_KEY_SCHEMA - 1)
    layout = next(m for m in available_migrations() if m.name == "scores_time_first")
    steps = next(m for m in available_migrations() if m.name == "step_latency")
    # A crash after the swap, before the version was recorded: the whole migration runs again.
    hours = next(m for m in available_migrations() if m.name == "step_latency_hours")
    trace_key = next(m for m in available_migrations() if m.name == "scores_trace_key")
    verdicts = next(m for m in available_migrations() if m.name == "trace_verdicts")
    for migration in (layout, steps, hours, trace_key, verdicts):
        for statement in migration.statements(old_store.database, 30):
            old_store.command(statement)
    migrate(old_store, ttl_days=30, through=REQUEST_IDENTITY_SCHEMA - 1)
    requests = request_rows(old_store)
    for migration in available_migrations():
        if REQUEST_KEY_SCHEMA <= migration.version < REQUEST_IDENTITY_SCHEMA:
            for statement in migration.statements(old_store.database, 30):
                old_store.command(statement)
    assert request_rows(old_store) == requests and len(requests) == 12
    assert sorting_key(old_store, "ragpulse_requests").endswith("TraceId, SpanId")
    migrate(old_store, ttl_days=30)
    identity = next(m for m in available_migrations() if m.version == REQUEST_IDENTITY_SCHEMA)
    for statement in identity.statements(old_store.database, 30):
        old_store.command(statement)
    assert request_rows(old_store) == requests
    assert sorting_key(old_store, "ragpulse_requests").endswith(
        "TraceId, SpanId, toUnixTimestamp64Micro(Timestamp)"
    )
    assert sorting_key(old_store, "ragpulse_scores").endswith("SpanId, toUnixTimestamp64Micro(RequestTime)")
    assert score_rows(old_store) == before
    assert sorting_key(old_store, "ragpulse_scores").startswith("toStartOfHour(RequestTime)")
    total = old_store.query(f"SELECT count() FROM {old_store.table('ragpulse_step_latency')}")[0][0]
    assert total == 12 * (len(STEPS) + 1)
    calls = old_store.query(f"SELECT sum(Calls) FROM {old_store.table('ragpulse_step_latency_hours')}")[0][0]
    assert calls == total
    assert stored_trace_keys_match(old_store)
    assert verdicts_match_scores(old_store)
    worst = next(m for m in available_migrations() if m.name == "worst_verdicts")
    for statement in worst.statements(old_store.database, 30):
        old_store.command(statement)
    assert worst_verdicts_match_verdicts(old_store)


def test_new_spans_reach_the_step_table_through_its_view(store: Store) -> None:
    seed(store, 3)
    rows = store.query(
        f"SELECT Step, DurationMs FROM {store.table('ragpulse_step_latency')} WHERE Step IN ('total', 'fuse')"
    )
    assert sorted(rows) == [("fuse", 100.0)] * 3 + [("total", 900.0)] * 3


def test_new_scores_reach_the_verdict_table_through_its_view(store: Store) -> None:
    # Generated scorings: two scorers, both support metrics, unscored values, error rows and other metrics.
    now = datetime.now(UTC).replace(microsecond=0)
    metrics = ("hallucination", "support", "adherence", "unsupported_sentences", "relevance")
    scores: list[list[object]] = []
    for index in range(60):
        trace, at = uuid.uuid4().hex, now - timedelta(minutes=index)
        for scorer, metric in itertools.product(("lexical", "llm"), metrics[: 2 + index % 4]):
            value = None if index % 7 == 0 and metric == "support" else (index * 37 % 11) / 10
            error = "judge timed out" if index % 5 == 0 and scorer == "llm" else ""
            variant = "AB"[index % 2]
            scores.append([trace, at, at + timedelta(seconds=5), "svc", "fusion", variant, scorer, "1",
                           metric, value, error])  # fmt: skip
    store.insert("ragpulse_scores", scores, SCORE_COLUMNS)
    assert verdicts_match_scores(store)


def test_step_table_names_the_steps_semconv_names() -> None:
    from ragpulse import semconv

    (migration,) = [m for m in available_migrations() if m.name == "step_latency"]
    named = {semconv.SPAN_VARIATIONS, semconv.SPAN_RETRIEVE, semconv.SPAN_FUSE, semconv.SPAN_GENERATE}
    listed = "(" + ", ".join(f"'{step}'" for step in STEPS) + ")"
    assert set(STEPS) == named
    # Step and the filter, in the view and in the backfill.
    assert migration.sql.count(listed) == 4
    assert f"SpanAttributes['{semconv.KIND}'] = '{semconv.KIND_RAG}'" in migration.sql
    assert f"startsWith(SpanName, '{semconv.SPAN_RAG_PREFIX} ')" in migration.sql


SESSION_INDEX_SCHEMA = 113


def test_conversations_stored_before_the_session_index_are_skipped_by_it(old_store: Store) -> None:
    """A session's turns are read through the bloom filter for rows stored before it existed too: a session
    a part does not hold skips the part, one it holds still finds its turns."""
    migrate(old_store, ttl_days=30, through=SESSION_INDEX_SCHEMA - 1)
    now = datetime.now(UTC).replace(microsecond=0)
    spans = [
        [now - timedelta(minutes=turn), uuid.uuid4().hex, uuid.uuid4().hex[:16], "", "rag fusion", "Server",
         "svc", {"ragpulse.kind": "rag", "session.id": f"s-{turn % 3}"}, 10**8, "Ok"]
        for turn in range(9)
    ]  # fmt: skip
    old_store.insert("otel_traces", spans, SPAN_COLUMNS)

    migrate(old_store, ttl_days=30)

    requests = old_store.table("ragpulse_requests")

    def granules(session: str) -> tuple[int, int]:
        plan = "\n".join(
            str(row[0])
            for row in old_store.query(
                f"EXPLAIN indexes = 1 SELECT count() FROM {requests} WHERE SessionId = {{s:String}}",
                {"s": session},
            )
        )
        after_index = plan[plan.index("idx_session_id") :]
        read, total = after_index.split("Granules: ", 1)[1].split()[0].split("/")
        return int(read), int(total)

    assert granules("nobody's") == (0, granules("s-1")[1])
    assert old_store.query(f"SELECT count() FROM {requests} WHERE SessionId = 's-1'")[0][0] == 3
