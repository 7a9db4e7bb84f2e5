"""OpenInference spans (openai, LangChain, LlamaIndex, Haystack, DSPy instrumentors) in the common model."""

from __future__ import annotations

import json

from dialect_spans import raw, read
from ragpulse_assembly.model import Message, Role, Unread
from ragpulse_assembly.names import ContextSource, Kind, Source

QUESTION = "How long do deleted files stay in the trash?"
ANSWER = "Deleted files stay in the trash for 30 days."
REPLY = (
    "ChatMessage(_role=<ChatRole.ASSISTANT: 'assistant'>, _content=[TextContent(text='Deleted files stay in"
    " the trash for 30 days.')], _name=None, _meta={'model': 'gpt-4o-mini', 'usage': {'prompt_tokens': 90}})"
)
SCOPE = "openinference.instrumentation.openai"


def test_an_llm_span_gives_its_prompt_with_roles_its_answer_model_and_tokens() -> None:
    span = read(
        raw(
            {
                "openinference.span.kind": "LLM",
                "llm.input_messages.0.message.role": "system",
                "llm.input_messages.0.message.content": "Context:\nThe trash keeps files for 30 days.",
                "llm.input_messages.1.message.role": "user",
                "llm.input_messages.1.message.contents.0.message_content.type": "text",
                "llm.input_messages.1.message.contents.0.message_content.text": QUESTION,
                "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.content": ANSWER,
                "llm.model_name": "gpt-4o-mini-2024",
                "llm.token_count.prompt": "90",
                "llm.token_count.completion": "12",
                "input.value": json.dumps({"model": "gpt-4o-mini", "messages": []}),
                "output.value": json.dumps({"id": "chatcmpl-1", "choices": []}),
            },
            scope=SCOPE,
        ),
        Source.OPENINFERENCE,
    )

    assert span.kind is Kind.LLM
    assert span.messages == (
        Message(Role.SYSTEM, "Context:\nThe trash keeps files for 30 days."),
        Message(Role.USER, QUESTION),
    )
    assert (span.output_text, span.model, span.input_tokens, span.output_tokens) == (
        ANSWER, "gpt-4o-mini-2024", 90, 12,
    )  # fmt: skip


def test_an_llm_span_with_only_the_request_body_gives_its_messages_and_the_response_text() -> None:
    request = {
        "model": "m",
        "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": QUESTION}],
    }
    response = {"choices": [{"index": 0, "message": {"role": "assistant", "content": ANSWER}}]}
    span = read(
        raw(
            {
                "openinference.span.kind": "LLM",
                "input.value": json.dumps(request),
                "output.value": json.dumps(response),
            }
        ),
        Source.OPENINFERENCE,
    )

    assert [m.role for m in span.messages] == [Role.SYSTEM, Role.USER]
    assert span.output_text == ANSWER


def test_haystack_pipeline_input_is_unwrapped_and_its_repr_reply_parsed_into_text() -> None:
    span = read(
        raw(
            {
                "openinference.span.kind": "CHAIN",
                "input.value": json.dumps(
                    {"data": {"retriever": {"query": QUESTION}, "prompt_builder": {"question": QUESTION}}}
                ),
                "output.value": json.dumps(
                    {
                        "retriever": {"documents": ["Document(id=1, content: 'The trash...')"]},
                        "llm": {"replies": [REPLY]},
                    }
                ),
            },
            name="Pipeline.run",
            scope="openinference.instrumentation.haystack",
        ),
        Source.OPENINFERENCE,
    )

    assert (span.kind, span.input_text, span.output_text, span.unread) == (
        Kind.CHAIN,
        QUESTION,
        ANSWER,
        frozenset(),
    )


def test_a_chain_output_of_no_known_shape_is_marked_unread_never_passed_on_as_text() -> None:
    span = read(
        raw(
            {
                "openinference.span.kind": "CHAIN",
                "input.value": QUESTION,
                "output.value": json.dumps({"obj": {"x": 1}}),
            }
        ),
        Source.OPENINFERENCE,
    )

    assert (span.input_text, span.output_text, span.unread) == (QUESTION, "", frozenset({Unread.OUTPUT}))


def test_retriever_documents_keep_their_id_score_and_source() -> None:
    span = read(
        raw(
            {
                "openinference.span.kind": "RETRIEVER",
                "input.value": json.dumps({"query": QUESTION}),
                "retrieval.documents.0.document.id": "kb-101",
                "retrieval.documents.0.document.content": "The trash keeps files for 30 days.",
                "retrieval.documents.0.document.score": "0.82",
                "retrieval.documents.0.document.metadata": json.dumps({"source": "help/trash.md"}),
                "retrieval.documents.1.document.content": "Guests cannot edit files.",
            }
        ),
        Source.OPENINFERENCE,
    )

    assert (span.kind, span.input_text, span.document_origin) == (
        Kind.RETRIEVER,
        QUESTION,
        ContextSource.RETRIEVER,
    )
    first, second = span.documents
    assert (first.id, first.score, first.source) == ("kb-101", 0.82, "help/trash.md")
    assert second.id.startswith("sha256:") and second.text == "Guests cannot edit files."


def test_a_dspy_predict_chain_keeps_the_documents_it_was_handed() -> None:
    span = read(
        raw(
            {
                "openinference.span.kind": "CHAIN",
                "input.value": json.dumps({"context": ["Doc one.", "Doc two."], "question": QUESTION}),
                "output.value": json.dumps({"answer": ANSWER}),
            },
            name="Predict.forward",
            scope="openinference.instrumentation.dspy",
        ),
        Source.OPENINFERENCE,
    )

    assert [d.text for d in span.documents] == ["Doc one.", "Doc two."]
    assert (span.document_origin, span.input_text, span.output_text) == (
        ContextSource.DOCUMENTS,
        QUESTION,
        ANSWER,
    )
