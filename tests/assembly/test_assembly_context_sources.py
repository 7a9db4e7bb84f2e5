"""Where a request's context comes from (retriever spans, document lists elsewhere, the prompt) and why a
request that cannot be judged says so, across families: the rules read only the common span model."""

from __future__ import annotations

import json
from typing import Any

from dialect_spans import event, parts, raw
from ragpulse_assembly.model import TraceSpan
from ragpulse_assembly.names import ContextSource, Source
from ragpulse_assembly.reasons import Unscorable
from ragpulse_assembly.rules import AssembledRequest, assemble

QUESTION = "How long do deleted files stay in the trash?"
ANSWER = "Deleted files stay in the trash for 30 days."
DOCS = {
    "kb-1": "Deleted files stay in the trash for 30 days. Owners can empty the trash earlier.",
    "kb-2": "Deleting your account removes your files after a grace period of 30 days.",
}
CONTEXT_BLOCK = "Answer in one sentence.\n\nContext:\n" + "\n\n".join(DOCS.values())


def chat(system: str, user: str, answer: str = ANSWER, **extra: Any) -> dict[str, Any]:
    messages = [("system", system)] if system else []
    return {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.input.messages": parts(*messages, ("user", user)),
        "gen_ai.output.messages": parts(("assistant", answer)) if answer else "",
        **extra,
    }


def assembled(*spans: TraceSpan) -> AssembledRequest:
    request = assemble("trace", spans)
    assert request is not None
    return request


def chunks(request: AssembledRequest) -> list[str]:
    return [chunk["text"] for chunk in json.loads(request.context or "[]")]


def test_a_plain_llm_call_gets_its_context_from_the_documents_pasted_in_the_prompt() -> None:
    request = assembled(raw(chat(CONTEXT_BLOCK, QUESTION)))

    assert (request.question, request.answer, chunks(request)) == (QUESTION, ANSWER, list(DOCS.values()))
    assert (request.context_source, request.unscorable, request.source) == (
        ContextSource.PROMPT, Unscorable.SCORABLE, Source.GENAI,
    )  # fmt: skip
    assert [chunk["id"] for chunk in json.loads(request.context)] == ["prompt:1", "prompt:2"]


def test_the_question_is_cut_out_of_a_single_user_message_never_the_whole_prompt() -> None:
    prompt = f"{CONTEXT_BLOCK}\n\nQuestion: {QUESTION}\nAnswer:"

    request = assembled(raw(chat("", prompt)))

    assert (request.question, chunks(request)) == (QUESTION, list(DOCS.values()))


def test_documents_with_an_unlabelled_question_after_them_leave_the_question_unknown() -> None:
    request = assembled(raw(chat("", f"Use these documents.\n\n[1] {DOCS['kb-1']}\n\nBe brief.\n\nThanks.")))

    assert (request.question, request.unscorable) == ("", Unscorable.NO_QUESTION)


def test_documents_recorded_by_id_take_their_text_from_another_span_that_recorded_it() -> None:
    retrieval = raw(
        {
            "gen_ai.operation.name": "retrieval",
            "gen_ai.retrieval.query.text": QUESTION,
            "gen_ai.retrieval.documents": json.dumps(
                [{"id": "kb-1", "score": 0.9}, {"id": "kb-2", "score": 0.4}]
            ),
        },
        span_id="02",
        parent="01",
    )
    task = raw(
        {
            "traceloop.span.kind": "task",
            "traceloop.entity.name": "lookup",
            "traceloop.entity.input": json.dumps({"args": [["kb-1", "kb-2"]], "kwargs": {}}),
            "traceloop.entity.output": json.dumps([{"id": i, "text": t} for i, t in DOCS.items()]),
        },
        span_id="03",
        parent="01",
    )
    asked = {"gen_ai.operation.name": "invoke_workflow", "gen_ai.input.messages": parts(("user", QUESTION))}
    root = raw(asked, span_id="01")
    llm = raw(chat(CONTEXT_BLOCK, QUESTION), span_id="04", parent="01")

    request = assembled(root, retrieval, task, llm)

    assert [c["id"] for c in json.loads(request.context)] == ["kb-1", "kb-2"]
    assert request.context_source is ContextSource.DOCUMENTS


def test_documents_recorded_by_id_only_with_their_text_nowhere_make_the_context_unavailable() -> None:
    retrieval = raw(
        {
            "gen_ai.operation.name": "retrieval",
            "gen_ai.retrieval.query.text": QUESTION,
            "gen_ai.retrieval.documents": json.dumps([{"id": "kb-1", "score": 0.9}]),
        },
        span_id="02",
    )
    llm = raw(chat("Answer from what you were given.", QUESTION), span_id="03")

    request = assembled(retrieval, llm)

    assert (request.context, request.unscorable) == ("", Unscorable.CONTEXT_UNAVAILABLE)


