"""One normalized shape for the chunks applications pass around, read by duck typing (no imports)."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

_NO_METADATA: Mapping[str, Any] = MappingProxyType({})
_TEXT_KEYS = ("text", "content", "page_content")
_SOURCE_KEYS = ("source", "file_name", "file_path", "url")

RankingEntry = tuple[int, str, float | None]
"""A ranked chunk as a ranking records it: ``(rank, id, score)``."""


class ChunkError(TypeError):
    """An object that cannot be read as a chunk (the message says which one and why)."""


@dataclass(slots=True)
class Chunk:
    """A chunk as ragpulse records it; not frozen because it is built on every traced step (4x cheaper)."""

    id: str
    """The application's id, or ``h:`` and a hash of the text when it has none (same text, same id)."""
    text: str
    score: float | None = None
    """The retriever's score; None when absent or not finite (NaN cannot go into JSON)."""
    source: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=lambda: _NO_METADATA)


def text_id(text: str) -> str:
    return "h:" + hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def to_chunk(obj: object, index: int = 0) -> Chunk:
    """Normalize one chunk; ``index`` is its position in its list, named in the error message.

    Accepts a ``Chunk`` (or anything with ``id``/``text`` like ``FusedChunk``, itself a ``str``), a string,
    a mapping (``id``, ``text``/``content``/``page_content``, ``score``, ``metadata``, ``source``), a
    ``(chunk, score)`` pair, a LangChain ``Document`` (``page_content``, ``metadata``), a LlamaIndex
    ``NodeWithScore`` (``node``, ``score``) or node (``node_id``, ``get_content()``), or an object with
    ``text``/``content``. Raises :class:`ChunkError` for anything else.
    """
    kind = type(obj)
    if kind is Chunk:
        return obj  # type: ignore[return-value]
    if kind is dict:
        return _from_plain_dict(obj, index)  # type: ignore[arg-type]
    if isinstance(obj, Mapping):
        return _from_mapping(obj, index)
    if isinstance(obj, str):
        if kind is not str and hasattr(obj, "text"):
            return _from_attributes(obj, index)
        return Chunk(text_id(obj), str(obj), None, None, _NO_METADATA)
    if isinstance(obj, tuple):
        return _from_pair(obj, index)
    if hasattr(obj, "page_content"):
        return _from_langchain(obj, index)
    if hasattr(obj, "node"):
        return _from_node_with_score(obj, index)
    if hasattr(obj, "node_id") and hasattr(obj, "get_content"):
        return _from_llamaindex_node(obj, None, index)
    return _from_attributes(obj, index)


def _from_plain_dict(data: dict[str, Any], index: int) -> Chunk:
    """The common shape (str id and text, float score, no metadata) without the general lookups."""
    raw_id = data.get("id")
    text = data.get("text")
    score = data.get("score")
    if (
        type(raw_id) is str
        and type(text) is str
        and (score is None or (type(score) is float and math.isfinite(score)))
        and "metadata" not in data
    ):
        source = data.get("source")
        return Chunk(raw_id, text, score, None if source is None else str(source), _NO_METADATA)
    return _from_mapping(data, index)


def ranking_entries(items: list[Any] | tuple[Any, ...], refused: Callable[[], None]) -> list[RankingEntry]:
    """``(rank, id, score)`` of each item, which is all a ranking records: the common plain dict is read in
    place without building a :class:`Chunk` (the checks of its fast path, not the work; one function call per
    ranking, not per chunk), anything else as :func:`to_chunk` reads it, so both give the same values and
    refuse the same chunks. An item that cannot be read is left out (its rank kept) and ``refused`` is called
    from the ``except`` block."""
    entries: list[RankingEntry] = []
    append = entries.append
    for position, item in enumerate(items):
        if type(item) is dict:
            raw_id = item.get("id")
            score = item.get("score")
            if (
                type(raw_id) is str
                and type(item.get("text")) is str
                # x - x is 0.0 for a finite float and NaN for NaN and the infinities (no call per chunk).
                and (score is None or (type(score) is float and score - score == 0.0))
                and "metadata" not in item
            ):
                append((position + 1, raw_id, score))
                continue
        try:
            chunk = to_chunk(item, position)
        except Exception:
            refused()
            continue
        append((position + 1, chunk.id, chunk.score))
    return entries


