"""OpenLLMetry (traceloop): both attribute generations of its LLM instrumentors, its SDK's ``@workflow`` and
``@task`` spans, and its LangChain instrumentor.

- 0.40.x LLM spans: ``llm.request.type`` and flattened ``gen_ai.prompt.N.role|content`` /
  ``gen_ai.completion.N.role|content``, tokens in ``gen_ai.usage.prompt_tokens|completion_tokens``;
- current LLM spans: the GenAI conventions' keys (read by :mod:`.genai`), beside OpenLLMetry's own;
- ``traceloop.span.kind`` = workflow | task | agent | tool with ``traceloop.entity.input`` (JSON
  ``{"args": [...], "kwargs": {...}}`` from the decorators, ``{"inputs": ...}`` from LangChain) and
  ``traceloop.entity.output`` (the return value, or ``{"outputs": ...}``). No task is marked as the
  retriever: a task whose output is a list of documents (dicts with a text field; plain strings only when
  the task's name says it searches) is read as one;
- LangChain retrievers: ``vector_db_retrieve`` spans whose output is ``{"documents": [{"page_content"...}]}``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Final

from ragpulse_assembly.dialects import genai
from ragpulse_assembly.dialects.base import Marker, common, count, documents_of, indexed
from ragpulse_assembly.model import Document, Message, Role, Span, TraceSpan, Unread, document, role
from ragpulse_assembly.names import ContextSource, Kind, Source
from ragpulse_assembly.pyrepr import looks_like_repr, repr_text
from ragpulse_assembly.unwrap import (
    ANSWER_KEYS,
    QUESTION_KEYS,
    answer_text,
    content_text,
    is_document_list,
    parse_json,
    question_text,
    text_in,
)

SPAN_KIND: Final = "traceloop.span.kind"
ENTITY_NAME: Final = "traceloop.entity.name"
ENTITY_INPUT: Final = "traceloop.entity.input"
ENTITY_OUTPUT: Final = "traceloop.entity.output"
WORKFLOW_NAME: Final = "traceloop.workflow.name"
ENTITY_PATH: Final = "traceloop.entity.path"
REQUEST_TYPE: Final = "llm.request.type"
USAGE_TOTAL_TOKENS: Final = "llm.usage.total_tokens"
IS_STREAMING: Final = "llm.is_streaming"
CURRENT_IS_STREAMING: Final = "gen_ai.is_streaming"
OPENAI_API_BASE: Final = "gen_ai.openai.api_base"
CURRENT_TOTAL_TOKENS: Final = "gen_ai.usage.total_tokens"
"""Keys only OpenLLMetry's current instrumentors write beside the GenAI conventions' own."""
PROMPTS: Final = "gen_ai.prompt."
COMPLETIONS: Final = "gen_ai.completion."
VECTOR_DB_RETRIEVE: Final = "vector_db_retrieve"

_OWN_KEYS: Final = (
    SPAN_KIND, WORKFLOW_NAME, ENTITY_PATH, REQUEST_TYPE, USAGE_TOTAL_TOKENS, IS_STREAMING,
    CURRENT_IS_STREAMING, OPENAI_API_BASE, CURRENT_TOTAL_TOKENS,
)  # fmt: skip
_SPAN_KINDS: Final = {"workflow": Kind.CHAIN, "task": Kind.CHAIN, "agent": Kind.AGENT, "tool": Kind.TOOL}
_REQUEST_TYPES: Final = {"chat": Kind.LLM, "completion": Kind.LLM, "embedding": Kind.EMBEDDING,
                         "rerank": Kind.RERANKER}  # fmt: skip
_SEARCHING_NAME: Final = re.compile(r"retriev|search|fetch|lookup|find|docs|document|context|passage", re.I)
_DOCUMENT_KEYS: Final = ("documents", "docs", "context", "contexts", "passages", "chunks", "results")


class OpenLLMetry:
    source = Source.OPENLLMETRY
    keys = frozenset(
        {SPAN_KIND, ENTITY_NAME, ENTITY_INPUT, ENTITY_OUTPUT, WORKFLOW_NAME, ENTITY_PATH, REQUEST_TYPE,
         USAGE_TOTAL_TOKENS, IS_STREAMING, CURRENT_IS_STREAMING, OPENAI_API_BASE, CURRENT_TOTAL_TOKENS}
    )  # fmt: skip
    prefixes = (PROMPTS, COMPLETIONS)
    markers = (
        Marker(REQUEST_TYPE, ("chat", "completion", "rerank")),
        Marker(SPAN_KIND, ("workflow", "task", "agent")),
        Marker(genai.OPERATION_NAME, (VECTOR_DB_RETRIEVE,)),
    )
    scopes = ("traceloop.", "opentelemetry.instrumentation.openai.v1")

    def claims(self, span: TraceSpan) -> bool:
        return (
            any(key in span.attributes for key in _OWN_KEYS)
            or span.get(genai.OPERATION_NAME) == VECTOR_DB_RETRIEVE
            or any(key.startswith((PROMPTS, COMPLETIONS)) for key in span.attributes)
            or span.scope_name.startswith(self.scopes)
        )

    def normalise(self, span: TraceSpan) -> Span:
        kind = _kind(span)
        if kind is Kind.LLM:
            return _llm(span)
        if kind is Kind.RETRIEVER:
            return _vector_db(span)
        if SPAN_KIND in span.attributes:
            return _entity(span, kind)
        return genai.read(span, self.source, kind)


def _kind(span: TraceSpan) -> Kind:
    if span.get(genai.OPERATION_NAME) == VECTOR_DB_RETRIEVE:
        return Kind.RETRIEVER
    if span.get(REQUEST_TYPE) in _REQUEST_TYPES:
        return _REQUEST_TYPES[span.get(REQUEST_TYPE)]
    if span.get(SPAN_KIND) in _SPAN_KINDS:
        return _SPAN_KINDS[span.get(SPAN_KIND)]
    return genai.kind_of(span)


def _llm(span: TraceSpan) -> Span:
    """An LLM span of either generation: flattened 0.40 attributes when present, else the GenAI keys."""
    current = genai.read(span, Source.OPENLLMETRY, Kind.LLM)
    prompts = indexed(span.attributes, PROMPTS)
    completions = indexed(span.attributes, COMPLETIONS)
    if not prompts and not completions:
        return current
    messages = tuple(
        Message(role(fields.get("role", "user")), text)
        for fields in prompts
        if (text := _flattened_content(fields.get("content", ""))) is not None
    )
    answers = [
        text
        for fields in completions
        if role(fields.get("role", "assistant")) in (Role.ASSISTANT, Role.OTHER)
        and (text := _flattened_content(fields.get("content", "")))
    ]
    unread = set(current.unread) - {Unread.MESSAGES, Unread.OUTPUT}
    if len(messages) < len([f for f in prompts if f.get("content")]):
        unread.add(Unread.MESSAGES)
    return replace(
        current,
        messages=messages or current.messages,
        output_text="\n".join(answers) or current.output_text,
        input_tokens=current.input_tokens or count(span.get(genai.USAGE_PROMPT_TOKENS)),
        output_tokens=current.output_tokens or count(span.get(genai.USAGE_COMPLETION_TOKENS)),
        unread=frozenset(unread),
    )


def _flattened_content(value: str) -> str | None:
    """``gen_ai.prompt.N.content``: text, or a JSON list of parts for multi-part messages."""
    parsed = parse_json(value)
    if isinstance(parsed, list):
        return content_text(parsed)
    return value


def _vector_db(span: TraceSpan) -> Span:
    """LangChain's retriever: ``{"query": ...}`` in, ``{"documents": [...]}`` out."""
    entered = parse_json(span.get(ENTITY_INPUT))
    query = text_in(entered, QUESTION_KEYS, Role.USER) if entered is not None else span.get(ENTITY_INPUT)
    found = _documents_in(parse_json(span.get(ENTITY_OUTPUT)))
    unread = frozenset({Unread.DOCUMENTS}) if found is None and span.get(ENTITY_OUTPUT) else frozenset()
    return common(
        span, Source.OPENLLMETRY, Kind.RETRIEVER,
        input_text=query or "", documents=tuple(found or ()), document_origin=ContextSource.RETRIEVER,
        unread=unread,
    )  # fmt: skip


