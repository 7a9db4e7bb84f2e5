"""The decorators on a RAG-Fusion pipeline: what lands on the spans, and what the application sees."""

from __future__ import annotations

import asyncio
import contextvars
import json
import threading
from dataclasses import dataclass
from typing import Any

import pytest
import ragpulse
from ragpulse import semconv
from span_capture import Spans

CHUNKS = {
    query: [
        {"id": f"{query}-{i}", "text": f"{query} text {i}", "score": 1.0 - i / 10, "source": "kb"}
        for i in range(3)
    ]
    for query in ("q", "q v1", "q v2")
}


@ragpulse.variations
def make_variations(question: str) -> list[str]:
    return [question, f"{question} v1", f"{question} v2"]


@ragpulse.retrieve
def search(query: str, top_k: int = 3) -> list[dict[str, Any]]:
    return CHUNKS[query][:top_k]


@ragpulse.fuse(k=60)
def fuse(rankings: list[list[dict[str, Any]]]) -> list[ragpulse.FusedChunk]:
    return ragpulse.rrf(rankings, k=60, top_n=4)


@ragpulse.generate(model="gpt-test")
def write_answer(question: str, chunks: list[Any]) -> str:
    return f"answer from {len(chunks)} chunks"


@ragpulse.rag(pipeline="fusion", variant="B")
def answer(question: str) -> str:
    rankings = [search(query) for query in make_variations(question)]
    return write_answer(question, fuse(rankings))


def attrs(span: Any) -> dict[str, Any]:
    return dict(span.attributes or {})


def test_a_fusion_request_is_one_root_with_five_kinds_of_steps(spans: Spans) -> None:
    assert answer("q") == "answer from 4 chunks"

    root = spans.one("rag fusion")
    assert root.parent is None
    children = [span for span in spans.all() if span is not root]
    assert sorted(span.name for span in children) == [
        "fuse",
        "generate",
        "retrieve",
        "retrieve",
        "retrieve",
        "variations",
    ]
    assert all(span.parent is not None and span.parent.span_id == root.context.span_id for span in children)
    assert {span.context.trace_id for span in spans.all()} == {root.context.trace_id}

    root_attributes = attrs(root)
    assert root_attributes[semconv.SPAN_KIND] == "CHAIN"
    assert root_attributes[semconv.KIND] == "rag"
    assert root_attributes[semconv.PIPELINE] == "fusion"
    assert root_attributes[semconv.VARIANT] == "B"
    assert root_attributes[semconv.INPUT_VALUE] == "q"
    assert root_attributes[semconv.OUTPUT_VALUE] == "answer from 4 chunks"
    assert json.loads(root_attributes[semconv.VARIATIONS]) == ["q", "q v1", "q v2"]

    fused = ragpulse.rrf(list(CHUNKS.values()), top_n=4)
    context = json.loads(root_attributes[semconv.CONTEXT])
    assert context == [
        {"id": chunk.id, "text": chunk.text, "score": chunk.score, "rank": rank, "source": "kb"}
        for rank, chunk in enumerate(fused, start=1)
    ]
    retrievals = json.loads(root_attributes[semconv.RETRIEVALS])
    assert [(r["query"], r["query_index"]) for r in retrievals] == [("q", 0), ("q v1", 1), ("q v2", 2)]
    assert retrievals[1]["documents"] == [
        {"id": f"q v1-{i}", "score": 1.0 - i / 10, "rank": i + 1} for i in range(3)
    ]