def _from_mapping(data: Mapping[str, Any], index: int) -> Chunk:
    text = None
    for key in _TEXT_KEYS:
        text = data.get(key)
        if text is not None:
            break
    metadata = data.get("metadata")
    metadata = _NO_METADATA if metadata is None else _mapping(metadata, index)
    raw_id = data.get("id")
    if raw_id is None:
        raw_id = metadata.get("id")
    if text is None:
        if raw_id is None:
            raise ChunkError(f"chunk {index}: mapping has no text, content, page_content or id")
        text = ""
    text = _text(text, index)
    return Chunk(
        id=text_id(text) if raw_id is None else str(raw_id),
        text=text,
        score=_score(data.get("score"), index),
        source=_source(data.get("source"), metadata),
        metadata=metadata,
    )


def _from_pair(pair: tuple[Any, ...], index: int) -> Chunk:
    if len(pair) != 2:
        raise ChunkError(f"chunk {index}: a tuple chunk is (text or chunk, score), got {len(pair)} items")
    first, score = pair
    base = to_chunk(first, index)
    return Chunk(base.id, base.text, _score(score, index), base.source, base.metadata)


def _from_langchain(document: Any, index: int) -> Chunk:
    text = _text(document.page_content, index)
    metadata = _mapping(getattr(document, "metadata", None) or _NO_METADATA, index)
    raw_id = getattr(document, "id", None)
    if raw_id is None:
        raw_id = metadata.get("id")
    return Chunk(
        id=text_id(text) if raw_id is None else str(raw_id),
        text=text,
        score=_score(metadata.get("score"), index),
        source=_source(None, metadata),
        metadata=metadata,
    )


def _from_node_with_score(wrapper: Any, index: int) -> Chunk:
    return _from_llamaindex_node(wrapper.node, getattr(wrapper, "score", None), index)


def _from_llamaindex_node(node: Any, score: Any, index: int) -> Chunk:
    text = _text(node.get_content(), index)
    metadata = _mapping(getattr(node, "metadata", None) or _NO_METADATA, index)
    raw_id = getattr(node, "node_id", None)
    return Chunk(
        id=text_id(text) if raw_id is None else str(raw_id),
        text=text,
        score=_score(score, index),
        source=_source(None, metadata),
        metadata=metadata,
    )


def _from_attributes(obj: Any, index: int) -> Chunk:
    text = getattr(obj, "text", None)
    if text is None:
        text = getattr(obj, "content", None)
    if text is None:
        raise ChunkError(
            f"chunk {index}: cannot read a {type(obj).__name__} as a chunk "
            "(expected str, mapping, (text, score), a document or node, or an object with text/content)"
        )
    text = _text(text, index)
    metadata = getattr(obj, "metadata", None)
    if metadata is None:
        metadata = getattr(obj, "meta", None)
    metadata = _NO_METADATA if metadata is None else _mapping(metadata, index)
    raw_id = getattr(obj, "id", None)
    return Chunk(
        id=text_id(text) if raw_id is None else str(raw_id),
        text=text,
        score=_score(getattr(obj, "score", None), index),
        source=_source(getattr(obj, "source", None), metadata),
        metadata=metadata,
    )


def _text(value: Any, index: int) -> str:
    if isinstance(value, str):
        return value
    raise ChunkError(f"chunk {index}: text is {type(value).__name__}, not str")


def _score(value: Any, index: int) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise ChunkError(f"chunk {index}: score is a bool, not a number")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ChunkError(f"chunk {index}: score {value!r} is not a number") from None
    return number if math.isfinite(number) else None


def _mapping(value: Any, index: int) -> Mapping[str, Any]:
    if isinstance(value, Mapping):
        return value
    raise ChunkError(f"chunk {index}: metadata is {type(value).__name__}, not a mapping")


def _source(value: Any, metadata: Mapping[str, Any]) -> str | None:
    if value is None:
        for key in _SOURCE_KEYS:
            value = metadata.get(key)
            if value is not None:
                break
    return None if value is None else str(value)
