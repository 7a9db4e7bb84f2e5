"""Sentence splitting shared by the lexical judge and the LLM support judge."""

from __future__ import annotations

import re

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
# A sentence ends at . ! ? (optionally followed by quotes or brackets) before whitespace and a likely start.
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
_LINE_BREAKS = re.compile(r"\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)")
# "1." or "(a)" alone is the marker of a list item, not a sentence: it stays with the text after it.
_LIST_MARKER = re.compile(r"[(\[]?(?:\d{1,3}|[a-zA-Z]|[ivx]{1,4})[.)\]]?")


def split_sentences(text: str) -> list[str]:
    """Split prose into sentences; paragraph breaks and list items also end a sentence."""
    sentences: list[str] = []
    for block in _LINE_BREAKS.split(text):
        start = 0
        for match in _BOUNDARY.finditer(block):
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