def test_step_spans_follow_the_conventions(spans: Spans) -> None:
    answer("q")
    retrieve = next(span for span in spans.named("retrieve") if attrs(span)[semconv.QUERY_INDEX] == 1)
    assert attrs(retrieve) == {
        semconv.SPAN_KIND: "RETRIEVER",
        semconv.GEN_AI_OPERATION_NAME: "retrieval",
        semconv.QUERY_INDEX: 1,
        semconv.INPUT_VALUE: "q v1",
        semconv.GEN_AI_RETRIEVAL_QUERY_TEXT: "q v1",
        **{semconv.retrieval_document(i, "id"): f"q v1-{i}" for i in range(3)},
        **{semconv.retrieval_document(i, "score"): 1.0 - i / 10 for i in range(3)},
    }
    fuse_attributes = attrs(spans.one("fuse"))
    assert fuse_attributes[semconv.SPAN_KIND] == "RERANKER"
    assert fuse_attributes[semconv.FUSION_METHOD] == "rrf"
    assert fuse_attributes[semconv.FUSION_K] == 60
    assert json.loads(fuse_attributes[semconv.FUSION_INPUT_RANKINGS])[0] == [
        {"id": f"q-{i}", "score": 1.0 - i / 10} for i in range(3)
    ]
    output = json.loads(fuse_attributes[semconv.FUSION_OUTPUT_RANKING])
    assert len(output) == 4
    assert fuse_attributes[semconv.reranker_output_document(0, "id")] == output[0]["id"]
    generate = attrs(spans.one("generate"))
    assert generate[semconv.SPAN_KIND] == "LLM"
    assert generate[semconv.LLM_MODEL_NAME] == generate[semconv.GEN_AI_REQUEST_MODEL] == "gpt-test"
    assert generate[semconv.GEN_AI_OPERATION_NAME] == "chat"
    assert generate[semconv.OUTPUT_VALUE] == "answer from 4 chunks"
    assert generate[semconv.PROMPT_CHARS] == len("q") + sum(len(c["text"]) for c in output_chunks(output))
    variations = attrs(spans.one("variations"))
    assert json.loads(variations[semconv.OUTPUT_VALUE]) == ["q", "q v1", "q v2"]


def output_chunks(output: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_id = {chunk["id"]: chunk for ranking in CHUNKS.values() for chunk in ranking}
    return [by_id[entry["id"]] for entry in output]


def test_retrieve_capture_text_records_each_chunk_text(spans: Spans) -> None:
    @ragpulse.retrieve(capture_text=True, name="kb search")
    def search_with_text(query: str) -> list[tuple[str, float]]:
        return [("first chunk", 0.9), ("second chunk", 0.5)]

    search_with_text("q")
    span = attrs(spans.one("kb search"))
    assert span[semconv.retrieval_document(0, "content")] == "first chunk"
    assert span[semconv.retrieval_document(1, "content")] == "second chunk"


def test_explicit_query_index_wins_over_call_order(spans: Spans) -> None:
    @ragpulse.retrieve
    def search_variation(query: str, query_index: int) -> list[str]:
        return [query]

    @ragpulse.rag
    def request(question: str) -> str:
        search_variation("second", query_index=1)
        search_variation("first", 0)
        return "done"

    request("q")
    retrievals = json.loads(attrs(spans.one("rag request"))[semconv.RETRIEVALS])
    assert [(r["query"], r["query_index"]) for r in retrievals] == [("first", 0), ("second", 1)]


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        ({"answer": "from dict", "sources": []}, "from dict"),
        ({"output": "from output key"}, "from output key"),
    ],
)
def test_answer_from_a_dict(spans: Spans, result: dict[str, Any], expected: str) -> None:
    @ragpulse.rag(question_arg="prompt")
    def request(user: str, prompt: str) -> dict[str, Any]:
        return result

    assert request("alice", prompt="the question") is result
    root = attrs(spans.one("rag request"))
    assert (root[semconv.INPUT_VALUE], root[semconv.OUTPUT_VALUE]) == ("the question", expected)


def test_answer_from_an_object_and_openai_usage(spans: Spans) -> None:
    @dataclass
    class Usage:
        prompt_tokens: int
        completion_tokens: int

    @dataclass
    class Reply:
        text: str
        usage: Usage
        model: str

    reply = Reply("object answer", Usage(120, 30), "gpt-4o-2024")

    @ragpulse.generate
    def call_llm(question: str, context: list[str], model: str = "gpt-4o") -> Reply:
        return reply

    @ragpulse.rag(name="custom root")
    def request(question: str) -> Reply:
        return call_llm(question, ["a", "b"], model="gpt-4o")

    assert request("q") is reply
    generate = attrs(spans.one("generate"))
    assert generate[semconv.LLM_MODEL_NAME] == "gpt-4o"
    assert generate[semconv.GEN_AI_RESPONSE_MODEL] == "gpt-4o-2024"
    assert generate[semconv.LLM_TOKEN_COUNT_PROMPT] == generate[semconv.GEN_AI_USAGE_INPUT_TOKENS] == 120
    assert generate[semconv.LLM_TOKEN_COUNT_COMPLETION] == generate[semconv.GEN_AI_USAGE_OUTPUT_TOKENS] == 30
    assert generate[semconv.LLM_TOKEN_COUNT_TOTAL] == 150
    root = attrs(spans.one("custom root"))
    assert root[semconv.OUTPUT_VALUE] == "object answer"
    assert [entry["text"] for entry in json.loads(root[semconv.CONTEXT])] == ["a", "b"]


