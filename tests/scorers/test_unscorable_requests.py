"""Requests that cannot be scored (content capture off, no context, a serialized value) are assembled with
their reason, never judged, logged as skipped once per request and scorer, and counted where people look:
the report (terminal and HTML, with what to change) and ``ragpulse requests --unscored``."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pipeline_testing import RecordingScorer, insert_requests, log_rows, settings_for, trace_id
from ragpulse_assembly.model import TraceSpan
from ragpulse_core.cli import main
from ragpulse_core.store import Store
from ragpulse_dashboards.report import collect_report, render_html, render_terminal
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.pipeline.tick import run_tick
from rich.console import Console
from span_trees import SPAN_ROW_COLUMNS, span_rows

QUESTION = "How long do deleted files stay in the trash?"
ANSWER = "Deleted files stay in the trash for 30 days."
DOCUMENT = "Deleted files stay in the trash for 30 days. After that they are removed for good."
HAYSTACK_REPR = (
    "ChatMessage(_role=<ChatRole.ASSISTANT: 'assistant'>, _content=[TextContent(text='30 days.')], _meta={})"
)


def chat(**attributes: str) -> dict[str, str]:
    return {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o-mini", **attributes}


def messages(*pairs: tuple[str, str]) -> str:
    return json.dumps([{"role": role, "parts": [{"type": "text", "content": text}]} for role, text in pairs])


TRACES: dict[str, dict[str, str]] = {
    "scorable": chat(
        **{
            "gen_ai.input.messages": messages(("system", f"Answer from the context.\n\nContext:\n{DOCUMENT}"),
                                              ("user", QUESTION)),
            "gen_ai.output.messages": messages(("assistant", ANSWER)),
        }
    ),
    "capture off": chat(**{"gen_ai.usage.input_tokens": "120", "gen_ai.usage.output_tokens": "9"}),
    "no documents": chat(
        **{
            "gen_ai.input.messages": messages(("user", QUESTION)),
            "gen_ai.output.messages": messages(("assistant", ANSWER)),
        }
    ),
    "a repr as the answer": {
        "openinference.span.kind": "LLM",
        "llm.input_messages.0.message.role": "system",
        "llm.input_messages.0.message.content": f"Context:\n{DOCUMENT}",
        "llm.input_messages.1.message.role": "user",
        "llm.input_messages.1.message.content": QUESTION,
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": HAYSTACK_REPR,
    },
}  # fmt: skip
EXPECTED = {
    "scorable": "",
    "capture off": "no_content",
    "no documents": "no_context",
    "a repr as the answer": "unparseable",
}


def insert_traces(store: Store) -> dict[str, str]:
    """One single-span trace per shape, finished five minutes ago; returns trace id → shape."""
    started = datetime.now(UTC) - timedelta(minutes=5)
    traces = {}
    for index, (shape, attributes) in enumerate(TRACES.items()):
        trace = trace_id("unscorable", index)
        span = TraceSpan(f"{index + 1:016x}", "", "chat", "helpdesk", "some.instrumentation", started,
                         2_000_000, "Ok", attributes)  # fmt: skip
        store.insert("otel_traces", span_rows(trace, [span]), SPAN_ROW_COLUMNS)
        traces[trace] = shape
    return traces


def requests_by_shape(store: Store, traces: dict[str, str]) -> dict[str, dict[str, Any]]:
    rows = store.query_dicts(f"SELECT * FROM {store.table('ragpulse_requests')} FINAL")
    return {traces[row["TraceId"]]: row for row in rows}


def test_each_request_says_whether_it_can_be_scored_and_why_not(store: Store, chdb_dsn: str) -> None:
    traces = insert_traces(store)

    run_tick(settings_for(chdb_dsn), store, [])

    rows = requests_by_shape(store, traces)
    assert {shape: row["Unscorable"] for shape, row in rows.items()} == EXPECTED
    assert rows["scorable"]["ContextSource"] == "prompt"
    assert (rows["capture off"]["Question"], rows["capture off"]["Answer"]) == ("", "")
    assert rows["capture off"]["InputTokens"] == 120  # what was recorded is kept


def test_no_judge_reads_an_unscorable_request_and_each_skip_is_logged_once(
    store: Store, chdb_dsn: str
) -> None:
    traces = insert_traces(store)
    asks_only_the_question = RecordingScorer(requires=("question",))
    settings = settings_for(chdb_dsn)

    run_tick(settings, store, [LexicalScorer(), asks_only_the_question])
    run_tick(settings, store, [LexicalScorer(), asks_only_the_question])

    lexical = {traces[row["TraceId"]]: (row["Outcome"], row["Reason"]) for row in log_rows(store, "lexical")}
    assert len(log_rows(store, "lexical")) == len(TRACES)  # one row per request, not one per tick
    assert lexical["scorable"][0] == "scored"
    assert lexical["capture off"] == (
        "skipped",
        "no content captured: no question or answer text was recorded: the instrumentation's content capture"
        " is off",
    )
    assert lexical["no documents"][1].startswith("no context: ")
    assert lexical["a repr as the answer"][1].startswith("unparseable: ")
    # A scorer that needs only the question may judge a request without context, never one without content
    # or one whose values are serialized objects.
    judged = {traces[trace] for trace in asks_only_the_question.calls}
    assert judged == {"scorable", "no documents"}
    assert len(log_rows(store)) == len(TRACES)


def test_the_report_counts_requests_not_scored_per_reason_and_says_what_to_do(
    store: Store, chdb_dsn: str
) -> None:
    insert_traces(store)
    run_tick(settings_for(chdb_dsn), store, [LexicalScorer()])

    data = collect_report(store, datetime.now(UTC) - timedelta(hours=1))
    console = Console(record=True, width=200)
    render_terminal(data, console)
    text = console.export_text()
    page = render_html(data)

    summary = "not scored: 3 (no content captured: 1, no context: 1, unparseable: 1)"
    assert summary in text and summary in page
    assert "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true" in text
    assert "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true" in page
    assert "Requests not scored" in page


def test_a_report_with_every_request_scorable_says_nothing_about_it(store: Store, chdb_dsn: str) -> None:
    insert_requests(store, 2)
    data = collect_report(store, datetime.now(UTC) - timedelta(hours=1))
    console = Console(record=True, width=200)
    render_terminal(data, console)

    assert data.unscored == [] and "not scored:" not in console.export_text()
    assert "Requests not scored" not in render_html(data)


def test_ragpulse_requests_lists_each_unscored_request_with_its_reason(
    store: Store, chdb_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    traces = insert_traces(store)
    run_tick(settings_for(chdb_dsn), store, [])

    assert main(["requests", "--dsn", chdb_dsn, "--unscored", "--since", "1h"]) == 0
    out = capsys.readouterr().out

    listed = {trace for trace in traces if trace[:16] in out}
    assert {traces[trace] for trace in listed} == {"capture off", "no documents", "a repr as the answer"}
    for label in ("no content captured", "no context", "unparseable"):
        assert f"1 not scored: {label}" in out
    assert "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true" in out

    assert main(["requests", "--dsn", chdb_dsn, "--since", "1h"]) == 0
    everything = capsys.readouterr().out
    assert {trace for trace in traces if trace[:16] in everything} == set(traces), everything


def test_ragpulse_requests_with_nothing_to_list_says_so(
    store: Store, chdb_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    insert_requests(store, 1)

    assert main(["requests", "--dsn", chdb_dsn, "--unscored"]) == 0
    assert "No unscorable requests since" in capsys.readouterr().out


def test_ragpulse_requests_with_the_store_down_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["requests", "--dsn", "http://default:@127.0.0.1:1/ragpulse"]) == 1
    assert "cannot read the requests" in capsys.readouterr().out
