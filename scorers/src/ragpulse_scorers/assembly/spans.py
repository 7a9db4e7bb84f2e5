"""One span as assembly sees it, and what can be read off a single span: its kind, query, documents,
prompt, output, model and token counts."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ragpulse_scorers.assembly import names
from ragpulse_scorers.assembly.names import Kind
from ragpulse_scorers.assembly.unwrap import (
    ASSISTANT_ROLES,
    answer_text,
    messages_text,
    parse_json,
    question_text,
    string_leaves,
)

_INDEXED = re.compile(r"^(\d+)\.(.+)$")


@dataclass(frozen=True)
class TraceSpan:
    """A span of ``otel_traces`` with only the attributes assembly reads."""

    span_id: str
    parent_span_id: str
    name: str
    service_name: str
    scope_name: str
    timestamp: datetime
    duration_ns: int
    status_code: str
    attributes: dict[str, str]

    def get(self, key: str) -> str:
        return self.attributes.get(key, "")

    @property
    def end(self) -> datetime:
        return self.timestamp + timedelta(microseconds=self.duration_ns // 1000)

    kind: Kind = field(init=False, compare=False, repr=False)
    """What the span did; read once, since the rules ask for every span's kind many times."""

    def __post_init__(self) -> None:
        declared = self.get(names.SPAN_KIND).upper()
        kind = Kind(declared) if declared in Kind.__members__ else None
        fallback = names.GEN_AI_KINDS.get(self.get(names.GEN_AI_OPERATION_NAME), Kind.OTHER)
        object.__setattr__(self, "kind", kind or fallback)

    @property
    def is_ragpulse_root(self) -> bool:
        return self.get(names.RAGPULSE_KIND) == names.RAGPULSE_KIND_RAG

    @property
    def is_foreign(self) -> bool:
        """Written by another instrumentation (not ragpulse's decorators) in a convention assembly reads."""
        declared = names.SPAN_KIND in self.attributes or names.GEN_AI_OPERATION_NAME in self.attributes
        return declared and self.scope_name != names.RAGPULSE_SCOPE


