"""The two span models of assembly.

:class:`TraceSpan` is a span as stored (only the attributes some dialect reads, and the GenAI events joined
to it); a dialect turns it into a :class:`Span` of the common model, which is all the rules ever read: kind,
input and output text, prompt messages with roles, documents, model and tokens.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

from ragpulse_assembly.names import ContextSource, Kind, Source


@dataclass(frozen=True)
class LogEvent:
    """A GenAI event: an OTLP log record (or span event) tied to a span, by name."""

    name: str
    timestamp: datetime
    body: str
    """The record's body as stored: JSON for structured bodies."""
    attributes: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TraceSpan:
    """A span of ``otel_traces`` with only the attributes some dialect reads, and its events."""

    span_id: str
    parent_span_id: str
    name: str
    service_name: str
    scope_name: str
    timestamp: datetime
    duration_ns: int
    status_code: str
    attributes: Mapping[str, str]
    events: tuple[LogEvent, ...] = ()
    resource: Mapping[str, str] = field(default_factory=dict)
    """The resource attributes a service mapping matches on (only those: dialects read none)."""

    def get(self, key: str) -> str:
        return self.attributes.get(key, "")


class Role(StrEnum):
    SYSTEM = "system"
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"
    OTHER = "other"


_ROLES = {
    "system": Role.SYSTEM,
    "developer": Role.SYSTEM,
    "user": Role.USER,
    "human": Role.USER,
    "assistant": Role.ASSISTANT,
    "ai": Role.ASSISTANT,
    "model": Role.ASSISTANT,
    "bot": Role.ASSISTANT,
    "tool": Role.TOOL,
    "function": Role.TOOL,
    "ipython": Role.TOOL,
}


def role(name: str) -> Role:
    """A role as any instrumentation spells it (``human``, ``ChatRole.USER``, ``AIMessage``...)."""
    lowered = name.strip().lower().rsplit(".", 1)[-1]
    if lowered in _ROLES:
        return _ROLES[lowered]
    for prefix in ("human", "system", "ai", "tool", "function"):
        if lowered.startswith(prefix) and lowered.endswith(("message", "messagechunk")):
            return _ROLES[prefix]
    return Role.OTHER


@dataclass(frozen=True)
class Message:
    role: Role
    text: str


@dataclass(frozen=True)
class Document:
    """A retrieved or reranked document; ``id`` is the recorded id, or a hash of the text when none was."""

    id: str
    text: str
    score: float | None = None
    source: str | None = None

    key: str = field(init=False, compare=False, repr=False)
    """The text as :func:`normalized` writes it, computed once: documents are compared many times."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", normalized(self.text))


def content_id(text: str) -> str:
    """The id of a document recorded without one: stable across spans."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def document(
    text: str, identifier: str = "", score: float | None = None, source: str | None = None
) -> Document:
    return Document(identifier or content_id(text), text, score, source)


def normalized(text: str) -> str:
    """Text with whitespace runs collapsed, for finding a document's text inside a prompt."""
    return " ".join(text.split())


@dataclass(frozen=True)
class RagRoot:
    """What a ragpulse root span (``ragpulse.kind=rag``) recorded itself."""

    pipeline: str
    variant: str
    question: str
    answer: str
    context: str
    variations: str
    retrievals: str
    reference: str


class Unread(StrEnum):
    """A value a span recorded that its dialect could not turn into text."""

    INPUT = "input"
    OUTPUT = "output"
    MESSAGES = "messages"
    DOCUMENTS = "documents"
    UPLOADED = "uploaded"
    """Only references to content a completion hook uploaded elsewhere (``gen_ai.*_ref``)."""


@dataclass(frozen=True)
class Span:
    """One span in the common model. Texts are plain text, never JSON or a repr: a dialect that cannot
    decode a value leaves the field empty and names it in :attr:`unread`."""

    span_id: str
    parent_span_id: str
    name: str
    service_name: str
    timestamp: datetime
    duration_ns: int
    status_code: str
    source: Source | None
    """The family that wrote the span; None for spans no dialect knows (an HTTP server span), which only
    shape the tree."""
    kind: Kind
    input_text: str = ""
    """A chain's question, a retriever's query: the user's words when the span's input records them."""
    output_text: str = ""
    """A chain's answer, an LLM's generated text."""
    messages: tuple[Message, ...] = ()
    """An LLM's prompt, in order."""
    documents: tuple[Document, ...] = ()
    """Ranked documents a retriever returned or a reranker kept, or a document list found on the span."""
    document_origin: ContextSource = ContextSource.NONE
    """RETRIEVER for retriever/reranker/vector-store results, DOCUMENTS for lists found in other values."""
    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    session_id: str = ""
    user_id: str = ""
    unread: frozenset[Unread] = frozenset()
    rag: RagRoot | None = None

    @property
    def end(self) -> datetime:
        return self.timestamp + timedelta(microseconds=self.duration_ns // 1000)

    @property
    def prompt(self) -> str:
        """Everything the span was prompted with, normalized, for finding documents in it."""
        return normalized("\n".join(message.text for message in self.messages))
