"""What every dialect is, and the readers several of them share: flattened attribute lists, numbers, and
document lists in the shapes frameworks serialize them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol

from ragpulse_assembly.model import Document, Span, TraceSpan, document
from ragpulse_assembly.names import Kind, Source
from ragpulse_assembly.pyrepr import looks_like_repr

TEXT_KEYS: Final = ("content", "text", "page_content", "document", "chunk", "passage", "body", "snippet")
ID_KEYS: Final = ("id", "doc_id", "document_id", "node_id", "chunk_id", "_id", "uuid")
SCORE_KEYS: Final = ("score", "relevance_score", "similarity", "rerank_score")
SOURCE_KEYS: Final = ("source", "file_name", "file_path", "url", "uri", "title")


@dataclass(frozen=True)
class Marker:
    """A span attribute that says "this family wrote the span, and it may be a step of a request": the key
    present (no values) or holding one of ``values``. The settled-trace query tests markers, so it reads no
    whole attribute maps to find candidate traces."""

    key: str
    values: tuple[str, ...] = ()


class Dialect(Protocol):
    """One instrumentation family: which spans it wrote, which attributes it reads, and how each of its
    spans becomes a :class:`~ragpulse_assembly.model.Span`."""

    @property
    def source(self) -> Source: ...

    @property
    def keys(self) -> frozenset[str]:
        """Attributes read by their full name (the job reads these and nothing else)."""
        ...

    @property
    def prefixes(self) -> tuple[str, ...]:
        """Flattened lists read (``<prefix><i>.<field>``)."""
        ...

    @property
    def markers(self) -> tuple[Marker, ...]: ...

    def claims(self, span: TraceSpan) -> bool: ...

    def normalise(self, span: TraceSpan) -> Span: ...


def common(span: TraceSpan, source: Source | None, kind: Kind, **fields: Any) -> Span:
    """A common-model span with ``span``'s identity and ``fields``."""
    return Span(
        span_id=span.span_id,
        parent_span_id=span.parent_span_id,
        name=span.name,
        service_name=span.service_name,
        timestamp=span.timestamp,
        duration_ns=span.duration_ns,
        status_code=span.status_code,
        source=source,
        kind=kind,
        **fields,
    )


def indexed(attributes: Mapping[str, str], prefix: str) -> list[dict[str, str]]:
    """A flattened list (``<prefix><i>.<field>``) as a list of field dicts, in index order."""
    items: dict[int, dict[str, str]] = {}
    start = len(prefix)
    for key, value in attributes.items():
        if key.startswith(prefix):
            index, dot, field = key[start:].partition(".")
            if dot and field and index.isascii() and index.isdigit():  # not "²": int() refuses it
                items.setdefault(int(index), {})[field] = value
    return [items[index] for index in sorted(items)]


def number(value: Any) -> float | None:
    """A finite number from a recorded value (``"0.5"``, ``0.5``), else None."""
    if isinstance(value, bool):
        return None
    try:
        parsed = float(value)
    except (TypeError, ValueError):
        return None
    return parsed if parsed == parsed and abs(parsed) != float("inf") else None


def count(value: Any) -> int:
    """A token count as recorded (``"12"``, ``"12.0"``, 12); 0 when absent or not a count."""
    parsed = number(value)
    return int(parsed) if parsed is not None and 0 <= parsed < 2**32 else 0


def first(span: TraceSpan, *keys: str) -> str:
    """The first of ``keys`` the span recorded."""
    return next((span.get(key) for key in keys if span.get(key)), "")


def source_of(metadata: Any) -> str | None:
    if isinstance(metadata, dict):
        for key in SOURCE_KEYS:
            if isinstance(metadata.get(key), str) and metadata[key]:
                return str(metadata[key])
    return None


def document_of(item: Any) -> Document | None:
    """A document in any serialized shape seen: ``{"content"|"text"|"page_content": ..., "id", "score",
    "metadata"}`` (Haystack, LangChain, traceloop tasks, GenAI), LangChain's constructor form, LlamaIndex's
    ``{"node": {...}, "score"}``. A document recorded with an id and no text keeps the id and an empty text.
    None when ``item`` is not a document, or its text is a repr that cannot be read exactly."""
    if not isinstance(item, dict) or "role" in item or "_role" in item:
        return None
    holder = item
    for wrapper in ("kwargs", "node"):
        if isinstance(item.get(wrapper), dict):
            holder = {**item, **item[wrapper]}
    text = next((holder[key] for key in TEXT_KEYS if isinstance(holder.get(key), str)), None)
    identifier = next((str(holder[key]) for key in ID_KEYS if isinstance(holder.get(key), str | int)), "")
    if (text is None and not identifier) or (text is not None and looks_like_repr(text)):
        return None
    score = next((number(holder[key]) for key in SCORE_KEYS if number(holder.get(key)) is not None), None)
    source = source_of(holder.get("metadata")) or source_of(holder.get("meta")) or source_of(holder)
    if text is None:
        return Document(identifier, "", score, source)
    return document(text, identifier, score, source)


def documents_of(value: Any) -> list[Document] | None:
    """A list whose every item is a document, as documents; None when ``value`` is no such list."""
    if not isinstance(value, list) or not value:
        return None
    found = [document_of(item) for item in value]
    if any(item is None for item in found):
        return None
    return [item for item in found if item is not None]