def _entity(span: TraceSpan, kind: Kind) -> Span:
    """A workflow, task, agent or tool span: its input and output as the decorators or LangChain wrote
    them."""
    entered = parse_json(span.get(ENTITY_INPUT))
    returned = parse_json(span.get(ENTITY_OUTPUT))
    unread: set[Unread] = set()
    question = _question(entered, span.get(ENTITY_INPUT))
    answer = _answer(returned, span.get(ENTITY_OUTPUT))
    if question is None:
        unread.add(Unread.INPUT)
    if answer is None:
        unread.add(Unread.OUTPUT)
    returned_documents = _returned_documents(returned, span.get(ENTITY_NAME) or span.name)
    handed = _handed_documents(entered)
    if returned_documents and kind is Kind.CHAIN and answer == "":
        # A task that returns documents and nothing else is the retriever nobody marked.
        kind = Kind.RETRIEVER
    found = returned_documents or handed
    return common(
        span, Source.OPENLLMETRY, kind,
        input_text=question or "", output_text=answer or "", documents=tuple(found),
        document_origin=ContextSource.DOCUMENTS if found else ContextSource.NONE, unread=frozenset(unread),
    )  # fmt: skip


def _question(entered: Any, recorded: str) -> str | None:
    if not recorded.strip():
        return ""
    if isinstance(entered, dict) and "inputs" in entered:
        inputs = entered["inputs"]
        return inputs if isinstance(inputs, str) else text_in(inputs, QUESTION_KEYS, Role.USER)
    if isinstance(entered, dict) and "args" in entered:
        return _argument_question(entered.get("args"), entered.get("kwargs"))
    return question_text(recorded)