@dataclass(frozen=True)
class Document:
    """A retrieved or reranked document; ``id`` is the recorded id, or a hash of the text when none was."""

    id: str
    text: str
    score: float | None
    source: str | None

    key: str = field(init=False, compare=False, repr=False)
    """The text as :func:`normalized` writes it, computed once: documents are compared many times."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", normalized(self.text))


def content_id(text: str) -> str:
    """The id of a document recorded without one (LangChain's ``retriever.invoke``): stable across spans."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def normalized(text: str) -> str:
    """Text with whitespace runs collapsed, for finding a document's text inside a prompt."""
    return " ".join(text.split())


def indexed(attributes: dict[str, str], prefix: str) -> list[dict[str, str]]:
    """A flattened list (``<prefix><i>.<field>``) as a list of field dicts, in index order."""
    items: dict[int, dict[str, str]] = {}
    for key, value in attributes.items():
        if key.startswith(prefix):
            match = _INDEXED.match(key[len(prefix) :])
            if match:
                items.setdefault(int(match.group(1)), {})[match.group(2)] = value
    return [items[index] for index in sorted(items)]


def documents(span: TraceSpan) -> list[Document]:
    """The ranked documents a retriever returned or a reranker kept, in rank order."""
    prefix = names.RERANKER_OUTPUT_DOCUMENTS if span.kind is Kind.RERANKER else names.RETRIEVAL_DOCUMENTS
    found = [_document(fields) for fields in indexed(span.attributes, prefix)]
    if not found:
        found = _gen_ai_documents(span.get(names.GEN_AI_RETRIEVAL_DOCUMENTS))
    return [document for document in found if document is not None]


def _document(fields: dict[str, str]) -> Document | None:
    text = fields.get("document.content", "")
    identifier = fields.get("document.id", "")
    if not text and not identifier:
        return None
    return Document(
        id=identifier or content_id(text),
        text=text,
        score=_float(fields.get("document.score", "")),
        source=_source(parse_json(fields.get("document.metadata", ""))),
    )


def _gen_ai_documents(value: str) -> list[Document | None]:
    parsed = parse_json(value)
    if not isinstance(parsed, list):
        return []
    found: list[Document | None] = []
    for item in parsed:
        if isinstance(item, dict):
            text = item.get("content", item.get("text", ""))
            fields = {"document.content": text if isinstance(text, str) else ""}
            if item.get("id") is not None:
                fields["document.id"] = str(item["id"])
            if isinstance(item.get("score"), int | float):
                fields["document.score"] = str(item["score"])
            found.append(_document(fields))
    return found


def _source(metadata: Any) -> str | None:
    if isinstance(metadata, dict):
        for key in ("source", "file_name", "file_path", "url"):
            if isinstance(metadata.get(key), str):
                return str(metadata[key])
    return None


def _float(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value == value and abs(value) != float("inf") else None


def integer(text: str) -> int:
    """A token count as recorded (``"12"`` or ``"12.0"``); 0 when absent or not a count."""
    value = _float(text)
    return int(value) if value is not None and 0 <= value < 2**32 else 0


def query(span: TraceSpan) -> str:
    """What a retriever searched for."""
    for key in (names.GEN_AI_RETRIEVAL_QUERY_TEXT, names.RERANKER_QUERY):
        if span.get(key):
            return span.get(key)
    return question_text(span.get(names.INPUT_VALUE))


def prompt_text(span: TraceSpan) -> str:
    """Everything an LLM span was given, as one normalized text: input messages, prompts, the input value."""
    parts = [
        fields.get("message.content", "") for fields in indexed(span.attributes, names.LLM_INPUT_MESSAGES)
    ]
    parts.extend(
        fields.get("message_content.text", "")
        for message in indexed(span.attributes, names.LLM_INPUT_MESSAGES)
        for fields in indexed(message, "message.contents.")
    )
    parts.extend(
        fields.get("prompt.text", "") for fields in indexed(span.attributes, f"{names.LLM_PROMPTS}.")
    )
    for key in (names.LLM_PROMPTS, names.INPUT_VALUE):
        parts.extend(string_leaves(span.get(key)))
    for key in (names.GEN_AI_SYSTEM_INSTRUCTIONS, names.GEN_AI_INPUT_MESSAGES):
        parts.extend(messages_text(span.get(key)) or string_leaves(span.get(key)))
    return normalized("\n".join(part for part in parts if part))


def output_text(span: TraceSpan) -> str:
    """What an LLM span answered (or a chain returned)."""
    messages = [
        fields.get("message.content", "")
        for fields in indexed(span.attributes, names.LLM_OUTPUT_MESSAGES)
        if fields.get("message.role", "assistant").lower() in ASSISTANT_ROLES
    ]
    text = "\n".join(message for message in messages if message)
    if text:
        return text
    generated = messages_text(span.get(names.GEN_AI_OUTPUT_MESSAGES), ASSISTANT_ROLES)
    if generated:
        return "\n".join(generated)
    return answer_text(span.get(names.OUTPUT_VALUE))


def model(span: TraceSpan) -> str:
    for key in (names.LLM_MODEL_NAME, names.GEN_AI_RESPONSE_MODEL, names.GEN_AI_REQUEST_MODEL):
        if span.get(key):
            return span.get(key)
    return ""


def tokens(span: TraceSpan) -> tuple[int, int]:
    """(input, output) tokens of an LLM span, OpenInference's counts first."""
    prompt = span.get(names.LLM_TOKEN_COUNT_PROMPT) or span.get(names.GEN_AI_USAGE_INPUT_TOKENS)
    completion = span.get(names.LLM_TOKEN_COUNT_COMPLETION) or span.get(names.GEN_AI_USAGE_OUTPUT_TOKENS)
    return integer(prompt), integer(completion)


def json_list(text: str) -> list[Any]:
    """A ragpulse JSON array attribute (``ragpulse.context``...), or [] when absent or unreadable."""
    parsed = parse_json(text)
    return parsed if isinstance(parsed, list) else []


def to_json(value: Any) -> str:
    """Compact JSON, as ragpulse's decorators write their attributes."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