def test_documents_recorded_by_id_only_but_pasted_in_the_prompt_are_read_from_the_prompt() -> None:
    retrieval = raw(
        {"gen_ai.operation.name": "retrieval", "gen_ai.retrieval.documents": json.dumps([{"id": "kb-1"}])},
        span_id="02",
    )

    request = assembled(retrieval, raw(chat(CONTEXT_BLOCK, QUESTION), span_id="03"))

    assert (chunks(request), request.context_source) == (list(DOCS.values()), ContextSource.PROMPT)


def test_a_dspy_module_gets_tokens_from_the_client_call_inside_its_lm_span() -> None:
    root = raw(
        {"openinference.span.kind": "CHAIN", "input.value": json.dumps({"question": QUESTION}),
         "output.value": json.dumps({"answer": ANSWER})},
        name="RAG.forward", span_id="01", scope="openinference.instrumentation.dspy",
    )  # fmt: skip
    retrieve = raw(
        {"openinference.span.kind": "RETRIEVER", "input.value": json.dumps({"query": QUESTION}),
         **{f"retrieval.documents.{n}.document.content": text for n, text in enumerate(DOCS.values())}},
        name="Retrieve.forward", span_id="02", parent="01", scope="openinference.instrumentation.dspy",
    )  # fmt: skip
    prompt = (
        "[[ ## context ## ]]\n" + "\n".join(f"[{n}] «{t}»" for n, t in enumerate(DOCS.values(), 1))
        + f"\n\n[[ ## question ## ]]\n{QUESTION}"
    )  # fmt: skip
    lm = raw(
        {"openinference.span.kind": "LLM", "llm.input_messages.0.message.role": "user",
         "llm.input_messages.0.message.content": prompt, "llm.model_name": "openai/gpt-4o-mini",
         "output.value": json.dumps([f"[[ ## answer ## ]]\n{ANSWER}\n\n[[ ## completed ## ]]"])},
        name="LM.__call__", span_id="03", parent="01", scope="openinference.instrumentation.dspy",
    )  # fmt: skip
    client = raw(
        {"openinference.span.kind": "LLM", "llm.input_messages.0.message.role": "user",
         "llm.input_messages.0.message.content": prompt, "llm.output_messages.0.message.role": "assistant",
         "llm.output_messages.0.message.content": f"[[ ## answer ## ]]\n{ANSWER}\n\n[[ ## completed ## ]]",
         "llm.token_count.prompt": "150", "llm.token_count.completion": "20"},
        name="ChatCompletion", span_id="04", parent="03", scope="openinference.instrumentation.openai",
    )  # fmt: skip

    request = assembled(root, retrieve, lm, client)

    assert (request.question, request.answer, chunks(request)) == (QUESTION, ANSWER, list(DOCS.values()))
    assert (request.model, request.input_tokens, request.output_tokens) == ("openai/gpt-4o-mini", 150, 20)
    assert (request.context_source, request.unscorable) == (ContextSource.RETRIEVER, Unscorable.SCORABLE)


def test_a_sectioned_answer_with_no_answer_field_is_refused() -> None:
    lm = raw(chat(CONTEXT_BLOCK, QUESTION, answer="[[ ## summary ## ]]\nA.\n\n[[ ## notes ## ]]\nB."))

    assert assembled(lm).unscorable is Unscorable.UNPARSEABLE


def test_capture_off_with_the_question_still_on_a_chain_has_no_answer() -> None:
    pipeline = raw(
        {"haystack.pipeline.input_data": json.dumps({"retriever": {"query": QUESTION}})},
        name="haystack.pipeline.run", span_id="01",
    )  # fmt: skip
    generator = raw(
        {"haystack.component.name": "llm", "haystack.component.type": "OpenAIChatGenerator"},
        span_id="02",
        parent="01",
    )

    request = assembled(pipeline, generator)

    assert (request.question, request.answer, request.unscorable) == (QUESTION, "", Unscorable.NO_ANSWER)
    assert request.source is Source.HAYSTACK


def test_a_call_that_recorded_its_prompt_and_no_answer_has_no_answer() -> None:
    assert assembled(raw(chat(CONTEXT_BLOCK, QUESTION, answer=""))).unscorable is Unscorable.NO_ANSWER


def test_a_chat_without_documents_anywhere_has_no_context() -> None:
    request = assembled(raw(chat("You are helpful.", QUESTION)))

    assert (request.question, request.context, request.unscorable) == (QUESTION, "", Unscorable.NO_CONTEXT)


