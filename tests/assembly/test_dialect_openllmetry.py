"""OpenLLMetry (traceloop) spans of both attribute generations, its SDK's workflows and tasks, and its
LangChain retriever spans, in the common model."""

from __future__ import annotations

import json

import pytest
from dialect_spans import parts, raw, read
from ragpulse_assembly.model import Message, Role, Unread
from ragpulse_assembly.names import ContextSource, Kind, Source

QUESTION = "How much storage does the Team plan include?"
ANSWER = "The Team plan includes 2 TB."
DOCUMENTS = [
    {"id": "kb-1", "text": "The Team plan includes 2 TB shared by the workspace.", "score": 3.2},
    {"id": "kb-2", "text": "The Free plan includes 5 GB.", "score": 1.1},
]


def task(name: str, args: list[object], output: object, kind: str = "task") -> dict[str, str]:
    return {
        "traceloop.span.kind": kind,
        "traceloop.entity.name": name,
        "traceloop.workflow.name": "rag",
        "traceloop.entity.input": json.dumps({"args": args, "kwargs": {}}),
        "traceloop.entity.output": json.dumps(output),
    }


def test_a_0_40_llm_span_gives_its_flattened_prompt_completion_and_tokens() -> None:
    span = read(
        raw(
            {
                "llm.request.type": "chat",
                "gen_ai.system": "OpenAI",
                "gen_ai.request.model": "gpt-4o-mini",
                "gen_ai.prompt.0.role": "system",
                "gen_ai.prompt.0.content": "Context:\nThe Team plan includes 2 TB.",
                "gen_ai.prompt.1.role": "user",
                "gen_ai.prompt.1.content": QUESTION,
                "gen_ai.completion.0.role": "assistant",
                "gen_ai.completion.0.content": ANSWER,
                "gen_ai.completion.0.finish_reason": "stop",
                "gen_ai.usage.prompt_tokens": "70",
                "gen_ai.usage.completion_tokens": "8",
                "llm.usage.total_tokens": "78",
            },
            name="openai.chat",
            scope="opentelemetry.instrumentation.openai.v1",
        ),
        Source.OPENLLMETRY,
    )

    assert span.kind is Kind.LLM
    assert span.messages == (
        Message(Role.SYSTEM, "Context:\nThe Team plan includes 2 TB."),
        Message(Role.USER, QUESTION),
    )
    assert (span.output_text, span.input_tokens, span.output_tokens) == (ANSWER, 70, 8)


def test_a_current_llm_span_is_openllmetrys_by_its_own_keys_beside_the_genai_ones() -> None:
    span = read(
        raw(
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.is_streaming": "false",
                "gen_ai.input.messages": parts(("user", QUESTION)),
                "gen_ai.output.messages": parts(("assistant", ANSWER)),
                "gen_ai.usage.input_tokens": "40",
            },
            name="openai.chat",
            scope="opentelemetry.instrumentation.openai.v1",
        ),
        Source.OPENLLMETRY,
    )

    assert (span.kind, span.messages, span.output_text, span.input_tokens) == (
        Kind.LLM, (Message(Role.USER, QUESTION),), ANSWER, 40,
    )  # fmt: skip


def test_a_task_returning_documents_is_the_retriever_nobody_marked() -> None:
    span = read(raw(task("retrieve", [QUESTION], DOCUMENTS), name="retrieve.task", scope="traceloop.tracer"),
                Source.OPENLLMETRY)  # fmt: skip

    assert (span.kind, span.input_text, span.document_origin) == (
        Kind.RETRIEVER,
        QUESTION,
        ContextSource.DOCUMENTS,
    )
    assert [(d.id, d.text, d.score) for d in span.documents] == [
        (d["id"], d["text"], d["score"]) for d in DOCUMENTS
    ]


def test_a_workflow_gives_its_one_string_argument_as_question_and_its_return_value_as_answer() -> None:
    span = read(
        raw(task("rag", [QUESTION], ANSWER, kind="workflow"), scope="traceloop.tracer"), Source.OPENLLMETRY
    )

    assert (span.kind, span.input_text, span.output_text) == (Kind.CHAIN, QUESTION, ANSWER)


def test_a_task_returning_a_tuple_gives_the_answer_and_the_documents_in_it() -> None:
    span = read(raw(task("answer", [QUESTION], [ANSWER, DOCUMENTS])), Source.OPENLLMETRY)

    assert (span.kind, span.output_text) == (Kind.CHAIN, ANSWER)
    assert [d.id for d in span.documents] == ["kb-1", "kb-2"]


def test_a_task_handed_documents_keeps_them() -> None:
    span = read(raw(task("generate", [QUESTION, DOCUMENTS], ANSWER)), Source.OPENLLMETRY)

    assert [d.id for d in span.documents] == ["kb-1", "kb-2"] and span.output_text == ANSWER


@pytest.mark.parametrize(
    ("name", "documents"), [("search_docs", ["Doc one.", "Doc two."]), ("write_queries", [])]
)
def test_plain_strings_are_documents_only_from_a_task_named_for_searching(
    name: str, documents: list[str]
) -> None:
    span = read(raw(task(name, [QUESTION], ["Doc one.", "Doc two."])), Source.OPENLLMETRY)

    assert [d.text for d in span.documents] == documents


def test_two_string_arguments_do_not_make_a_question() -> None:
    span = read(raw(task("rag", [QUESTION, "tenant-7"], ANSWER, kind="workflow")), Source.OPENLLMETRY)

    assert (span.input_text, span.unread) == ("", frozenset({Unread.INPUT}))


def test_a_langchain_vector_db_retrieve_span_gives_its_query_and_documents() -> None:
    span = read(
        raw(
            {
                "gen_ai.operation.name": "vector_db_retrieve",
                "traceloop.span.kind": "task",
                "traceloop.entity.input": json.dumps({"query": QUESTION, "k": 2}),
                "traceloop.entity.output": json.dumps(
                    {
                        "documents": [
                            {"page_content": d["text"], "metadata": {"source": d["id"]}} for d in DOCUMENTS
                        ],
                        "count": 2,
                    }
                ),
            },
            name="vector_db_retrieve BM25Retriever",
            scope="opentelemetry.instrumentation.langchain",
        ),
        Source.OPENLLMETRY,
    )

    assert (span.kind, span.input_text, span.document_origin) == (
        Kind.RETRIEVER,
        QUESTION,
        ContextSource.RETRIEVER,
    )
    assert [(d.text, d.source) for d in span.documents] == [(d["text"], d["id"]) for d in DOCUMENTS]


def test_a_langchain_workflow_gives_its_inputs_question_and_outputs_answer() -> None:
    span = read(
        raw(
            {
                "traceloop.span.kind": "workflow",
                "traceloop.entity.input": json.dumps(
                    {"inputs": QUESTION, "tags": [], "metadata": {}, "kwargs": {"name": "RunnableSequence"}}
                ),
                "traceloop.entity.output": json.dumps({"outputs": ANSWER, "kwargs": {"tags": []}}),
            },
            name="RunnableSequence.workflow",
            scope="opentelemetry.instrumentation.langchain",
        ),
        Source.OPENLLMETRY,
    )

    assert (span.input_text, span.output_text) == (QUESTION, ANSWER)
