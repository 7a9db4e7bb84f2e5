"""Several RAG requests in one trace (a web request calling the decorated function twice): each is its own
request, stored, scored and counted apart, named by (TraceId, SpanId of its root span)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
import ragpulse
from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace.export import SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse_collector.server import CollectorServer
from ragpulse_core.schema import migrate
from ragpulse_core.store import Store
from ragpulse_dashboards.report.collect import collect_report
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.pipeline.tick import ScoringJob
from ragpulse_scorers.settings import ScorersSettings

PASSAGES = {
    "paris": "Paris is the capital of France. It lies on the Seine.",
    "rome": "Rome is the capital of Italy. It lies on the Tiber.",
}
PRE_KEY_SCHEMA = 23
SPAN_COLUMNS = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
                "SpanAttributes", "Duration", "StatusCode"]  # fmt: skip
OLD_SCORE_COLUMNS = ["TraceId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer",
                     "ScorerVersion", "Metric", "Value", "Error"]  # fmt: skip
OLD_LOG_COLUMNS = ["LoggedAt", "TraceId", "RequestTime", "ServiceName", "Variant", "Scorer", "ScorerVersion",
                   "Outcome", "Reason", "Worker"]  # fmt: skip


@ragpulse.retrieve
def search(query: str, *, query_index: int) -> list[dict[str, object]]:
    words = set(query.lower().split())
    return [
        {"id": key, "text": text, "score": 1.0}
        for key, text in PASSAGES.items()
        if words & set(text.lower().split())
    ]


@ragpulse.generate(model="extractive-test")
def generate(question: str, chunks: list[ragpulse.FusedChunk]) -> str:
    return chunks[0].text if chunks else "I do not know."


@ragpulse.fuse
def fuse(rankings: list[list[dict[str, object]]]) -> list[ragpulse.FusedChunk]:
    return ragpulse.rrf(rankings, k=60, top_n=1)


@ragpulse.rag(pipeline="capitals", variant="A")
def answer(question: str) -> str:
    return generate(question, fuse([search(question, query_index=0)]))


def handle_web_request(questions: list[str], pause_s: float = 0.0) -> str:
    """One traced web request that answers several questions: one trace, one RAG request per question."""
    with trace.get_tracer("web").start_as_current_span("POST /ask") as web:
        for index, question in enumerate(questions):
            if index:
                time.sleep(pause_s)
            answer(question)
        return format(web.get_span_context().trace_id, "032x")


def send(collector: CollectorServer, exporter: InMemorySpanExporter) -> None:
    spans = exporter.get_finished_spans()
    assert OTLPSpanExporter(endpoint=f"{collector.url}/v1/traces").export(spans) is SpanExportResult.SUCCESS
    assert collector.flush()


def settled_tick(store: Store, scorer: LexicalScorer | None = None) -> None:
    """One scoring tick as it runs once the requests have settled."""
    settings = ScorersSettings.load(store={"dsn": "chdb:///unused"}, scorer={"settle_delay_s": 60})
    ScoringJob(settings, store, [scorer or LexicalScorer()]).run(datetime.now(UTC) + timedelta(minutes=2))


def requests_of(store: Store, trace_id: str) -> list[tuple[str, datetime]]:
    return sorted(
        store.query(
            f"SELECT SpanId, Timestamp FROM {store.table('ragpulse_requests')} FINAL"
            " WHERE TraceId = {t:String}",
            {"t": trace_id},
        )
    )


def logged(store: Store) -> list[tuple[str, str, str]]:
    return sorted(
        store.query(
            f"SELECT TraceId, SpanId, Outcome FROM {store.table('ragpulse_scoring_log')}"
            " WHERE Scorer = 'lexical'"
        )
    )


def hallucination_scores(store: Store) -> dict[tuple[str, str], float]:
    rows = store.query(
        f"SELECT TraceId, SpanId, Value FROM {store.table('ragpulse_scores')} FINAL"
        " WHERE Scorer = 'lexical' AND Metric = 'hallucination'"
    )
    return {(trace_id, span): value for trace_id, span, value in rows}


@pytest.fixture
def exporter(span_exporter: InMemorySpanExporter) -> Iterator[InMemorySpanExporter]:
    span_exporter.clear()
    yield span_exporter
    span_exporter.clear()


@pytest.mark.parametrize("pause_s", [0.0, 1.1], ids=["same-second", "seconds-apart"])
def test_two_requests_of_one_trace_are_both_stored_scored_and_counted(
    store: Store, collector: CollectorServer, exporter: InMemorySpanExporter, pause_s: float
) -> None:
    if not pause_s:
        # Start just after a second begins, so both requests fall in the same second of the sorting key.
        time.sleep(1.0 - time.time() % 1.0 + 0.01)
    trace_id = handle_web_request(
        ["What is the capital of France?", "What is the capital of Italy?"], pause_s
    )
    send(collector, exporter)
    store.command(f"OPTIMIZE TABLE {store.table('ragpulse_requests')} FINAL")

    requests = requests_of(store, trace_id)
    assert len(requests) == 2 and requests[0][0] != requests[1][0]
    seconds = {timestamp.replace(microsecond=0) for _, timestamp in requests}
    assert len(seconds) == (1 if not pause_s else 2)

    settled_tick(store)

    spans = [span for span, _ in requests]
    assert logged(store) == sorted((trace_id, span, "scored") for span in spans)
    assert set(hallucination_scores(store)) == {(trace_id, span) for span in spans}
    report = collect_report(store, datetime.now(UTC) - timedelta(hours=1))
    (traffic,) = report.variants
    assert (traffic.requests, traffic.scored) == (2, 2)
    (hallucination,) = [row for row in report.hallucination if row.scorer == "lexical"]
    assert hallucination.rate.n == 2
    assert report.scoring.scored == 2
    verdicts = store.query(
        f"SELECT SpanId FROM {store.table('ragpulse_trace_verdicts')} FINAL WHERE Scorer = 'lexical'"
    )
    assert sorted(span for (span,) in verdicts) == sorted(spans)


class ChangedLexical(LexicalScorer):
    """The lexical scorer with every hallucination value set to 0.25, to tell a re-score's rows apart."""

    def score(self, request: RagRequest) -> list[Score]:
        return [
            score.model_copy(update={"value": 0.25}) if score.metric == "hallucination" else score
            for score in super().score(request)
        ]


