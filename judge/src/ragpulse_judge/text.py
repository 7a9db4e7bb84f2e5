"""Sentence splitting shared by the lexical judge and the LLM judges.

Text is read as markdown first (:mod:`ragpulse_judge.prose.markdown`): each heading, list item and table
row is a unit of its own, and citation markers, emphasis, links and quotation marks are taken off, so a
sentence is the plain statement a reader sees.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragpulse_judge.prose.markdown import markdown_blocks

_ABBREVIATIONS = frozenset(
    [
        "e.g",
        "i.e",
        "etc",
        "vs",
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "sr",
        "jr",
        "st",
        "no",
        "fig",
        "al",
        "approx",
        "inc",
        "ltd",
        "co",
        "corp",
        "u.s",
        "u.k",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
    ]
)
# A sentence ends at . ! ? (optionally followed by quotes or brackets) before whitespace and a likely start
# (see _starts_sentence), or at the CJK full stop, exclamation and question marks, which need no space.
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]”’»]*\s+(?=\S)|(?<=[。！？])[」』）”’]*\s*(?=\S)")
# What may come before the first letter of a sentence is anything but a word character: quotes, brackets,
# and symbols such as emoji or ✅.
_WORD_CHARACTER = re.compile(r"\w")
_LINE_BREAKS = re.compile(r"\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)")
# "1." or "(a)" alone is the marker of a list item, not a sentence: it stays with the text after it.
_LIST_MARKER = re.compile(r"[(\[]?(?:\d{1,3}|[a-zA-Z]|[ivx]{1,4})[.)\]]?")


@dataclass(frozen=True)
class Segment:
    """A sentence, or a ``label`` (a short heading or a table's header row) that names what follows."""

    text: str
    label: bool = False


def text_segments(text: str) -> list[Segment]:
    """The sentences and labels of ``text`` in order, without markup (see the module docstring)."""
    segments: list[Segment] = []
    for block in markdown_blocks(text):
        if block.label or block.code:
            segments.append(Segment(block.text, label=block.label))
        else:
            segments.extend(Segment(sentence) for sentence in _prose_sentences(block.text))
    return segments


def split_sentences(text: str) -> list[str]:
    """Split text into sentences; paragraph breaks, headings, list items and table rows also end one."""
    return [segment.text for segment in text_segments(text)]


def _prose_sentences(text: str) -> list[str]:
    sentences: list[str] = []
    for block in _LINE_BREAKS.split(text):
        start = 0
        # The first word character at or after the last boundary: looked up again only once a boundary
        # lies past it, so a block of many boundaries and no words (". . . .") is read once, not once each.
        word_at = 0
        for match in _BOUNDARY.finditer(block):
            if word_at < match.end():
                found = _WORD_CHARACTER.search(block, match.end())
                word_at = found.start() if found else len(block)
            if not _starts_sentence(block, word_at if word_at < len(block) else match.end()):
                continue
            candidate = block[start : match.start()].strip()
            last_word = candidate.rsplit(None, 1)[-1].rstrip(".").lower() if candidate else ""
            if (
                last_word in _ABBREVIATIONS
                or (len(last_word) == 1 and last_word.isalpha())
                or _LIST_MARKER.fullmatch(candidate)
            ):
                continue
            if candidate:
                sentences.append(candidate)
            start = match.end()
        tail = block[start:].strip()
        if tail:
            sentences.append(tail)
    return sentences


def _starts_sentence(text: str, position: int) -> bool:
    """After a full stop, a capital letter, a digit or a CJK character (past any quote, bracket or emoji:
    ``position`` is the first word character after the stop) starts a sentence; a lowercase word does not
    ("approx. half", "e.g. this")."""
    if position >= len(text):
        return False
    first = text[position]
    return first.isupper() or first.isdigit() or (first.isalpha() and not first.islower())
