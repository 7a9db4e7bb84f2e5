"""App exceptions are recorded and re-raised unchanged; ragpulse's own failures never reach the app."""

from __future__ import annotations

import json
from typing import Any

import pytest
import ragpulse
from opentelemetry.trace import StatusCode
from ragpulse import semconv, steps
from span_capture import Spans


def attrs(span: Any) -> dict[str, Any]:
    return dict(span.attributes or {})


class RetrieverDown(Exception):
    pass


def test_sync_exception_is_recorded_and_reraised_unchanged(spans: Spans) -> None:
    failure = RetrieverDown("index offline")

    @ragpulse.retrieve
    def search(query: str) -> list[str]:
        raise failure

    @ragpulse.rag
    def request(question: str) -> str:
        search(question)
        return "never"

    with pytest.raises(RetrieverDown) as raised:
        request("q")
    assert raised.value is failure
    for name in ("retrieve", "rag request"):
        span = spans.one(name)
        assert span.status.status_code is StatusCode.ERROR
        assert span.status.description == "RetrieverDown: index offline"
        assert span.events[0].name == "exception"
        assert span.events[0].attributes is not None
        assert span.events[0].attributes["exception.type"].endswith("RetrieverDown")


def test_a_failed_request_keeps_what_its_steps_reported(spans: Spans) -> None:
    @ragpulse.variations
    def make_variations(question: str) -> list[str]:
        return [question, "other"]

    @ragpulse.rag
    def request(question: str) -> str:
        make_variations(question)
        raise ValueError("generation failed")

    with pytest.raises(ValueError, match="generation failed"):
        request("q")
    assert json.loads(attrs(spans.one("rag request"))[semconv.VARIATIONS]) == ["q", "other"]


async def test_async_exception_is_reraised(spans: Spans) -> None:
    @ragpulse.generate
    async def generate(question: str, chunks: list[str]) -> str:
        raise TimeoutError("llm timeout")

    with pytest.raises(TimeoutError, match="llm timeout"):
        await generate("q", [])
    assert spans.one("generate").status.status_code is StatusCode.ERROR


def test_a_chunk_that_cannot_be_read_is_counted_and_left_out(spans: Spans) -> None:
    unreadable = object()

    @ragpulse.retrieve
    def search(query: str) -> list[object]:
        return [{"id": "good", "text": "t", "score": 1.0}, unreadable, ("tail", 0.1)]

    before = ragpulse.internal_error_count()
    result = search("q")
    assert result[1] is unreadable
    assert ragpulse.internal_error_count() == before + 1
    span = attrs(spans.one("retrieve"))
    assert span[semconv.retrieval_document(0, "id")] == "good"
    assert span[semconv.retrieval_document(1, "score")] == 0.1
    assert semconv.retrieval_document(2, "id") not in span


def test_a_chunk_left_out_keeps_the_ranks_of_those_after_it(spans: Spans) -> None:
    @ragpulse.retrieve
    def search(query: str) -> list[object]:
        return [{"id": "a", "text": "t", "score": 0.9}, object(), {"id": "c", "text": "t", "score": 0.5}]

    @ragpulse.fuse
    def fuse(rankings: list[list[object]]) -> list[object]:
        return [{"id": "c", "text": "t", "score": 0.7}, None, {"id": "a", "text": "t", "score": 0.6}]

    @ragpulse.rag
    def answer(question: str) -> str:
        fuse([search(question)])
        return "done"

    answer("q")
    retrievals = json.loads(str(attrs(spans.one("rag answer"))[semconv.RETRIEVALS]))
    assert [(d["id"], d["rank"]) for d in retrievals[0]["documents"]] == [("a", 1), ("c", 3)]
    fused = attrs(spans.one("fuse"))
    assert json.loads(str(fused[semconv.FUSION_INPUT_RANKINGS])) == [
        [{"id": "a", "score": 0.9}, {"id": "c", "score": 0.5}]
    ]
    assert json.loads(str(fused[semconv.FUSION_OUTPUT_RANKING])) == [
        {"id": "c", "score": 0.7},
        {"id": "a", "score": 0.6},
    ]


def test_a_failing_redact_hook_withholds_the_text_and_the_app_goes_on(spans: Spans) -> None:
    def broken(text: str) -> str:
        raise RuntimeError("hook bug")

    ragpulse.configure(redact=broken)

    @ragpulse.rag
    def request(question: str) -> str:
        return "secret answer"

    before = ragpulse.internal_error_count()
    assert request("secret question") == "secret answer"
    assert ragpulse.internal_error_count() == before + 2
    root = attrs(spans.one("rag request"))
    assert root[semconv.INPUT_VALUE] == root[semconv.OUTPUT_VALUE] == semconv.REDACTION_FAILED_MARKER


def test_a_failure_while_ending_a_span_still_ends_it(spans: Spans, monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(result: object) -> str:
        raise KeyError("bug in ragpulse")

    monkeypatch.setattr(steps, "answer_text", explode)

    @ragpulse.rag
    def request(question: str) -> str:
        return "fine"

    before = ragpulse.internal_error_count()
    assert request("q") == "fine"
    assert ragpulse.internal_error_count() == before + 1
    assert spans.one("rag request").end_time is not None


def test_a_failure_while_starting_runs_the_function_untraced(
    spans: Spans, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*args: object) -> object:
        raise RuntimeError("bug in ragpulse")

    monkeypatch.setattr(steps, "first_query", explode)

    @ragpulse.variations
    def make_variations(question: str) -> list[str]:
        return [question]

    before = ragpulse.internal_error_count()
    assert make_variations("q") == ["q"]
    assert ragpulse.internal_error_count() == before + 1
    assert spans.all() == []


def test_unexpected_return_types_are_not_recorded_but_returned(spans: Spans) -> None:
    @ragpulse.retrieve
    def search(query: str) -> dict[str, str]:
        return {"not": "a list"}

    @ragpulse.variations
    def make_variations(question: str) -> None:
        return None

    assert search("q") == {"not": "a list"}
    assert make_variations("q") is None
    assert semconv.retrieval_document(0, "id") not in attrs(spans.one("retrieve"))
    assert semconv.OUTPUT_VALUE not in attrs(spans.one("variations"))


def test_a_chunk_holding_itself_fails_its_attributes_not_the_request(spans: Spans) -> None:
    # The attribute encoder does not look for cycles (steps.py builds its values); one that a user's own
    # Chunk brings in still only costs the attributes of the spans that carry it.
    loop: list[Any] = []
    loop.append(loop)
    errors = ragpulse.internal_error_count()

    @ragpulse.generate
    def write(question: str, chunks: list[Any]) -> str:
        return "answer"

    @ragpulse.rag
    def request(question: str) -> str:
        return write(question, [ragpulse.Chunk(id=loop, text="looped")])  # type: ignore[arg-type]

    assert request("q") == "answer"
    root = spans.one("rag request")
    assert semconv.CONTEXT not in attrs(root)
    assert root.end_time is not None
    assert spans.one("generate").end_time is not None
    assert ragpulse.internal_error_count() > errors
