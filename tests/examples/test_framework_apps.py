"""The LangChain and LlamaIndex RAG-Fusion apps (real langchain-core, llama-index-core and OpenInference
instrumentors, their fake models): what a ragpulse-decorated run records, and that the OpenInference-only
run is traced by the instrumentor alone."""

from __future__ import annotations

import json
from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse import semconv
from ragpulse_example.frameworks import langchain_app, llamaindex_app
from ragpulse_example.frameworks.corpus import CHAT_MODEL_NAME, PASSAGES, QUESTIONS

EIFFEL = QUESTIONS[0]


def _attributes(span: ReadableSpan) -> dict[str, Any]:
    return dict(span.attributes or {})


def _root(spans: list[ReadableSpan], pipeline: str) -> dict[str, Any]:
    (root,) = [span for span in spans if span.name == f"rag {pipeline}"]
    return _attributes(root)


def _private_provider() -> tuple[TracerProvider, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter


def test_decorated_langchain_app_records_question_answer_context_variations_tokens_and_model(
    exporter: InMemorySpanExporter,
) -> None:
    answer = langchain_app.run(EIFFEL.text)

    assert answer == EIFFEL.answer
    spans = list(exporter.get_finished_spans())
    root = _root(spans, langchain_app.PIPELINE)
    assert root[semconv.INPUT_VALUE] == EIFFEL.text
    assert root[semconv.OUTPUT_VALUE] == EIFFEL.answer
    assert json.loads(root[semconv.VARIATIONS]) == list(EIFFEL.variations)
    context = json.loads(root[semconv.CONTEXT])
    assert len(context) == langchain_app.CONTEXT_SIZE
    assert all(chunk["text"] == PASSAGES[chunk["id"]] for chunk in context)
    retrievals = json.loads(root[semconv.RETRIEVALS])
    assert [(r["query"], r["query_index"]) for r in retrievals] == [
        (query, index) for index, query in enumerate([EIFFEL.text, *EIFFEL.variations])
    ]
    assert all(len(r["documents"]) == langchain_app.TOP_K for r in retrievals)

    (generate,) = [_attributes(span) for span in spans if span.name == "generate"]
    question_tokens, answer_tokens = len(EIFFEL.text.split()), len(EIFFEL.answer.split())
    assert generate[semconv.LLM_TOKEN_COUNT_PROMPT] == question_tokens
    assert generate[semconv.GEN_AI_USAGE_INPUT_TOKENS] == question_tokens
    assert generate[semconv.LLM_TOKEN_COUNT_COMPLETION] == answer_tokens
    assert generate[semconv.GEN_AI_USAGE_OUTPUT_TOKENS] == answer_tokens
    assert generate[semconv.LLM_TOKEN_COUNT_TOTAL] == question_tokens + answer_tokens
    assert generate[semconv.LLM_MODEL_NAME] == CHAT_MODEL_NAME
    assert generate[semconv.GEN_AI_REQUEST_MODEL] == CHAT_MODEL_NAME
    assert [span.name for span in spans].count("retrieve") == 1 + len(EIFFEL.variations)
    assert {span.context.trace_id for span in spans} == {spans[-1].context.trace_id}


def test_decorated_llamaindex_app_records_question_answer_context_and_variations(
    exporter: InMemorySpanExporter,
) -> None:
    answer = llamaindex_app.run(EIFFEL.text)

    spans = list(exporter.get_finished_spans())
    root = _root(spans, llamaindex_app.PIPELINE)
    assert root[semconv.INPUT_VALUE] == EIFFEL.text
    assert root[semconv.OUTPUT_VALUE] == answer
    assert json.loads(root[semconv.VARIATIONS]) == list(EIFFEL.variations)
    retrievals = json.loads(root[semconv.RETRIEVALS])
    assert [(r["query"], r["query_index"]) for r in retrievals] == [
        (query, index) for index, query in enumerate([EIFFEL.text, *EIFFEL.variations])
    ]
    context = json.loads(root[semconv.CONTEXT])
    # MockEmbedding gives every text the same vector: every query retrieves the same passages.
    assert [chunk["id"] for chunk in context] == [d["id"] for d in retrievals[0]["documents"]]
    assert all(chunk["text"] == PASSAGES[chunk["id"]] and chunk["text"] in answer for chunk in context)
    (generate,) = [_attributes(span) for span in spans if span.name == "generate"]
    assert generate[semconv.LLM_MODEL_NAME] == llamaindex_app.MODEL_NAME
    assert generate[semconv.OUTPUT_VALUE] == answer


@pytest.mark.parametrize("app", [langchain_app, llamaindex_app], ids=["langchain", "llamaindex"])
def test_a_decorated_run_given_a_provider_records_there(app: Any, exporter: InMemorySpanExporter) -> None:
    provider, private = _private_provider()
    app.run(QUESTIONS[1].text, provider)
    assert exporter.get_finished_spans() == ()
    assert _root(list(private.get_finished_spans()), app.PIPELINE)[semconv.INPUT_VALUE] == QUESTIONS[1].text


def test_openinference_only_langchain_run_has_no_ragpulse_span(exporter: InMemorySpanExporter) -> None:
    provider, private = _private_provider()
    answer = langchain_app.run(EIFFEL.text, provider, instrumentation="openinference")

    assert answer == EIFFEL.answer
    spans = list(private.get_finished_spans())
    assert exporter.get_finished_spans() == ()
    assert not any(semconv.KIND in _attributes(span) for span in spans)
    (root,) = [span for span in spans if span.parent is None]
    assert _attributes(root)[semconv.OUTPUT_VALUE] == EIFFEL.answer
    assert EIFFEL.text in _attributes(root)[semconv.INPUT_VALUE]
    queries = [
        _attributes(span)[semconv.INPUT_VALUE]
        for span in spans
        if _attributes(span).get(semconv.SPAN_KIND) == "RETRIEVER"
    ]
    assert sorted(queries) == sorted([EIFFEL.text, *EIFFEL.variations])


def test_openinference_only_llamaindex_run_has_no_ragpulse_span(exporter: InMemorySpanExporter) -> None:
    provider, private = _private_provider()
    answer = llamaindex_app.run(EIFFEL.text, provider, instrumentation="openinference")

    spans = list(private.get_finished_spans())
    assert exporter.get_finished_spans() == ()
    assert not any(semconv.KIND in _attributes(span) for span in spans)
    (root,) = [span for span in spans if span.parent is None]
    assert _attributes(root)[semconv.INPUT_VALUE] == EIFFEL.text
    assert _attributes(root)[semconv.OUTPUT_VALUE] == answer
    retrieved = {
        _attributes(span)[semconv.INPUT_VALUE]
        for span in spans
        if span.name == "VectorIndexRetriever.retrieve"
    }
    assert retrieved == {EIFFEL.text, *EIFFEL.variations}
