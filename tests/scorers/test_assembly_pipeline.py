"""Assembly in a scheduler tick against embedded chDB: traces shaped as OpenInference's LangChain and
LlamaIndex instrumentors and the GenAI conventions write them become scored requests, once."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from pipeline_testing import insert_requests, settings_for, trace_id
from ragpulse_assembly.model import TraceSpan
from ragpulse_core.store import Store
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import RagRequest
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.candidates import Candidate, load_requests
from ragpulse_scorers.pipeline.tick import run_tick
from span_trees import LLAMA_INDEX_SCOPE, SPAN_ROW_COLUMNS, FusionRequest, ragpulse_root, span_rows

CORPUS = {
    "n1": "The Eiffel Tower is 330 metres tall.",
    "n2": "It was built for the 1889 World's Fair.",
    "n3": "Paris is the capital of France.",
    "n4": "The Louvre is the world's most visited museum.",
}
QUESTION = "How tall is the Eiffel Tower?"


def fusion(shape: str, **changes: Any) -> FusionRequest:
    request = FusionRequest(
        shape=shape,
        question=QUESTION,
        answer="The Eiffel Tower is 330 metres tall.",
        corpus=CORPUS,
        generated=["Eiffel Tower height", "tallest tower in Paris"],
        question_searched=shape == "llamaindex",
        rankings={
            QUESTION: ["n1", "n3"],
            "Eiffel Tower height": ["n1", "n2"],
            "tallest tower in Paris": ["n3", "n4"],
        },
        fused=["n1", "n3"],
        start_order=["tallest tower in Paris", QUESTION, "Eiffel Tower height"],
        tokens=(212, 9),
    )
    request = replace(request, **changes)
    if not request.question_searched:
        request = replace(request, start_order=[q for q in request.start_order if q != QUESTION])
    return request


def insert_trace(store: Store, trace: str, spans: list[TraceSpan]) -> None:
    store.insert("otel_traces", span_rows(trace, spans), SPAN_ROW_COLUMNS)


def insert_fusion(
    store: Store, trace: str, request: FusionRequest, age: timedelta = timedelta(minutes=5)
) -> None:
    insert_trace(store, trace, request.spans(datetime.now(UTC) - age))


def request_rows(store: Store) -> list[dict[str, Any]]:
    return store.query_dicts(f"SELECT * FROM {store.table('ragpulse_requests')} ORDER BY TraceId")


def lexical_outcomes(store: Store) -> dict[str, str]:
    rows = store.query(
        f"SELECT TraceId, Outcome FROM {store.table('ragpulse_scoring_log')} WHERE Scorer = 'lexical'"
    )
    return dict(rows)


def test_langchain_and_llama_index_traces_become_scored_requests(store: Store, chdb_dsn: str) -> None:
    langchain, llama_index = trace_id("lc", 0), trace_id("li", 0)
    insert_fusion(store, langchain, fusion("langchain"))
    insert_fusion(store, llama_index, fusion("llamaindex"))

    report = run_tick(settings_for(chdb_dsn), store, [LexicalScorer()])

    rows = {row["TraceId"]: row for row in request_rows(store)}
    assert set(rows) == {langchain, llama_index}
    for trace, expected_variations in [
        (langchain, ["Eiffel Tower height", "tallest tower in Paris"]),
        (llama_index, [QUESTION, "Eiffel Tower height", "tallest tower in Paris"]),
    ]:
        row = rows[trace]
        request = RagRequest.from_row(row)
        assert (request.question, request.answer) == (QUESTION, "The Eiffel Tower is 330 metres tall.")
        assert [chunk.text for chunk in request.context] == [CORPUS["n1"], CORPUS["n3"]]
        assert request.variations == expected_variations
        assert [(r.query, r.query_index) for r in request.retrievals] == [
            (q, i) for i, q in enumerate(expected_variations)
        ]
        assert (row["Source"], row["Model"], row["InputTokens"], row["OutputTokens"]) == (
            "openinference", "gpt-test", 212, 9,
        )  # fmt: skip
        assert row["SampleKey"] != 0 and row["ServiceName"] == "fusion-app"
    assert rows[llama_index]["Pipeline"] == "RetrieverQueryEngine.query"
    assert [c.id for c in RagRequest.from_row(rows[llama_index]).context] == ["n1", "n3"]
    assert report.assembled == 2
    assert report.count("lexical", Outcome.SCORED) == 2
    assert lexical_outcomes(store) == {langchain: "scored", llama_index: "scored"}


def test_assembling_again_writes_nothing_and_the_row_stays_one(store: Store, chdb_dsn: str) -> None:
    trace = trace_id("again", 0)
    insert_fusion(store, trace, fusion("langchain"))
    settings = settings_for(chdb_dsn)

    first = run_tick(settings, store, [LexicalScorer()])
    second = run_tick(settings, store, [LexicalScorer()])

    assert (first.assembled, second.assembled) == (1, 0)
    assert len(request_rows(store)) == 1
    assert second.count("lexical", Outcome.SCORED) == 0


def test_a_genai_trace_is_assembled_with_its_source(store: Store, chdb_dsn: str) -> None:
    trace = trace_id("genai", 0)
    insert_fusion(store, trace, fusion("genai"))

    run_tick(settings_for(chdb_dsn), store, [LexicalScorer()])

    [row] = request_rows(store)
    assert (row["Source"], row["Question"], row["Model"], row["InputTokens"]) == (
        "genai",
        QUESTION,
        "gpt-test",
        212,
    )
    assert [c["id"] for c in json.loads(row["Context"])] == ["n1", "n3"]
    assert lexical_outcomes(store) == {trace: "scored"}


def test_only_settled_request_traces_are_assembled(store: Store, chdb_dsn: str) -> None:
    settled, growing, ancient, indexing = (trace_id("state", i) for i in range(4))
    insert_fusion(store, settled, fusion("llamaindex"))
    insert_fusion(store, growing, fusion("llamaindex"))
    # A late span of the second trace ended a moment ago: the trace may still grow.
    late = fusion("llamaindex").spans(datetime.now(UTC) - timedelta(seconds=3))[-1]
    insert_trace(store, growing, [replace(late, span_id="late-span")])
    insert_fusion(store, ancient, fusion("llamaindex"), age=timedelta(hours=30))
    embed = TraceSpan(
        "e1", "", "MockEmbedding.get_text_embedding_batch", "fusion-app", LLAMA_INDEX_SCOPE,
        datetime.now(UTC) - timedelta(minutes=5), 1000, "Ok", {"openinference.span.kind": "EMBEDDING"},
    )  # fmt: skip
    insert_trace(store, indexing, [embed])

    report = run_tick(settings_for(chdb_dsn), store, [LexicalScorer()])

    assert [row["TraceId"] for row in request_rows(store)] == [settled]
    assert report.assembled == 1


def test_shards_split_the_traces_between_workers(store: Store, chdb_dsn: str) -> None:
    traces = [trace_id("shard", i) for i in range(12)]
    for trace in traces:
        insert_fusion(store, trace, fusion("langchain"))

    first = run_tick(settings_for(chdb_dsn, shard="0/2"), store, [])
    second = run_tick(settings_for(chdb_dsn, shard="1/2"), store, [])

    assert 0 < first.assembled < len(traces)
    assert first.assembled + second.assembled == len(traces)
    assert sorted(row["TraceId"] for row in request_rows(store)) == sorted(traces)


def test_traces_are_assembled_in_bounded_batches_up_to_a_limit_per_tick(store: Store, chdb_dsn: str) -> None:
    for i in range(5):
        insert_fusion(store, trace_id("batch", i), fusion("langchain"))
    settings = settings_for(chdb_dsn)
    settings.assembly.batch_size = 2
    settings.assembly.max_traces_per_tick = 3

    ticks = [run_tick(settings, store, []).assembled for _ in range(3)]

    assert ticks == [3, 2, 0]


def test_a_trace_assembly_turns_down_is_logged_once_and_never_holds_back_the_ones_behind_it(
    store: Store, chdb_dsn: str
) -> None:
    # A declared CHAIN kind wins over the GenAI operation: this span is no LLM call, its trace no request.
    started = datetime.now(UTC) - timedelta(minutes=10)
    chain = TraceSpan(
        "c1", "", "chat", "svc", "other.instrumentation", started, 1_000_000, "Ok",
        {"openinference.span.kind": "CHAIN", "gen_ai.operation.name": "chat", "output.value": "a"},
    )  # fmt: skip
    store.insert("otel_traces", span_rows(trace_id("chain", 0), [chain]), SPAN_ROW_COLUMNS)
    insert_fusion(store, trace_id("fusion", 0), fusion("langchain"))
    settings = settings_for(chdb_dsn)
    settings.assembly.max_traces_per_tick = 1

    assert [run_tick(settings, store, []).assembled for _ in range(3)] == [0, 1, 0]
    logged = store.query(f"SELECT TraceId, Outcome FROM {store.table('ragpulse_assembly_log')}")
    assert logged == [(trace_id("chain", 0), "not_a_request")]
    assert [row["TraceId"] for row in request_rows(store)] == [trace_id("fusion", 0)]


def test_a_ragpulse_root_without_context_is_completed_from_its_openinference_children(
    store: Store, chdb_dsn: str
) -> None:
    trace = trace_id("hybrid", 0)
    spans = fusion("langchain").spans(datetime.now(UTC) - timedelta(minutes=5))
    root = ragpulse_root(
        spans[0], {"input.value": QUESTION, "output.value": "The Eiffel Tower is 330 metres tall."}
    )
    insert_trace(store, trace, [root, *spans[1:]])
    [from_view] = request_rows(store)
    assert (from_view["Source"], from_view["Context"]) == ("ragpulse", "")

    report = run_tick(settings_for(chdb_dsn), store, [LexicalScorer()])

    assert report.assembled == 1
    span = from_view["SpanId"]
    at, position = from_view["Timestamp"], (0, trace, span)
    candidate = Candidate(trace, span, at, "fusion-app", "B", True, 0, frozenset(), position)
    request = RagRequest.from_row(load_requests(store, [candidate])[candidate.request_id].values)
    assert (request.pipeline, request.variant) == ("lcel", "B")
    assert [chunk.text for chunk in request.context] == [CORPUS["n1"], CORPUS["n3"]]
    assert lexical_outcomes(store) == {trace: "scored"}
    final = store.query(f"SELECT Source FROM {store.table('ragpulse_requests')} FINAL")
    assert final == [("openinference",)]


def test_rows_from_ragpulse_roots_say_so(store: Store) -> None:
    insert_requests(store, 1)

    assert [row["Source"] for row in request_rows(store)] == ["ragpulse"]


def test_a_long_request_waits_until_its_end_has_settled_before_either_step_takes_it(
    store: Store, chdb_dsn: str
) -> None:
    # Started 70 s ago, ended 20 s ago: its start is past the 60 s settle delay, its end is not. Scoring the
    # view's row now would judge it without the context its OpenInference children hold.
    trace = trace_id("long", 0)
    spans = fusion("langchain").spans(datetime.now(UTC) - timedelta(seconds=70))
    root = ragpulse_root(spans[0], {"input.value": QUESTION})
    insert_trace(store, trace, [replace(root, duration_ns=50 * 10**9), *spans[1:]])
    settings = settings_for(chdb_dsn)

    early = run_tick(settings, store, [LexicalScorer()])
    later = run_tick(settings, store, [LexicalScorer()], now=datetime.now(UTC) + timedelta(seconds=45))

    assert (early.assembled, early.total(Outcome.SKIPPED), early.total(Outcome.SCORED)) == (0, 0, 0)
    assert (later.assembled, later.total(Outcome.SCORED)) == (1, 1)
    assert lexical_outcomes(store) == {trace: "scored"}