def test_reference_user_session_and_attributes_go_on_the_root(spans: Spans) -> None:
    @ragpulse.retrieve
    def search_inside(query: str) -> list[str]:
        ragpulse.set_attributes(**{"app.tenant": "acme", semconv.LLM_TOKEN_COUNT_PROMPT: 12})
        return []

    @ragpulse.rag
    def request(question: str) -> str:
        ragpulse.set_reference("the known answer")
        ragpulse.set_user("user-7")
        ragpulse.set_session("session-3")
        search_inside(question)
        return "a"

    request("q")
    root = attrs(spans.one("rag request"))
    assert root[semconv.REFERENCE] == "the known answer"
    assert (root[semconv.USER_ID], root[semconv.SESSION_ID]) == ("user-7", "session-3")
    assert (root["app.tenant"], root[semconv.LLM_TOKEN_COUNT_PROMPT]) == ("acme", 12)
    assert "app.tenant" not in attrs(spans.one("retrieve"))


def test_setters_outside_a_request_do_nothing(spans: Spans) -> None:
    errors = ragpulse.internal_error_count()
    ragpulse.set_reference("r")
    ragpulse.set_user("u")
    ragpulse.set_session("s")
    ragpulse.set_attributes(x=1)
    assert spans.all() == []
    assert ragpulse.internal_error_count() == errors


def test_steps_outside_a_request_still_make_spans(spans: Spans) -> None:
    assert search("q", top_k=1) == CHUNKS["q"][:1]
    span = spans.one("retrieve")
    assert span.parent is None
    assert attrs(span)[semconv.QUERY_INDEX] == 0


async def test_async_pipeline_with_concurrent_retrievals(spans: Spans) -> None:
    @ragpulse.retrieve
    async def search_async(query: str) -> list[dict[str, Any]]:
        await asyncio.sleep(0.001 if query == "q" else 0)
        return CHUNKS[query]

    @ragpulse.generate
    async def generate_async(question: str, chunks: list[Any]) -> str:
        await asyncio.sleep(0)
        return "async answer"

    @ragpulse.rag(pipeline="async")
    async def request(question: str) -> str:
        rankings = await asyncio.gather(*(search_async(query) for query in ("q", "q v1", "q v2")))
        return await generate_async(question, ragpulse.rrf(rankings))

    assert await request("q") == "async answer"
    root = spans.one("rag async")
    assert attrs(root)[semconv.OUTPUT_VALUE] == "async answer"
    retrievals = json.loads(attrs(root)[semconv.RETRIEVALS])
    assert [(r["query"], r["query_index"]) for r in retrievals] == [("q", 0), ("q v1", 1), ("q v2", 2)]
    assert all(
        span.parent and span.parent.span_id == root.context.span_id for span in spans.named("retrieve")
    )


async def test_concurrent_requests_do_not_mix(spans: Spans) -> None:
    @ragpulse.rag
    async def request(question: str) -> str:
        await asyncio.sleep(0)
        make_variations(question)
        await asyncio.sleep(0)
        return question.upper()

    await asyncio.gather(request("a"), request("b"))
    for root in spans.named("rag request"):
        question = attrs(root)[semconv.INPUT_VALUE]
        assert json.loads(attrs(root)[semconv.VARIATIONS])[0] == question


def test_threads_with_a_copied_context_report_to_the_request(spans: Spans) -> None:
    @ragpulse.rag
    def request(question: str) -> str:
        threads = [
            threading.Thread(target=contextvars.copy_context().run, args=(search, query))
            for query in ("q", "q v1")
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return "done"

    request("q")
    retrievals = json.loads(attrs(spans.one("rag request"))[semconv.RETRIEVALS])
    assert sorted(r["query"] for r in retrievals) == ["q", "q v1"]
    assert sorted(r["query_index"] for r in retrievals) == [0, 1]


def test_methods_can_be_decorated(spans: Spans) -> None:
    class Service:
        @ragpulse.rag(pipeline="svc")
        def ask(self, question: str) -> str:
            return f"{question}!"

    assert Service().ask("hi") == "hi!"
    assert attrs(spans.one("rag svc"))[semconv.INPUT_VALUE] == "hi"


def test_decorated_functions_keep_their_name_and_docstring() -> None:
    assert answer.__name__ == "answer"
    assert search.__wrapped__.__name__ == "search"  # type: ignore[attr-defined]