def _argument_question(args: Any, kwargs: Any) -> str | None:
    """A decorated function's question: a keyword argument named like one, else its one string argument."""
    if isinstance(kwargs, dict):
        for key in QUESTION_KEYS:
            if isinstance(kwargs.get(key), str):
                return str(kwargs[key])
    strings = [item for item in args if isinstance(item, str)] if isinstance(args, list) else []
    if isinstance(kwargs, dict):
        strings += [value for value in kwargs.values() if isinstance(value, str)]
    if len(strings) == 1:
        return strings[0]
    return "" if not strings else None


def _answer(returned: Any, recorded: str) -> str | None:
    if not recorded.strip():
        return ""
    if isinstance(returned, dict) and "outputs" in returned:
        outputs = returned["outputs"]
        if is_document_list(outputs) or documents_of(outputs):
            return ""
        return outputs if isinstance(outputs, str) else text_in(outputs, ANSWER_KEYS, Role.ASSISTANT)
    if isinstance(returned, list):
        # A tuple comes out as a list: (answer, documents) has one string beside document lists.
        strings = [item for item in returned if isinstance(item, str)]
        others = [item for item in returned if not isinstance(item, str)]
        if len(strings) == 1 and all(documents_of(item) or item in ([], None) for item in others):
            return strings[0]
        if documents_of(returned) or all(isinstance(item, str) for item in returned):
            return ""
        return None
    if isinstance(returned, str) and looks_like_repr(returned):
        return repr_text(returned)
    return answer_text(recorded)


def _documents_in(value: Any) -> list[Document] | None:
    """Documents in a returned value: a document list, under a documents key, or in a tuple."""
    if isinstance(value, dict):
        for key in ("outputs", *_DOCUMENT_KEYS):
            if key in value:
                found = _documents_in(value[key])
                if found:
                    return found
        return None
    found = documents_of(value)
    if found:
        return found
    if isinstance(value, list):
        for item in value:
            nested = documents_of(item)
            if nested:
                return nested
    return None


def _returned_documents(returned: Any, name: str) -> list[Document]:
    found = _documents_in(returned)
    if found:
        return [item for item in found if item.text or item.id]
    if (
        isinstance(returned, list)
        and returned
        and all(isinstance(item, str) for item in returned)
        and _SEARCHING_NAME.search(name)
    ):
        return [document(item) for item in returned if item.strip()]
    return []


def _handed_documents(entered: Any) -> list[Document]:
    """Documents passed to a task or chain: a document list among its arguments or inputs."""
    if not isinstance(entered, dict):
        return []
    candidates: list[Any] = []
    for holder in (entered.get("kwargs"), entered.get("inputs"), entered):
        if isinstance(holder, dict):
            candidates += [holder[key] for key in _DOCUMENT_KEYS if key in holder]
    if isinstance(entered.get("args"), list):
        candidates += entered["args"]
    if isinstance(entered.get("inputs"), list):
        candidates.append(entered["inputs"])
    for candidate in candidates:
        found = documents_of(candidate)
        if found:
            return [item for item in found if item.text]
    return []