def test_the_source_is_the_family_that_wrote_the_answer() -> None:
    entered = json.dumps({"args": [QUESTION], "kwargs": {}})
    workflow = raw(
        {"traceloop.span.kind": "workflow", "traceloop.entity.input": entered,
         "traceloop.entity.output": json.dumps(ANSWER)},
        span_id="01", scope="traceloop.tracer",
    )  # fmt: skip
    llm = raw(
        chat(CONTEXT_BLOCK, QUESTION),
        span_id="02",
        parent="01",
        scope="opentelemetry.instrumentation.openai_v2",
    )

    assert assembled(workflow, llm).source is Source.GENAI


def test_legacy_events_with_content_make_a_chat_span_with_none_a_scorable_request() -> None:
    events = (
        event("gen_ai.system.message", {"content": CONTEXT_BLOCK}),
        event("gen_ai.user.message", {"content": QUESTION}),
        event("gen_ai.choice", {"index": 0, "message": {"role": "assistant", "content": ANSWER}}),
    )
    span = raw({"gen_ai.operation.name": "chat", "gen_ai.system": "openai"}, events=events)

    request = assembled(span)

    assert (request.question, request.answer, chunks(request)) == (QUESTION, ANSWER, list(DOCS.values()))
    assert assembled(raw({"gen_ai.operation.name": "chat"})).unscorable is Unscorable.NO_CONTENT


def workflow_returning(output: object) -> TraceSpan:
    entered = json.dumps({"args": [QUESTION], "kwargs": {}})
    return raw(
        {"traceloop.span.kind": "workflow", "traceloop.entity.input": entered,
         "traceloop.entity.output": json.dumps(output)},
        span_id="01", scope="traceloop.tracer",
    )  # fmt: skip


def test_a_chain_answer_no_model_wrote_gives_way_to_the_generating_calls_answer() -> None:
    llm = raw(chat(CONTEXT_BLOCK, QUESTION), span_id="02", parent="01")

    status = assembled(workflow_returning({"result": "success", "id": 7}), llm)
    edited = assembled(workflow_returning(f"{ANSWER} Sources: [1]"), llm)

    assert status.answer == ANSWER  # "success" was a field of a structure, not what the model said
    assert edited.answer == f"{ANSWER} Sources: [1]"  # the chain's own finishing of the model's answer


def test_a_chain_handed_the_whole_prompt_gives_the_question_inside_it() -> None:
    prompt = f"{CONTEXT_BLOCK}\n\nQuestion: {QUESTION}"
    retrieve = raw(
        {"traceloop.span.kind": "task", "traceloop.entity.name": "retrieve",
         "traceloop.entity.input": json.dumps({"args": [QUESTION], "kwargs": {}}),
         "traceloop.entity.output": json.dumps([{"id": i, "text": t} for i, t in DOCS.items()])},
        span_id="02", parent="01",
    )  # fmt: skip
    handed = json.dumps({"args": [prompt], "kwargs": {}})
    answer = raw(
        {"traceloop.span.kind": "task", "traceloop.entity.input": handed,
         "traceloop.entity.output": json.dumps(ANSWER)},
        span_id="01",
    )  # fmt: skip
    llm = raw(chat("", prompt), span_id="03", parent="01")

    request = assembled(answer, retrieve, llm)

    assert (request.question, chunks(request), request.unscorable) == (
        QUESTION, list(DOCS.values()), Unscorable.SCORABLE,
    )  # fmt: skip


def test_documents_from_a_search_tool_are_the_context() -> None:
    tool_result = json.dumps([{"id": i, "text": t} for i, t in DOCS.items()])
    messages = json.dumps(
        [{"role": "user", "parts": [{"type": "text", "content": QUESTION}]},
         {"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "search"}]},
         {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": tool_result}]}]
    )  # fmt: skip
    llm = raw({"gen_ai.operation.name": "chat", "gen_ai.input.messages": messages,
               "gen_ai.output.messages": parts(("assistant", ANSWER))})  # fmt: skip

    request = assembled(llm)

    assert (request.question, chunks(request), request.context_source) == (
        QUESTION, list(DOCS.values()), ContextSource.PROMPT,
    )  # fmt: skip


def test_a_prompt_holding_none_of_the_retrieved_documents_but_its_own_gives_its_own() -> None:
    retrieval = raw(
        {"gen_ai.operation.name": "retrieval", "gen_ai.retrieval.query.text": "related products",
         "gen_ai.retrieval.documents": json.dumps([{"id": "p-1", "content": "A product the page shows."}])},
        span_id="02",
    )  # fmt: skip

    request = assembled(retrieval, raw(chat(CONTEXT_BLOCK, QUESTION), span_id="03"))

    assert (chunks(request), request.context_source) == (list(DOCS.values()), ContextSource.PROMPT)
