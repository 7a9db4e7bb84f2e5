"""OpenInference (Arize): ``openinference.span.kind`` on every span; ``input.value``/``output.value`` as
text or JSON; ``llm.input_messages``/``llm.output_messages`` flattened; ``retrieval.documents`` and
``reranker.output_documents`` flattened; token counts in ``llm.token_count.*``.

Covers the LangChain, LlamaIndex, openai, Haystack and DSPy instrumentors: Haystack's nested
``{"data": {"<component>": {...}}}`` inputs and ``ChatMessage(...)`` repr replies are read by
:mod:`~ragpulse_assembly.unwrap`; a DSPy ``Predict`` chain's ``{"context": [...]}`` input is kept as a
document list.
"""

from __future__ import annotations

from typing import Any, Final

from ragpulse_assembly.dialects.base import (
    Marker,
    common,
    count,
    documents_of,
    first,
    indexed,
    number,
    source_of,
)
from ragpulse_assembly.model import Document, Message, Role, Span, TraceSpan, Unread, document, role
from ragpulse_assembly.names import RAGPULSE_SCOPE, ContextSource, Kind, Source
from ragpulse_assembly.unwrap import answer_text, messages_of, parse_json, question_text

SPAN_KIND: Final = "openinference.span.kind"
INPUT_VALUE: Final = "input.value"
OUTPUT_VALUE: Final = "output.value"
SESSION_ID: Final = "session.id"
USER_ID: Final = "user.id"
LLM_MODEL_NAME: Final = "llm.model_name"
LLM_TOKEN_COUNT_PROMPT: Final = "llm.token_count.prompt"
LLM_TOKEN_COUNT_COMPLETION: Final = "llm.token_count.completion"
LLM_PROMPTS: Final = "llm.prompts"
RERANKER_QUERY: Final = "reranker.query"
RETRIEVAL_DOCUMENTS: Final = "retrieval.documents."
RERANKER_OUTPUT_DOCUMENTS: Final = "reranker.output_documents."
LLM_INPUT_MESSAGES: Final = "llm.input_messages."
LLM_OUTPUT_MESSAGES: Final = "llm.output_messages."

_KINDS: Final = {kind.value: kind for kind in Kind}
_DOCUMENT_INPUT_KEYS: Final = ("context", "contexts", "documents", "docs", "passages")
"""Keys of a chain's input that hold the documents handed to a generator (DSPy's ``Predict``)."""


class OpenInference:
    source = Source.OPENINFERENCE
    keys = frozenset(
        {
            SPAN_KIND, INPUT_VALUE, OUTPUT_VALUE, SESSION_ID, USER_ID, LLM_MODEL_NAME,
            LLM_TOKEN_COUNT_PROMPT, LLM_TOKEN_COUNT_COMPLETION, LLM_PROMPTS, RERANKER_QUERY,
        }
    )  # fmt: skip
    prefixes = (RETRIEVAL_DOCUMENTS, RERANKER_OUTPUT_DOCUMENTS, LLM_INPUT_MESSAGES, LLM_OUTPUT_MESSAGES,
                f"{LLM_PROMPTS}.")  # fmt: skip
    markers = (Marker(SPAN_KIND, ("LLM", "RETRIEVER", "RERANKER", "llm", "retriever", "reranker")),)

    def claims(self, span: TraceSpan) -> bool:
        return SPAN_KIND in span.attributes and span.scope_name != RAGPULSE_SCOPE

    def normalise(self, span: TraceSpan) -> Span:
        return read(span, self.source)


def kind_of(span: TraceSpan) -> Kind:
    return _KINDS.get(span.get(SPAN_KIND).upper(), Kind.OTHER)


