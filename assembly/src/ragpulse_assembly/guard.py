"""The last check before a request is written as scorable, whatever dialect read it: no question, answer
or chunk may be a serialized object (JSON, a Python repr, a LangChain constructor, a DSPy field layout), no
chunk a separator line, and the question may not be a whole prompt (holding a chunk of the context). A
dialect bug then costs a refused request, never a score judged on garbage."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from ragpulse_assembly.model import normalized
from ragpulse_assembly.pyrepr import looks_like_repr
from ragpulse_assembly.unwrap import looks_like_json, parse_json

_SERIALIZATION_MARKERS: Final = (
    "ChatMessage(",
    "TextContent(",
    "Document(id=",
    "page_content=",
    "<ChatRole.",
    "[[ ## ",
)
_LANGCHAIN_CONSTRUCTOR: Final = re.compile(r"[\"']lc[\"']:\s*1\b")
_FIELD_BOUNDARY: Final = re.compile(r"""['"],\s*['"][A-Za-z_][\w-]{0,40}['"]\s*:\s""")
"""Where one field of a printed record ends and the next begins (``', 'url': ``, ``", "title": ``)."""
_SEPARATOR_LINE: Final = re.compile(
    r"[^\w\s]{2,}[^\S\n]*+(?:[^\W\d_]++[^\S\n]*+){0,4}+[^\w\s]{2,}|[^\w\s]{3,}"
)
"""A line of marks, or a few words between runs of marks ("--New Chunk--", "=== Source ==="): what a template
writes between documents, never one. Each word is taken whole (possessive): a chunk opening with two marks
and a long run of letters ("——" and a paragraph of Chinese) is then told in one pass, not by trying every
way to cut the run into four words."""
_MIN_CHUNK_WORDS: Final = 6
"""A chunk this long found inside the question means the question is a prompt, not the user's words."""


def serialized(text: str) -> bool:
    """The text is an object's serialization, not prose."""
    stripped = text.strip()
    if isinstance(parse_json(stripped), dict | list) or looks_like_json(stripped):
        return True
    return (
        looks_like_repr(stripped)
        or any(marker in stripped for marker in _SERIALIZATION_MARKERS)
        or ("lc" in stripped and _LANGCHAIN_CONSTRUCTOR.search(stripped) is not None)
    )


def problem(question: str, answer: str, chunks: Sequence[str]) -> str:
    """Why these values must not be judged, or ""."""
    if serialized(question):
        return "the question is a serialized object"
    if serialized(answer):
        return "the answer is a serialized object"
    if any(serialized(chunk) for chunk in chunks):
        return "a chunk is a serialized object"
    if any(_cut_from_a_record(chunk) for chunk in chunks):
        return "a chunk is a piece cut out of a serialized record"
    if any(_SEPARATOR_LINE.fullmatch(chunk.strip()) for chunk in chunks):
        return "a chunk is a separator line: the template's text between documents"
    if holds_a_chunk(question, chunks):
        return "the question holds a chunk of the context: it is a whole prompt"
    return ""


def holds_a_chunk(question: str, chunks: Sequence[str]) -> bool:
    """The question carries a document of the context word for word: it is a prompt, not the user's words."""
    asked = normalized(question)
    return any(
        len(key.split()) >= _MIN_CHUNK_WORDS and key in asked
        for key in (normalized(chunk) for chunk in chunks)
    )


def _cut_from_a_record(chunk: str) -> bool:
    """The chunk holds where a record's field ends and the next begins with no brace opening that record
    before it: a piece cut out of a printed list of records (a text with the keys and values after it), not
    a text that quotes a record whole (a code sample)."""
    match = _FIELD_BOUNDARY.search(chunk)
    return match is not None and "{" not in chunk[: match.start()]
