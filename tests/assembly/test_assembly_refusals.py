"""Requests ragpulse refuses to score say why and what to change: content a completion hook uploaded
elsewhere, documents that cannot be told apart from the instructions, readings that disagree."""

from __future__ import annotations

from dialect_spans import event, parts, raw
from ragpulse_assembly.model import TraceSpan
from ragpulse_assembly.reasons import EXPLANATIONS, Unscorable, explain
from ragpulse_assembly.rules import AssembledRequest, assemble

QUESTION = "How long do deleted files stay in the trash?"
ANSWER = "Deleted files stay in the trash for 30 days."
UPLOADED = {
    "gen_ai.input.messages_ref": "gs://traces/genai/2f1c/inputs.json",
    "gen_ai.output.messages_ref": "gs://traces/genai/2f1c/outputs.json",
    "gen_ai.system_instructions_ref": "gs://traces/genai/2f1c/system_instruction.json",
}


def assembled(*spans: TraceSpan) -> AssembledRequest:
    request = assemble("trace", spans)
    assert request is not None
    return request


def test_content_uploaded_by_the_completion_hook_is_refused_naming_the_reference_and_the_setting() -> None:
    span = raw({"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o-mini", **UPLOADED},
               scope="opentelemetry.instrumentation.openai_v2")  # fmt: skip

    request = assembled(span)

    assert request.unscorable is Unscorable.CONTENT_UPLOADED
    explanation = explain(request.unscorable)
    assert explanation is not None
    assert "gen_ai.input.messages_ref" in explanation.text
    assert "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT" in explanation.hint


def test_references_on_the_details_event_are_refused_the_same_way() -> None:
    details = event("gen_ai.client.inference.operation.details", **UPLOADED)
    span = raw({"gen_ai.operation.name": "chat"}, events=(details,))

    assert assembled(span).unscorable is Unscorable.CONTENT_UPLOADED


def test_content_kept_in_the_span_beside_the_upload_is_scored() -> None:
    context = "Context:\n1. Deleted files stay in the trash for 30 days.\n2. Owners can empty it earlier."
    span = raw({
        "gen_ai.operation.name": "chat",
        "gen_ai.input.messages": parts(("system", context), ("user", QUESTION)),
        "gen_ai.output.messages": parts(("assistant", ANSWER)),
        **UPLOADED,
    })  # fmt: skip

    request = assembled(span)

    assert (request.unscorable, request.question, request.answer) == (Unscorable.SCORABLE, QUESTION, ANSWER)


def test_a_prompt_referring_to_documents_it_does_not_separate_is_refused_with_the_mapping_fix() -> None:
    system = (
        "You answer from the knowledge provided to you. Deleted files stay in the trash for 30 days, and you"
        " must answer using the documents provided. Be brief."
    )
    span = raw({
        "gen_ai.operation.name": "chat",
        "gen_ai.input.messages": parts(("system", system), ("user", QUESTION)),
        "gen_ai.output.messages": parts(("assistant", ANSWER)),
    })  # fmt: skip

    request = assembled(span)

    assert (request.context, request.unscorable) == ("", Unscorable.CONTEXT_NOT_SEPARABLE)
    explanation = explain(request.unscorable)
    assert explanation is not None and "mapping" in explanation.hint


def test_documents_on_both_sides_of_the_question_with_nothing_marking_an_example_are_refused() -> None:
    user = (
        "Context:\n1. Deleted files stay in the trash for 30 days.\n2. Owners can empty it earlier.\n\n"
        f"Question: {QUESTION}\n\nContext:\n1. Guests cannot delete files.\n2. Links expire after 14 days."
    )
    span = raw({
        "gen_ai.operation.name": "chat",
        "gen_ai.input.messages": parts(("user", user)),
        "gen_ai.output.messages": parts(("assistant", ANSWER)),
    })  # fmt: skip

    assert assembled(span).unscorable is Unscorable.CONTEXT_NOT_SEPARABLE


def test_every_reason_names_what_to_change() -> None:
    for code in Unscorable:
        if code is Unscorable.SCORABLE:
            continue
        explanation = EXPLANATIONS[code]
        assert explanation.label and explanation.text and explanation.hint
