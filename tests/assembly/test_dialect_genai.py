"""OpenTelemetry GenAI spans and events (openai-v2 in every capture mode, util-genai workflow and retrieval
spans, hand-written spans) in the common model."""

from __future__ import annotations

import json

from dialect_spans import event, parts, raw, read
from ragpulse_assembly.model import Message, Role
from ragpulse_assembly.names import ContextSource, Kind, Source

QUESTION = "Can I cancel the deletion of my account?"
ANSWER = "Sign in again during the grace period."
SYSTEM = "Context:\nDeleting your account removes your files after 30 days."
SCOPE = "opentelemetry.instrumentation.openai_v2"
CHAT = {
    "gen_ai.operation.name": "chat",
    "gen_ai.request.model": "gpt-4o-mini",
    "gen_ai.usage.input_tokens": "80",
    "gen_ai.usage.output_tokens": "9",
}


def test_content_on_the_span_gives_the_prompt_with_instructions_first_and_the_answer() -> None:
    span = read(
        raw(
            {
                **CHAT,
                "gen_ai.system_instructions": json.dumps([{"type": "text", "content": SYSTEM}]),
                "gen_ai.input.messages": parts(("user", QUESTION)),
                "gen_ai.output.messages": parts(("assistant", ANSWER)),
                "gen_ai.response.model": "gpt-4o-mini-2024",
            },
            scope="opentelemetry.util.genai.handler",
        ),
        Source.GENAI,
    )

    assert span.kind is Kind.LLM
    assert span.messages == (Message(Role.SYSTEM, SYSTEM), Message(Role.USER, QUESTION))
    assert (span.output_text, span.model, span.input_tokens, span.output_tokens) == (
        ANSWER,
        "gpt-4o-mini-2024",
        80,
        9,
    )


def test_legacy_message_events_give_the_prompt_in_order_and_the_choice_the_answer() -> None:
    events = (
        event("gen_ai.system.message", {"content": SYSTEM}, **{"gen_ai.system": "openai"}),
        event("gen_ai.user.message", {"content": QUESTION}),
        event(
            "gen_ai.choice",
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": ANSWER}},
        ),
    )
    span = read(raw(CHAT, scope=SCOPE, events=events), Source.GENAI)

    assert span.messages == (Message(Role.SYSTEM, SYSTEM), Message(Role.USER, QUESTION))
    assert span.output_text == ANSWER


def test_message_events_with_gemini_content_parts_are_read() -> None:
    events = (
        event("gen_ai.user.message", {"content": {"role": "user", "parts": [{"text": QUESTION}]}}),
        event(
            "gen_ai.choice",
            {"index": 0, "message": {"role": "model", "content": {"parts": [{"text": ANSWER}]}}},
        ),
    )
    span = read(raw({"gen_ai.operation.name": "generate_content"}, events=events), Source.GENAI)

    assert (span.messages, span.output_text) == ((Message(Role.USER, QUESTION),), ANSWER)


def test_the_current_details_event_carries_the_content_in_its_attributes() -> None:
    details = event(
        "gen_ai.client.inference.operation.details",
        "",
        **{"gen_ai.input.messages": parts(("system", SYSTEM), ("user", QUESTION)),
           "gen_ai.output.messages": parts(("assistant", ANSWER))},
    )  # fmt: skip
    span = read(raw(CHAT, scope="opentelemetry.util.genai.handler", events=(details,)), Source.GENAI)

    assert [m.text for m in span.messages] == [SYSTEM, QUESTION]
    assert span.output_text == ANSWER


def test_older_span_events_with_prompt_and_completion_attributes_are_read() -> None:
    prompt = event("gen_ai.content.prompt", **{"gen_ai.prompt": [{"role": "user", "content": QUESTION}]})
    completion = event(
        "gen_ai.content.completion", **{"gen_ai.completion": [{"role": "assistant", "content": ANSWER}]}
    )
    span = read(raw(CHAT, events=(prompt, completion)), Source.GENAI)

    assert (span.messages, span.output_text) == ((Message(Role.USER, QUESTION),), ANSWER)


def test_capture_off_leaves_model_and_tokens_and_no_text() -> None:
    choice = event("gen_ai.choice", {"index": 0, "finish_reason": "stop", "message": {"role": "assistant"}})
    span = read(raw(CHAT, scope=SCOPE, events=(choice,)), Source.GENAI)

    assert (span.messages, span.output_text, span.unread) == ((), "", frozenset())
    assert (span.model, span.input_tokens) == ("gpt-4o-mini", 80)


def test_a_retrieval_span_with_id_and_score_only_keeps_the_documents_without_text() -> None:
    span = read(
        raw(
            {
                "gen_ai.operation.name": "retrieval",
                "gen_ai.retrieval.query.text": QUESTION,
                "gen_ai.retrieval.documents": json.dumps(
                    [{"id": "kb-1", "score": 0.9}, {"id": "kb-2", "score": 0.5}]
                ),
            }
        ),
        Source.GENAI,
    )

    assert (span.kind, span.input_text, span.document_origin) == (
        Kind.RETRIEVER,
        QUESTION,
        ContextSource.RETRIEVER,
    )
    assert [(d.id, d.text, d.score) for d in span.documents] == [("kb-1", "", 0.9), ("kb-2", "", 0.5)]


def test_a_workflow_span_gives_the_users_question_and_the_answer() -> None:
    span = read(
        raw(
            {
                "gen_ai.operation.name": "invoke_workflow",
                "gen_ai.input.messages": parts(("user", QUESTION)),
                "gen_ai.output.messages": parts(("assistant", ANSWER)),
            }
        ),
        Source.GENAI,
    )

    assert (span.kind, span.input_text, span.output_text) == (Kind.CHAIN, QUESTION, ANSWER)