def test_rescoring_one_request_leaves_the_other_requests_scores(
    store: Store, collector: CollectorServer, exporter: InMemorySpanExporter
) -> None:
    trace_id = handle_web_request(["What is the capital of France?", "Which capital lies on the Tiber"])
    send(collector, exporter)
    settled_tick(store)
    before = hallucination_scores(store)
    assert {trace for trace, _ in before} == {trace_id} and len(before) == 2
    assert 0.25 not in before.values()
    # A worker killed between its score and log writes: the first request is selected and scored again.
    first, second = sorted(before)
    store.command(
        f"DELETE FROM {store.table('ragpulse_scoring_log')}"
        " WHERE TraceId = {t:String} AND SpanId = {s:String}",
        {"t": first[0], "s": first[1]},
    )

    settled_tick(store, ChangedLexical())
    store.command(f"OPTIMIZE TABLE {store.table('ragpulse_scores')} FINAL")

    assert hallucination_scores(store) == {first: 0.25, second: before[second]}
    rows = store.query(f"SELECT count() FROM {store.table('ragpulse_scores')} WHERE Metric = 'hallucination'")
    assert rows == [(2,)]


@pytest.fixture
def pre_key_store(chdb_dsn: str) -> Iterator[Store]:
    """A database of its own, migrated to the schema before requests were keyed by their root span."""
    store = Store(chdb_dsn, f"prekey_{uuid.uuid4().hex[:8]}")
    migrate(store, ttl_days=30, through=PRE_KEY_SCHEMA)
    yield store
    store.command(f"DROP DATABASE IF EXISTS `{store.database}`", use_database=False)


def rag_span(trace_id: str, span_id: str, at: datetime, question: str) -> list[object]:
    attributes = {
        "ragpulse.kind": "rag", "ragpulse.pipeline": "capitals", "ragpulse.variant": "A",
        "input.value": question, "output.value": PASSAGES["paris"],
        "ragpulse.context": f'[{{"id": "paris", "text": "{PASSAGES["paris"]}", "rank": 1}}]',
    }  # fmt: skip
    return [at, trace_id, span_id, "", "rag capitals", "Internal", "svc", attributes, 2_000_000, "Ok"]


def test_requests_scored_before_the_upgrade_are_not_scored_again(pre_key_store: Store) -> None:
    store = pre_key_store
    at = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=10)
    scored, pending = uuid.uuid4().hex, uuid.uuid4().hex
    spans = [
        rag_span(scored, "a" * 16, at, "What is the capital of France?"),
        rag_span(pending, "b" * 16, at + timedelta(seconds=1), "Where is Paris?"),
    ]
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    # The old scorer's rows for the first request, without a SpanId (the tables had none).
    store.insert(
        "ragpulse_scores",
        [[scored, at, at + timedelta(minutes=1), "svc", "capitals", "A", "lexical", LexicalScorer.version,
          "hallucination", 1.0, ""]],
        OLD_SCORE_COLUMNS,
    )  # fmt: skip
    store.insert(
        "ragpulse_scoring_log",
        [
            [
                at + timedelta(minutes=1),
                scored,
                at,
                "svc",
                "A",
                "lexical",
                LexicalScorer.version,
                "scored",
                "",
                "w",
            ]
        ],
        OLD_LOG_COLUMNS,
    )

    migrate(store, ttl_days=30)

    assert [span for span, _ in requests_of(store, scored)] == ["a" * 16]
    assert [span for span, _ in requests_of(store, pending)] == ["b" * 16]
    settled_tick(store)
    assert logged(store) == sorted([(scored, "", "scored"), (pending, "b" * 16, "scored")])
    assert hallucination_scores(store)[(scored, "")] == 1.0
    assert set(hallucination_scores(store)) == {(scored, ""), (pending, "b" * 16)}
    # The request stored before the upgrade and the one after it are both in the report, once each.
    report = collect_report(store, datetime.now(UTC) - timedelta(hours=1))
    (traffic,) = report.variants
    assert (traffic.requests, traffic.scored) == (2, 2)
