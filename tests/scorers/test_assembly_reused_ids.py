"""A foreign service whose ids repeat (its own TracerProvider under a seeded ``random``, a restart, a replica)
sends the same trace and span ids again later: each occurrence is its own request, assembled, scored and
counted; an exporter's retry of one occurrence stays one request (issue 27, item 1)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pipeline_testing import settings_for, trace_id
from ragpulse_assembly.model import TraceSpan
from ragpulse_assembly.trace import occurrences
from ragpulse_core.store import Store
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import run_tick

SCOPE = "openinference.instrumentation.openai"
COLUMNS = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
           "ScopeName", "SpanAttributes", "Duration", "StatusCode"]  # fmt: skip
CONTEXT = "Refunds reach the card within five business days."


def llm_row(trace: str, started: datetime, answer: str, kind: str = "LLM") -> list[object]:
    attributes = {
        "openinference.span.kind": kind,
        "llm.input_messages.0.message.role": "system",
        "llm.input_messages.0.message.content": f"Context:\n{CONTEXT}",
        "llm.input_messages.1.message.role": "user",
        "llm.input_messages.1.message.content": "How long do refunds take?",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": answer,
    }
    return [started, trace, "00000000000000a1", "", "ChatCompletion", "Client", "support-bot", SCOPE,
            attributes, 1_000_000, "Ok"]  # fmt: skip


def requests_of(store: Store, trace: str) -> list[tuple[datetime, str]]:
    rows = store.query(
        f"SELECT Timestamp, Answer FROM {store.table('ragpulse_requests')} FINAL WHERE TraceId = {{t:String}}"
        " ORDER BY Timestamp",
        {"t": trace},
    )
    return [(moment, str(answer)) for moment, answer in rows]


def test_a_trace_id_that_comes_back_later_is_a_second_request_and_a_retry_is_none(
    store: Store, chdb_dsn: str
) -> None:
    trace = trace_id("reused", 0)
    first = datetime.now(UTC) - timedelta(minutes=20)
    settings = settings_for(chdb_dsn)
    store.insert("otel_traces", [llm_row(trace, first, CONTEXT)], COLUMNS)
    assert run_tick(settings, store, [LexicalScorer()]).count("lexical", Outcome.SCORED) == 1

    again = first + timedelta(minutes=10)
    later = "Refunds reach the card within five business days, and cost nothing."
    store.insert("otel_traces", [llm_row(trace, again, later)], COLUMNS)
    store.insert("otel_traces", [llm_row(trace, first, CONTEXT)], COLUMNS)  # an exporter retrying the first
    report = run_tick(settings, store, [LexicalScorer()])

    assert report.assembled == 1 and report.count("lexical", Outcome.SCORED) == 1
    assert [answer for _, answer in requests_of(store, trace)] == [CONTEXT, later]
    quiet = run_tick(settings, store, [LexicalScorer()])
    assert quiet.assembled == 0 and quiet.count("lexical", Outcome.SCORED) == 0


def test_an_occurrence_that_held_no_request_does_not_hide_a_later_one_that_does(
    store: Store, chdb_dsn: str
) -> None:
    trace = trace_id("reused", 1)
    first = datetime.now(UTC) - timedelta(minutes=20)
    settings = settings_for(chdb_dsn)
    store.insert("otel_traces", [llm_row(trace, first, "", kind="EMBEDDING")], COLUMNS)
    run_tick(settings, store, [LexicalScorer()])
    assert requests_of(store, trace) == []

    store.insert("otel_traces", [llm_row(trace, first + timedelta(minutes=10), CONTEXT)], COLUMNS)
    report = run_tick(settings, store, [LexicalScorer()])

    assert report.assembled == 1 and [answer for _, answer in requests_of(store, trace)] == [CONTEXT]


def span(span_id: str, at: datetime, parent: str = "") -> TraceSpan:
    return TraceSpan(span_id, parent, "s", "svc", SCOPE, at, 1_000, "Ok", {})


def test_occurrences_split_where_a_span_id_starts_again_and_keep_retries_together() -> None:
    t0 = datetime(2026, 11, 26, 12, tzinfo=UTC)
    first = [span("a", t0), span("b", t0 + timedelta(milliseconds=5), "a")]
    second = [span("a", t0 + timedelta(minutes=3)), span("b", t0 + timedelta(minutes=3, milliseconds=5), "a")]

    found = occurrences([*second, first[1], *first, first[0]])

    assert found == [[first[0], first[0], first[1], first[1]], second]
    assert occurrences(first) == [first]