def read(span: TraceSpan, source: Source) -> Span:
    """A span written with OpenInference's names (by its instrumentors or by ragpulse's decorators)."""
    kind = kind_of(span)
    unread: set[Unread] = set()
    fields: dict[str, Any] = {"session_id": span.get(SESSION_ID), "user_id": span.get(USER_ID)}
    if kind is Kind.LLM:
        messages = _prompt(span)
        if messages is None:
            unread.add(Unread.MESSAGES)
        output = _generated(span)
        if output is None:
            unread.add(Unread.OUTPUT)
        fields |= {
            "messages": tuple(messages or ()),
            "output_text": output or "",
            "model": span.get(LLM_MODEL_NAME),
            "input_tokens": count(span.get(LLM_TOKEN_COUNT_PROMPT)),
            "output_tokens": count(span.get(LLM_TOKEN_COUNT_COMPLETION)),
        }
    elif kind in (Kind.RETRIEVER, Kind.RERANKER):
        prefix = RERANKER_OUTPUT_DOCUMENTS if kind is Kind.RERANKER else RETRIEVAL_DOCUMENTS
        found = [_document(item) for item in indexed(span.attributes, prefix)]
        query = first(span, RERANKER_QUERY) or question_text(span.get(INPUT_VALUE))
        fields |= {
            "input_text": query or "",
            "documents": tuple(d for d in found if d is not None),
            "document_origin": ContextSource.RETRIEVER,
        }
    elif kind in (Kind.CHAIN, Kind.AGENT, Kind.TOOL, Kind.OTHER):
        question = question_text(span.get(INPUT_VALUE))
        answer = answer_text(span.get(OUTPUT_VALUE))
        unread |= {Unread.INPUT} if question is None else set()
        unread |= {Unread.OUTPUT} if answer is None else set()
        handed = _handed_documents(span.get(INPUT_VALUE)) or _returned_documents(span.get(OUTPUT_VALUE))
        fields |= {
            "input_text": question or "",
            "output_text": answer or "",
            "documents": tuple(handed),
            "document_origin": ContextSource.DOCUMENTS if handed else ContextSource.NONE,
        }
    return common(span, source, kind, unread=frozenset(unread), **fields)


def _document(fields: dict[str, str]) -> Document | None:
    text = fields.get("document.content", "")
    identifier = fields.get("document.id", "")
    if not text and not identifier:
        return None
    score = number(fields.get("document.score", ""))
    source = source_of(parse_json(fields.get("document.metadata", "")))
    if not text:
        return Document(identifier, "", score, source)
    return document(text, identifier, score, source)


def _prompt(span: TraceSpan) -> list[Message] | None:
    """The prompt as messages: ``llm.input_messages``, else ``llm.prompts``, else the request body in
    ``input.value``; None when one was recorded and none could be read."""
    messages = []
    for fields in indexed(span.attributes, LLM_INPUT_MESSAGES):
        parts = [part.get("message_content.text", "") for part in indexed(fields, "message.contents.")]
        text = fields.get("message.content") or "\n".join(part for part in parts if part)
        messages.append(Message(role(fields.get("message.role", "")), text))
    if messages:
        return messages
    prompts = [fields.get("prompt.text", "") for fields in indexed(span.attributes, f"{LLM_PROMPTS}.")]
    recorded = parse_json(span.get(LLM_PROMPTS))
    if isinstance(recorded, list):
        prompts += [item for item in recorded if isinstance(item, str)]
    elif span.get(LLM_PROMPTS) and recorded is None:
        prompts.append(span.get(LLM_PROMPTS))
    if any(prompts):
        return [Message(Role.USER, prompt) for prompt in prompts if prompt]
    value = span.get(INPUT_VALUE)
    parsed = parse_json(value)
    if isinstance(parsed, dict):
        listed = messages_of(parsed.get("messages"))
        if listed:
            return listed
        prompt = parsed.get("prompt")
        if isinstance(prompt, str):
            return [Message(Role.USER, prompt)]
        return None if parsed else []
    if parsed is None and value.strip():
        return [Message(Role.USER, value)]
    listed = messages_of(parsed)
    return listed if listed or not value.strip() else None


def _generated(span: TraceSpan) -> str | None:
    texts = []
    for fields in indexed(span.attributes, LLM_OUTPUT_MESSAGES):
        if role(fields.get("message.role", "assistant")) not in (Role.ASSISTANT, Role.OTHER):
            continue
        parts = [part.get("message_content.text", "") for part in indexed(fields, "message.contents.")]
        texts.append(fields.get("message.content") or "\n".join(part for part in parts if part))
    if any(texts):
        return "\n".join(text for text in texts if text)
    return answer_text(span.get(OUTPUT_VALUE))


def _handed_documents(value: str) -> list[Document]:
    """Documents a chain was handed as input (``{"context": [...], "question": ...}``)."""
    parsed = parse_json(value)
    if not isinstance(parsed, dict):
        return []
    for key in _DOCUMENT_INPUT_KEYS:
        listed = parsed.get(key)
        if isinstance(listed, list) and listed and all(isinstance(item, str) for item in listed):
            return [document(item) for item in listed if item.strip()]
        found = documents_of(listed)
        if found:
            return [item for item in found if item.text]
    return []


def _returned_documents(value: str) -> list[Document]:
    """Documents a chain returned (LangChain's fusion step returns the fused Documents)."""
    found = documents_of(parse_json(value))
    return [item for item in found or [] if item.text]
