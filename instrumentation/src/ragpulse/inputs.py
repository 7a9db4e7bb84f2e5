"""Reading questions, queries and context out of what steps are called with, by duck typing (no imports).

Frameworks pass a step its question as a string, as a LlamaIndex ``QueryBundle`` (``query_str``), or inside
the dict of an LCEL chain (``{"question": ..., "context": ...}``); the context as a list of chunks under
``context`` or ``source_documents``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

QUESTION_KEYS: Final = ("question", "query", "input")
CONTEXT_KEYS: Final = ("context", "source_documents")
_NESTING: Final = 2
"""How deep a question is looked for in nested dicts (``{"input": {"question": ...}}``)."""


def query_text(value: Any, depth: int = _NESTING) -> str | None:
    """The question or query ``value`` carries: itself when a string, a ``QueryBundle``'s ``query_str``, or
    the first of a dict's ``question``/``query``/``input`` that carries one; None for anything else."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        if depth == 0:
            return None
        for key in QUESTION_KEYS:
            if key in value:
                text = query_text(value[key], depth - 1)
                if text is not None:
                    return text
        return None
    query_str = getattr(value, "query_str", None)
    return query_str if isinstance(query_str, str) else None


def first_query(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> str | None:
    """The query of the first argument that carries one (positional arguments first)."""
    for value in args:
        text = query_text(value)
        if text is not None:
            return text
    for value in kwargs.values():
        text = query_text(value)
        if text is not None:
            return text
    return None


def context_in(value: Any) -> list[Any] | None:
    """The chunks a dict carries under ``context``/``source_documents``, or an object's ``source_nodes``
    (a LlamaIndex ``Response``); a context given as one formatted string is one chunk."""
    if isinstance(value, Mapping):
        for key in CONTEXT_KEYS:
            found = _chunk_list(value.get(key))
            if found is not None:
                return found
        return None
    if isinstance(value, str | bytes):
        return None
    return _chunk_list(getattr(value, "source_nodes", None))


def first_context(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> list[Any] | None:
    for value in (*args, *kwargs.values()):
        if isinstance(value, Mapping):
            found = context_in(value)
            if found is not None:
                return found
    return None


def _chunk_list(value: Any) -> list[Any] | None:
    if isinstance(value, list | tuple):
        return list(value)
    if isinstance(value, str):
        return [value]
    return None
