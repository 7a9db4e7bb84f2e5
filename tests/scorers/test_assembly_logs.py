"""Assembly in a scheduler tick when content travels as GenAI events in ``otel_logs`` (the stock exporter's
layout), arriving before or after their spans, and for traces of families marked by keys of their own."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pipeline_testing import settings_for, trace_id
from ragpulse_assembly.model import TraceSpan
from ragpulse_core.store import Store
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import RagRequest
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import run_tick
from span_trees import SPAN_ROW_COLUMNS, span_rows

QUESTION = "What is the largest file I can upload from the browser?"
ANSWER = "Uploads through the web browser are limited to 5 GB per file."
DOCUMENTS = [
    "A single upload can be at most 50 GB through the desktop app. Uploads through the web browser are"
    " limited to 5 GB per file.",
    "Guest links expire after 14 days unless the owner renews them.",
]
SYSTEM = "Answer in one sentence.\n\nContext:\n" + "\n\n".join(DOCUMENTS)
LOG_COLUMNS = [
    "Timestamp",
    "TraceId",
    "SpanId",
    "ServiceName",
    "Body",
    "ScopeName",
    "LogAttributes",
    "EventName",
]
SCOPE = "opentelemetry.instrumentation.openai_v2"
SPAN_ID = "00000000000000a1"
REPLY = {"role": "assistant", "content": [{"text": ANSWER}]}


def chat_span(ended_ago: timedelta) -> TraceSpan:
    """openai-v2's chat span in legacy mode: model and tokens, no content."""
    started = datetime.now(UTC) - ended_ago - timedelta(seconds=1)
    attributes = {
        "gen_ai.operation.name": "chat",
        "gen_ai.system": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.usage.input_tokens": "120",
        "gen_ai.usage.output_tokens": "14",
    }
    return TraceSpan(SPAN_ID, "", "chat gpt-4o-mini", "helpdesk", SCOPE, started, 10**9, "Unset", attributes)


def legacy_events(trace: str, at: datetime) -> list[list[Any]]:
    """The legacy events of the chat: one log record per message, the name in EventName."""
    bodies = [
        ("gen_ai.system.message", {"content": SYSTEM}),
        ("gen_ai.user.message", {"content": QUESTION}),
        (
            "gen_ai.choice",
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": ANSWER}},
        ),
    ]
    return [
        [at + timedelta(microseconds=n), trace, SPAN_ID, "helpdesk", json.dumps(body), SCOPE,
         {"gen_ai.system": "openai"}, name]
        for n, (name, body) in enumerate(bodies)
    ]  # fmt: skip


def details_event(trace: str, at: datetime) -> list[list[Any]]:
    """The current semconv's one event: empty body, content in attributes (structured, stored as JSON)."""
    attributes = {
        "gen_ai.input.messages": json.dumps(
            [{"role": "system", "parts": [{"content": SYSTEM, "type": "text"}]},
             {"role": "user", "parts": [{"content": QUESTION, "type": "text"}]}]
        ),
        "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [{"content": ANSWER}]}]),
        "event.name": "gen_ai.client.inference.operation.details",
    }  # fmt: skip
    return [[at, trace, SPAN_ID, "helpdesk", "", "opentelemetry.util.genai.handler", attributes, ""]]


def requests(store: Store) -> list[dict[str, Any]]:
    return store.query_dicts(f"SELECT * FROM {store.table('ragpulse_requests')} FINAL ORDER BY TraceId")


def assert_the_served_request(row: dict[str, Any]) -> None:
    request = RagRequest.from_row(row)
    assert (request.question, request.answer) == (QUESTION, ANSWER)
    assert [chunk.text for chunk in request.context] == DOCUMENTS
    assert (row["Source"], row["ContextSource"], row["Unscorable"], row["InputTokens"]) == (
        "genai",
        "prompt",
        "",
        120,
    )


@pytest.mark.parametrize("events", [legacy_events, details_event])
def test_events_logged_before_their_span_give_the_request(store: Store, chdb_dsn: str, events: Any) -> None:
    trace = trace_id("logs-first", 0)
    span = chat_span(ended_ago=timedelta(minutes=5))
    store.insert("otel_logs", events(trace, span.timestamp + timedelta(milliseconds=900)), LOG_COLUMNS)
    store.insert("otel_traces", span_rows(trace, [span]), SPAN_ROW_COLUMNS)

    report = run_tick(settings_for(chdb_dsn), store, [LexicalScorer()])

    [row] = requests(store)
    assert_the_served_request(row)
    assert report.count("lexical", Outcome.SCORED) == 1


def test_events_logged_after_their_span_are_waited_for_then_joined(store: Store, chdb_dsn: str) -> None:
    trace = trace_id("logs-after", 0)
    settings = settings_for(chdb_dsn)  # a 60 s settle delay
    span = chat_span(ended_ago=timedelta(seconds=10))
    store.insert("otel_traces", span_rows(trace, [span]), SPAN_ROW_COLUMNS)

    early = run_tick(settings, store, [LexicalScorer()])
    store.insert("otel_logs", legacy_events(trace, span.timestamp + timedelta(milliseconds=900)), LOG_COLUMNS)
    # Past the settle delay, and past the wait a prompt of a template not learnt yet is given.
    past = timedelta(seconds=70 + settings.assembly.templates.wait_s)
    later = run_tick(settings, store, [LexicalScorer()], now=datetime.now(UTC) + past)

    assert (early.assembled, later.assembled) == (0, 1)
    assert_the_served_request(requests(store)[0])


