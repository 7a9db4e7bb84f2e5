"""Haystack's own tracer (``haystack.tracing`` with OpenTelemetry, content tracing on): a
``haystack.pipeline.run`` span with ``haystack.pipeline.input_data``/``output_data`` JSON, and one
``haystack.component.run`` span per component with ``haystack.component.name``/``.type`` and
``haystack.component.input``/``.output`` JSON. No other convention's keys.

A component's kind comes from what it returned (``documents``: a retriever or ranker, ``replies``: a
generator), else from its type's name, so a custom component is read like a stock one.
"""

from __future__ import annotations

from typing import Any, Final

from ragpulse_assembly.dialects.base import Marker, common, count, documents_of
from ragpulse_assembly.model import Message, Role, Span, TraceSpan, Unread
from ragpulse_assembly.names import ContextSource, Kind, Source
from ragpulse_assembly.unwrap import (
    ANSWER_KEYS,
    QUESTION_KEYS,
    messages_of,
    parse_json,
    text_in,
)

PIPELINE_INPUT: Final = "haystack.pipeline.input_data"
PIPELINE_OUTPUT: Final = "haystack.pipeline.output_data"
COMPONENT_NAME: Final = "haystack.component.name"
COMPONENT_TYPE: Final = "haystack.component.type"
COMPONENT_INPUT: Final = "haystack.component.input"
COMPONENT_OUTPUT: Final = "haystack.component.output"
_TYPE_KINDS: Final = (
    ("Ranker", Kind.RERANKER), ("Retriever", Kind.RETRIEVER), ("Generator", Kind.LLM),
    ("Embedder", Kind.EMBEDDING),
)  # fmt: skip


class Haystack:
    source = Source.HAYSTACK
    keys = frozenset(
        {PIPELINE_INPUT, PIPELINE_OUTPUT, COMPONENT_NAME, COMPONENT_TYPE, COMPONENT_INPUT, COMPONENT_OUTPUT}
    )
    prefixes: tuple[str, ...] = ()
    markers = (Marker(COMPONENT_TYPE), Marker(PIPELINE_INPUT))

    def claims(self, span: TraceSpan) -> bool:
        return any(key in span.attributes for key in (COMPONENT_TYPE, COMPONENT_NAME, PIPELINE_INPUT,
                                                      PIPELINE_OUTPUT))  # fmt: skip

    def normalise(self, span: TraceSpan) -> Span:
        if COMPONENT_TYPE not in span.attributes and COMPONENT_NAME not in span.attributes:
            return _pipeline(span)
        return _component(span)


def _pipeline(span: TraceSpan) -> Span:
    entered = parse_json(span.get(PIPELINE_INPUT))
    returned = parse_json(span.get(PIPELINE_OUTPUT))
    question = text_in(entered, QUESTION_KEYS, Role.USER) if entered is not None else None
    answer = _replies_text(returned)
    unread = {Unread.INPUT} if span.get(PIPELINE_INPUT) and question is None else set()
    unread |= {Unread.OUTPUT} if span.get(PIPELINE_OUTPUT) and answer is None else set()
    return common(span, Source.HAYSTACK, Kind.CHAIN, input_text=question or "", output_text=answer or "",
                  unread=frozenset(unread))  # fmt: skip


def _component(span: TraceSpan) -> Span:
    entered = parse_json(span.get(COMPONENT_INPUT))
    returned = parse_json(span.get(COMPONENT_OUTPUT))
    found = documents_of(returned.get("documents")) if isinstance(returned, dict) else None
    kind = _kind(span, returned)
    if kind in (Kind.RETRIEVER, Kind.RERANKER):
        query = text_in(entered, QUESTION_KEYS, Role.USER) if entered is not None else ""
        unread = {Unread.DOCUMENTS} if span.get(COMPONENT_OUTPUT) and found is None else set()
        return common(span, Source.HAYSTACK, kind, input_text=query or "", documents=tuple(found or ()),
                      document_origin=ContextSource.RETRIEVER, unread=frozenset(unread))  # fmt: skip
    if kind is Kind.LLM:
        return _generator(span, entered, returned)
    return common(span, Source.HAYSTACK, kind)


def _kind(span: TraceSpan, returned: Any) -> Kind:
    if isinstance(returned, dict):
        if documents_of(returned.get("documents")) is not None:
            ranker = "Ranker" in span.get(COMPONENT_TYPE)
            return Kind.RERANKER if ranker else Kind.RETRIEVER
        if "replies" in returned:
            return Kind.LLM
    component_type = span.get(COMPONENT_TYPE)
    return next((kind for name, kind in _TYPE_KINDS if name in component_type), Kind.OTHER)


def _generator(span: TraceSpan, entered: Any, returned: Any) -> Span:
    messages: list[Message] = []
    if isinstance(entered, dict):
        messages = messages_of(entered.get("messages"))
        prompt = entered.get("prompt")
        if not messages and isinstance(prompt, str):
            messages = [Message(Role.USER, prompt)]
    answer = _replies_text(returned)
    meta = _reply_meta(returned)
    usage: dict[str, Any] = meta["usage"] if isinstance(meta.get("usage"), dict) else {}
    unread = {Unread.MESSAGES} if span.get(COMPONENT_INPUT) and not messages else set()
    unread |= {Unread.OUTPUT} if span.get(COMPONENT_OUTPUT) and answer is None else set()
    return common(
        span, Source.HAYSTACK, Kind.LLM, messages=tuple(messages), output_text=answer or "",
        model=str(meta.get("model") or ""), input_tokens=count(usage.get("prompt_tokens")),
        output_tokens=count(usage.get("completion_tokens")), unread=frozenset(unread),
    )  # fmt: skip


def _replies_text(returned: Any) -> str | None:
    """The text of the (last component's) replies: chat messages or plain strings."""
    if returned is None:
        return ""
    return text_in(returned, ("replies", *ANSWER_KEYS), Role.ASSISTANT)


def _reply_meta(returned: Any) -> dict[str, Any]:
    if not isinstance(returned, dict):
        return {}
    replies = returned.get("replies")
    if isinstance(replies, list) and replies and isinstance(replies[0], dict):
        meta = replies[0].get("meta") or replies[0].get("_meta")
        if isinstance(meta, dict):
            return meta
    metas = returned.get("meta")
    if isinstance(metas, list) and metas and isinstance(metas[0], dict):
        return metas[0]
    return {}
