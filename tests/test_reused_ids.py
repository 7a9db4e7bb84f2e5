"""Requests that reuse another request's (TraceId, SpanId): a service that seeds ``random`` and restarts, or
replicas seeded alike. A request is its ids *and* its start time: one that repeats another's ids at another
time is a new request, stored, scored, logged and counted for itself; a retried export of the same request
(same ids, same time, same content) stays one request."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from ragpulse_core.schema import migrate
from ragpulse_core.store import Store
from ragpulse_dashboards.report.collect import collect_report
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.pipeline.tick import ScoringJob

SPAN_COLUMNS = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
                "SpanAttributes", "Duration", "StatusCode"]  # fmt: skip
PARIS = "Paris is the capital of France. It lies on the Seine."
SUPPORTED = "Paris is the capital of France."
UNSUPPORTED = "Berlin was founded in 1237 by Albert the Bear and has 3,850,809 residents."
BEFORE_REQUEST_IDENTITY = 34


def rag_span(trace_id: str, span_id: str, at: datetime, answer: str) -> list[object]:
    attributes = {
        "ragpulse.kind": "rag", "ragpulse.pipeline": "capitals", "ragpulse.variant": "A",
        "input.value": "What is the capital of France?", "output.value": answer,
        "ragpulse.context": f'[{{"id": "paris", "text": "{PARIS}", "rank": 1}}]',
    }  # fmt: skip
    return [at, trace_id, span_id, "", "rag capitals", "Internal", "svc", attributes, 2_000_000, "Ok"]


def tick(store: Store) -> None:
    settings = DashboardsSettings.load(store={"dsn": "chdb:///unused"}, scorer={"settle_delay_s": 60})
    ScoringJob(settings, store, [LexicalScorer()]).run(datetime.now(UTC))


def optimize(store: Store) -> None:
    for table in ("ragpulse_requests", "ragpulse_scores", "ragpulse_trace_verdicts"):
        store.command(f"OPTIMIZE TABLE {store.table(table)} FINAL")


def requests_of(store: Store, trace_id: str) -> list[datetime]:
    rows = store.query(
        f"SELECT Timestamp FROM {store.table('ragpulse_requests')} FINAL WHERE TraceId = {{t:String}}"
        " ORDER BY Timestamp",
        {"t": trace_id},
    )
    return [timestamp for (timestamp,) in rows]


def log_of(store: Store, trace_id: str) -> list[tuple[datetime, str]]:
    return store.query(
        f"SELECT RequestTime, Outcome FROM {store.table('ragpulse_scoring_log')}"
        " WHERE Scorer = 'lexical' AND TraceId = {t:String} ORDER BY RequestTime",
        {"t": trace_id},
    )


def hallucination_of(store: Store, trace_id: str) -> list[tuple[datetime, float]]:
    return store.query(
        f"SELECT RequestTime, Value FROM {store.table('ragpulse_scores')} FINAL"
        " WHERE Scorer = 'lexical' AND Metric = 'hallucination' AND TraceId = {t:String}"
        " ORDER BY RequestTime",
        {"t": trace_id},
    )


def verdicts_of(store: Store, trace_id: str) -> list[datetime]:
    rows = store.query(
        f"SELECT RequestTime FROM {store.table('ragpulse_trace_verdicts')} FINAL"
        " WHERE Scorer = 'lexical' AND TraceId = {t:String} ORDER BY RequestTime",
        {"t": trace_id},
    )
    return [timestamp for (timestamp,) in rows]


def test_a_request_reusing_ids_is_scored_logged_and_counted_as_a_new_request(store: Store) -> None:
    trace_id, span_id = uuid.uuid4().hex, uuid.uuid4().hex[:16]
    first_run = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(minutes=9)
    first = rag_span(trace_id, span_id, first_run, SUPPORTED)
    store.insert("otel_traces", [first], SPAN_COLUMNS)
    tick(store)
    [(_, scored_first)] = hallucination_of(store, trace_id)

    # The restarted service repeats the ids with another answer; a replica seeded alike repeats them in
    # the same second; the first request's export is retried (same ids, time and content).
    restart = first_run + timedelta(minutes=3, microseconds=250_000)
    replica = restart + timedelta(microseconds=300)
    store.insert(
        "otel_traces",
        [
            rag_span(trace_id, span_id, restart, UNSUPPORTED),
            rag_span(trace_id, span_id, replica, SUPPORTED),
            first,
        ],
        SPAN_COLUMNS,
    )
    tick(store)
    optimize(store)

    times = [first_run, restart, replica]
    assert [t.replace(tzinfo=UTC) for t in requests_of(store, trace_id)] == times
    assert [(t.replace(tzinfo=UTC), outcome) for t, outcome in log_of(store, trace_id)] == [
        (t, "scored") for t in times
    ]
    values = hallucination_of(store, trace_id)
    assert [t.replace(tzinfo=UTC) for t, _ in values] == times
    assert values[0][1] == scored_first and values[2][1] == scored_first
    assert values[1][1] > scored_first  # the restarted run's own verdict, not the first run's
    assert [t.replace(tzinfo=UTC) for t in verdicts_of(store, trace_id)] == times
    report = collect_report(store, first_run - timedelta(minutes=1))
    (traffic,) = [row for row in report.variants if row.service == "svc"]
    assert (traffic.requests, traffic.scored) == (3, 3)


@pytest.fixture
def old_store(chdb_dsn: str) -> Iterator[Store]:
    """A database of its own, migrated by the version before requests were named by their start time."""
    store = Store(chdb_dsn, f"reused_{uuid.uuid4().hex[:8]}")
    migrate(store, ttl_days=30, through=BEFORE_REQUEST_IDENTITY)
    yield store
    store.command(f"DROP DATABASE IF EXISTS `{store.database}`", use_database=False)


def old_rows(store: Store, trace_id: str, span_id: str, at: datetime, value: float) -> None:
    """What the previous version's scorer wrote for a request: its score and its log row."""
    scored_at = at + timedelta(minutes=1)
    store.insert(
        "ragpulse_scores",
        [[trace_id, span_id, at, scored_at, "svc", "capitals", "A", "lexical", LexicalScorer.version,
          "hallucination", value, ""]],
        ["TraceId", "SpanId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer",
         "ScorerVersion", "Metric", "Value", "Error"],
    )  # fmt: skip
    store.insert(
        "ragpulse_scoring_log",
        [[scored_at, trace_id, span_id, at, "svc", "A", "lexical", LexicalScorer.version, "scored", "", "w"]],
        ["LoggedAt", "TraceId", "SpanId", "RequestTime", "ServiceName", "Variant", "Scorer", "ScorerVersion",
         "Outcome", "Reason", "Worker"],
    )  # fmt: skip