def test_a_trace_whose_events_are_still_being_logged_waits_for_them_to_settle(
    store: Store, chdb_dsn: str
) -> None:
    trace = trace_id("logs-late", 0)
    settings = settings_for(chdb_dsn)
    span = chat_span(ended_ago=timedelta(minutes=5))
    store.insert("otel_traces", span_rows(trace, [span]), SPAN_ROW_COLUMNS)
    # The span settled long ago, but its choice event was logged a moment ago: more may come.
    store.insert("otel_logs", legacy_events(trace, datetime.now(UTC) - timedelta(seconds=5)), LOG_COLUMNS)

    early = run_tick(settings, store, [])
    later = run_tick(settings, store, [], now=datetime.now(UTC) + timedelta(seconds=70))

    assert (early.assembled, later.assembled) == (0, 1)
    assert_the_served_request(requests(store)[0])


def test_without_its_events_a_content_free_span_is_recorded_as_no_content(
    store: Store, chdb_dsn: str
) -> None:
    trace = trace_id("no-events", 0)
    store.insert("otel_traces", span_rows(trace, [chat_span(timedelta(minutes=5))]), SPAN_ROW_COLUMNS)

    report = run_tick(settings_for(chdb_dsn), store, [LexicalScorer()])

    [row] = requests(store)
    assert (row["Unscorable"], row["Question"], row["Model"]) == ("no_content", "", "gpt-4o-mini")
    assert report.count("lexical", Outcome.SKIPPED) == 1


def span(span_id: str, parent: str, name: str, scope: str, attributes: dict[str, Any]) -> TraceSpan:
    started = datetime.now(UTC) - timedelta(minutes=5)
    recorded = {
        key: value if isinstance(value, str) else json.dumps(value) for key, value in attributes.items()
    }
    return TraceSpan(span_id, parent, name, "helpdesk", scope, started, 10**8, "Ok", recorded)


FAMILY_TRACES: dict[str, list[TraceSpan]] = {
    "openllmetry 0.40, one LLM span": [
        span("b1", "", "openai.chat", "opentelemetry.instrumentation.openai.v1", {
            "llm.request.type": "chat", "gen_ai.prompt.0.role": "system", "gen_ai.prompt.0.content": SYSTEM,
            "gen_ai.prompt.1.role": "user", "gen_ai.prompt.1.content": QUESTION,
            "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.content": ANSWER,
        }),
    ],
    "haystack's own tracer": [
        span("c1", "", "haystack.pipeline.run", "helpdesk", {
            "haystack.pipeline.input_data": {"retriever": {"query": QUESTION}},
            "haystack.pipeline.output_data": {"llm": {"replies": [REPLY]}},
        }),
        span("c2", "c1", "haystack.component.run", "helpdesk", {
            "haystack.component.name": "retriever", "haystack.component.type": "InMemoryBM25Retriever",
            "haystack.component.input": {"query": QUESTION},
            "haystack.component.output": {"documents": [{"id": f"d{n}", "content": text, "score": 1.0}
                                                        for n, text in enumerate(DOCUMENTS)]},
        }),
    ],
    "traceloop workflow and tasks, no LLM span": [
        span("d1", "", "rag.workflow", "traceloop.tracer", {
            "traceloop.span.kind": "workflow", "traceloop.entity.input": {"args": [QUESTION], "kwargs": {}},
            "traceloop.entity.output": ANSWER,
        }),
        span("d2", "d1", "retrieve.task", "traceloop.tracer", {
            "traceloop.span.kind": "task", "traceloop.entity.name": "retrieve",
            "traceloop.entity.input": {"args": [QUESTION], "kwargs": {}},
            "traceloop.entity.output": [{"id": f"kb-{n}", "text": text} for n, text in enumerate(DOCUMENTS)],
        }),
    ],
}  # fmt: skip


def test_traces_of_every_family_are_picked_by_their_own_markers(store: Store, chdb_dsn: str) -> None:
    traces = {trace_id("family", n): family for n, family in enumerate(FAMILY_TRACES)}
    for trace, family in traces.items():
        store.insert("otel_traces", span_rows(trace, FAMILY_TRACES[family]), SPAN_ROW_COLUMNS)

    report = run_tick(settings_for(chdb_dsn), store, [LexicalScorer()])

    rows = {traces[row["TraceId"]]: row for row in requests(store)}
    assert set(rows) == set(FAMILY_TRACES)
    for family, row in rows.items():
        request = RagRequest.from_row(row)
        assert (request.question, request.answer, [c.text for c in request.context]) == (
            QUESTION, ANSWER, DOCUMENTS,
        ), family  # fmt: skip
    assert {family: row["Source"] for family, row in rows.items()} == {
        "openllmetry 0.40, one LLM span": "openllmetry",
        "haystack's own tracer": "haystack",
        "traceloop workflow and tasks, no LLM span": "openllmetry",
    }
    assert report.count("lexical", Outcome.SCORED) == len(FAMILY_TRACES)


def test_an_indexing_trace_is_read_once_and_never_again(store: Store, chdb_dsn: str) -> None:
    trace = trace_id("indexing", 0)
    component = {"haystack.component.name": "writer", "haystack.component.type": "DocumentWriter"}
    writer = span("e1", "", "haystack.component.run", "helpdesk", component)
    store.insert("otel_traces", span_rows(trace, [writer]), SPAN_ROW_COLUMNS)
    settings = settings_for(chdb_dsn)

    ticks = [run_tick(settings, store, []) for _ in range(2)]

    assert [tick.assembled for tick in ticks] == [0, 0] and requests(store) == []
    logged = store.query(f"SELECT TraceId, Outcome FROM {store.table('ragpulse_assembly_log')}")
    assert logged == [(trace, "not_a_request")]
