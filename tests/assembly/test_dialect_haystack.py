"""Haystack's own tracer (``haystack.component.*``, ``haystack.pipeline.*``) in the common model."""

from __future__ import annotations

import json

from dialect_spans import raw, read
from ragpulse_assembly.model import Message, Role
from ragpulse_assembly.names import ContextSource, Kind, Source

QUESTION = "How long do deleted files stay in the trash?"
ANSWER = "30 days."
REPLY = {
    "role": "assistant",
    "meta": {"model": "gpt-4o-mini", "usage": {"prompt_tokens": 91, "completion_tokens": 4}},
    "name": None,
    "content": [{"text": ANSWER}],
}


def component(name: str, kind: str, entered: object = None, returned: object = None) -> dict[str, str]:
    attributes = {
        "haystack.component.name": name,
        "haystack.component.type": kind,
        "haystack.component.visits": "1",
    }
    if entered is not None:
        attributes["haystack.component.input"] = json.dumps(entered)
    if returned is not None:
        attributes["haystack.component.output"] = json.dumps(returned)
    return attributes


def test_the_pipeline_span_gives_question_and_answer() -> None:
    span = read(
        raw(
            {
                "haystack.pipeline.input_data": json.dumps(
                    {"retriever": {"query": QUESTION}, "prompt_builder": {"question": QUESTION}}
                ),
                "haystack.pipeline.output_data": json.dumps({"llm": {"replies": [REPLY]}}),
            },
            name="haystack.pipeline.run",
            scope="helpdesk",
        ),
        Source.HAYSTACK,
    )

    assert (span.kind, span.input_text, span.output_text) == (Kind.CHAIN, QUESTION, ANSWER)


def test_a_retriever_component_gives_its_documents_with_flattened_meta() -> None:
    documents = [{"id": "d1", "content": "Deleted files stay 30 days.", "score": 1.4, "source": "trash.md",
                  "blob": None, "embedding": None}]  # fmt: skip
    span = read(
        raw(component("retriever", "InMemoryBM25Retriever", {"query": QUESTION}, {"documents": documents})),
        Source.HAYSTACK,
    )

    assert (span.kind, span.input_text, span.document_origin) == (
        Kind.RETRIEVER,
        QUESTION,
        ContextSource.RETRIEVER,
    )
    assert [(d.id, d.text, d.score, d.source) for d in span.documents] == [
        ("d1", "Deleted files stay 30 days.", 1.4, "trash.md")
    ]


def test_a_generator_component_gives_prompt_answer_model_and_tokens() -> None:
    messages = [
        {"role": "system", "content": [{"text": "Context: ..."}]},
        {"role": "user", "content": [{"text": QUESTION}]},
    ]
    span = read(
        raw(component("llm", "OpenAIChatGenerator", {"messages": messages}, {"replies": [REPLY]})),
        Source.HAYSTACK,
    )

    assert span.kind is Kind.LLM
    assert span.messages == (Message(Role.SYSTEM, "Context: ..."), Message(Role.USER, QUESTION))
    assert (span.output_text, span.model, span.input_tokens, span.output_tokens) == (
        ANSWER,
        "gpt-4o-mini",
        91,
        4,
    )


def test_without_content_tracing_kinds_come_from_the_component_types_and_no_text_is_invented() -> None:
    retriever = read(raw(component("retriever", "InMemoryBM25Retriever")), Source.HAYSTACK)
    generator = read(raw(component("llm", "OpenAIChatGenerator")), Source.HAYSTACK)

    assert (retriever.kind, retriever.documents) == (Kind.RETRIEVER, ())
    assert (generator.kind, generator.messages, generator.output_text) == (Kind.LLM, (), "")