def test_the_upgrade_keeps_every_score_and_judges_nothing_twice(old_store: Store) -> None:
    store = old_store
    at = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(minutes=9)
    keyed, legacy = (uuid.uuid4().hex, uuid.uuid4().hex[:16]), (uuid.uuid4().hex, uuid.uuid4().hex[:16])
    store.insert(
        "otel_traces",
        [
            rag_span(*keyed, at + timedelta(microseconds=123_456), UNSUPPORTED),
            rag_span(*legacy, at, SUPPORTED),
        ],
        SPAN_COLUMNS,
    )
    old_rows(store, *keyed, at + timedelta(microseconds=123_456), 1.0)
    # A row from before requests had a SpanId: it stands for its trace's requests of that time.
    old_rows(store, legacy[0], "", at, 0.0)
    before = {trace: hallucination_of(store, trace) for trace, _ in (keyed, legacy)}

    migrate(store, ttl_days=30)

    optimize(store)
    assert {trace: hallucination_of(store, trace) for trace, _ in (keyed, legacy)} == before
    assert verdicts_of(store, keyed[0]) == [before[keyed[0]][0][0]]
    tick(store)
    assert len(log_of(store, keyed[0])) == len(log_of(store, legacy[0])) == 1
    # The view that turns root spans into requests runs again, and reused ids are now new requests.
    later = at + timedelta(minutes=2)
    store.insert(
        "otel_traces", [rag_span(*keyed, later, SUPPORTED), rag_span(*legacy, later, SUPPORTED)], SPAN_COLUMNS
    )
    tick(store)
    optimize(store)
    for trace, _ in (keyed, legacy):
        assert [t.replace(tzinfo=UTC) for t in requests_of(store, trace)][-1] == later
        assert [outcome for _, outcome in log_of(store, trace)] == ["scored", "scored"]
        assert hallucination_of(store, trace)[0] == before[trace][0]
        assert len(hallucination_of(store, trace)) == 2
