"""Streamed answers: joined when the stream ends; a stream abandoned half-way still ends its spans."""

from __future__ import annotations

import gc
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import ragpulse
from opentelemetry.trace import StatusCode
from ragpulse import semconv
from span_capture import Spans


def attrs(span: Any) -> dict[str, Any]:
    return dict(span.attributes or {})


@ragpulse.generate
def stream_tokens(question: str, chunks: list[str]) -> Iterator[str]:
    yield from ("Par", "is ", "is ", "the ", "capital.")


@ragpulse.rag(pipeline="stream")
def answer_stream(question: str) -> Iterator[str]:
    return stream_tokens(question, ["Paris is the capital of France."])


@ragpulse.rag(pipeline="generator")
def answer_generator(question: str) -> Iterator[str]:
    yield "Hello"
    yield from stream_tokens(question, ["chunk"])


def test_a_returned_stream_is_joined_when_it_ends(spans: Spans) -> None:
    stream = answer_stream("capital?")
    assert spans.all() == []
    assert "".join(stream) == "Paris is the capital."
    root = attrs(spans.one("rag stream"))
    assert root[semconv.OUTPUT_VALUE] == "Paris is the capital."
    assert json.loads(root[semconv.CONTEXT])[0]["text"] == "Paris is the capital of France."
    assert attrs(spans.one("generate"))[semconv.OUTPUT_VALUE] == "Paris is the capital."
    assert semconv.STREAM_ABANDONED not in root


def test_a_generator_root_runs_its_steps_inside_the_request(spans: Spans) -> None:
    assert list(answer_generator("q")) == ["Hello", "Par", "is ", "is ", "the ", "capital."]
    root = spans.one("rag generator")
    generate = spans.one("generate")
    assert generate.parent is not None and generate.parent.span_id == root.context.span_id
    assert attrs(root)[semconv.OUTPUT_VALUE] == "HelloParis is the capital."
    assert json.loads(attrs(root)[semconv.CONTEXT])[0]["text"] == "chunk"


def test_break_ends_the_spans_with_what_was_streamed(spans: Spans) -> None:
    for token in answer_stream("q"):
        if token == "is ":
            break
    root = attrs(spans.one("rag stream"))
    assert root[semconv.STREAM_ABANDONED] is True
    assert root[semconv.OUTPUT_VALUE] == "Paris "
    assert attrs(spans.one("generate"))[semconv.STREAM_ABANDONED] is True


def test_close_ends_the_spans(spans: Spans) -> None:
    stream = answer_generator("q")
    assert next(stream) == "Hello"
    stream.close()
    assert attrs(spans.one("rag generator"))[semconv.OUTPUT_VALUE] == "Hello"
    assert spans.one("rag generator").status.status_code is StatusCode.UNSET


def test_a_stream_never_iterated_and_collected_still_ends(spans: Spans) -> None:
    stream = answer_stream("q")
    del stream
    gc.collect()
    assert attrs(spans.one("rag stream"))[semconv.STREAM_ABANDONED] is True
    assert attrs(spans.one("generate"))[semconv.STREAM_ABANDONED] is True


def test_an_error_mid_stream_is_recorded_and_reraised(spans: Spans) -> None:
    failure = RuntimeError("model went away")

    @ragpulse.generate
    def failing(question: str, chunks: list[str]) -> Iterator[str]:
        yield "partial"
        raise failure

    stream = failing("q", [])
    assert next(stream) == "partial"
    with pytest.raises(RuntimeError) as raised:
        next(stream)
    assert raised.value is failure
    span = spans.one("generate")
    assert span.status.status_code is StatusCode.ERROR
    assert [event.name for event in span.events] == ["exception"]


def test_a_generator_retrieval_records_its_items(spans: Spans) -> None:
    @ragpulse.retrieve
    def lazy_search(query: str) -> Iterator[dict[str, Any]]:
        yield {"id": "a", "text": "A", "score": 2.0}
        yield {"id": "b", "text": "B", "score": 1.0}

    assert [chunk["id"] for chunk in lazy_search("q")] == ["a", "b"]
    span = attrs(spans.one("retrieve"))
    assert (span[semconv.retrieval_document(0, "id")], span[semconv.retrieval_document(1, "id")]) == (
        "a",
        "b",
    )


def test_send_reaches_the_wrapped_generator(spans: Spans) -> None:
    @ragpulse.generate
    def echo(question: str, chunks: list[str]) -> Iterator[str]:
        received = yield "ready"
        yield f"got {received}"

    stream = echo("q", [])
    assert next(stream) == "ready"
    assert stream.send("ping") == "got ping"


@ragpulse.generate
async def stream_async(question: str, chunks: list[str]) -> AsyncIterator[str]:
    for token in ("async ", "answer"):
        yield token


@ragpulse.rag(pipeline="async stream")
async def answer_async_stream(question: str) -> AsyncIterator[str]:
    yield "» "
    async for token in stream_async(question, ["ctx"]):
        yield token


async def test_async_generator_is_joined(spans: Spans) -> None:
    assert [token async for token in answer_async_stream("q")] == ["» ", "async ", "answer"]
    root = spans.one("rag async stream")
    assert attrs(root)[semconv.OUTPUT_VALUE] == "» async answer"
    generate = spans.one("generate")
    assert generate.parent is not None and generate.parent.span_id == root.context.span_id


async def test_async_break_and_aclose_end_the_spans(spans: Spans) -> None:
    async for token in answer_async_stream("q"):
        if token == "» ":
            break
    gc.collect()
    assert attrs(spans.one("rag async stream"))[semconv.OUTPUT_VALUE] == "» "

    spans.exporter.clear()
    stream = answer_async_stream("q")
    assert await stream.__anext__() == "» "
    await stream.aclose()
    assert attrs(spans.one("rag async stream"))[semconv.STREAM_ABANDONED] is True


async def test_coroutine_returning_an_async_stream(spans: Spans) -> None:
    @ragpulse.rag(pipeline="coro")
    async def request(question: str) -> AsyncIterator[str]:
        return stream_async(question, ["ctx"])

    stream = await request("q")
    assert [token async for token in stream] == ["async ", "answer"]
    assert attrs(spans.one("rag coro"))[semconv.OUTPUT_VALUE] == "async answer"
