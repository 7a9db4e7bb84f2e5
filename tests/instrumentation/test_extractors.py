"""Reading questions, answers and streamed text out of framework shapes, over generated inputs."""

from __future__ import annotations

from itertools import accumulate
from typing import Any

import ragpulse
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, AIMessageChunk
from llama_index.core.base.llms.types import CompletionResponse
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse import semconv
from ragpulse.inputs import QUESTION_KEYS, query_text
from ragpulse.results import answer_text

texts = st.text(max_size=40)
other_keys = st.text(min_size=1, max_size=10).filter(lambda key: key not in QUESTION_KEYS)
ANSWER_KEYS = ("answer", "output", "result")


@given(st.sampled_from(QUESTION_KEYS), texts, st.dictionaries(other_keys, texts | st.integers(), max_size=4))
def test_a_dict_s_question_is_found_under_its_key_whatever_else_it_holds(
    key: str, question: str, others: dict[str, Any]
) -> None:
    assert query_text({**others, key: question}) == question
    assert query_text({**others, "input": {key: question}}) == question


@given(texts, texts)
def test_question_wins_over_query_and_input(question: str, other: str) -> None:
    assert query_text({"input": other, "query": other, "question": question}) == question


@given(st.dictionaries(other_keys, texts, max_size=4))
def test_a_dict_without_a_question_key_has_no_question(others: dict[str, str]) -> None:
    assert query_text(others) is None


@given(st.sampled_from(ANSWER_KEYS), texts, st.booleans())
def test_a_dict_s_answer_is_found_as_text_or_message(key: str, answer: str, as_message: bool) -> None:
    value: Any = AIMessage(content=answer) if as_message else answer
    assert answer_text({"question": "q", key: value, "source_documents": []}) == answer


@given(st.lists(st.sampled_from([{"type": "text", "text": "ab"}, "cd", {"type": "image"}]), min_size=1))
def test_message_content_blocks_join_their_text(blocks: list[Any]) -> None:
    expected = "".join(b if isinstance(b, str) else b.get("text", "") for b in blocks)
    assert (answer_text(AIMessage(content=blocks)) or "") == expected


@given(st.lists(texts, max_size=8))
def test_a_completion_stream_joins_its_deltas_not_its_running_text(
    span_exporter: InMemorySpanExporter, deltas: list[str]
) -> None:
    @ragpulse.generate(name="completion stream")
    def stream(prompt: str) -> Any:
        for delta, so_far in zip(deltas, accumulate(deltas), strict=True):
            yield CompletionResponse(text=so_far, delta=delta)

    span_exporter.clear()
    assert [response.delta for response in stream("p")] == deltas
    (span,) = span_exporter.get_finished_spans()
    assert dict(span.attributes or {}).get(semconv.OUTPUT_VALUE, "") == "".join(deltas)


@given(st.lists(texts, max_size=8))
def test_a_message_chunk_stream_joins_its_content(
    span_exporter: InMemorySpanExporter, pieces: list[str]
) -> None:
    @ragpulse.generate(name="chunk stream")
    def stream(prompt: str) -> Any:
        for piece in pieces:
            yield AIMessageChunk(content=piece)

    span_exporter.clear()
    list(stream("p"))
    (span,) = span_exporter.get_finished_spans()
    assert dict(span.attributes or {}).get(semconv.OUTPUT_VALUE, "") == "".join(pieces)
