"""Traced text made safe to show: questions and answers are untrusted, and a terminal obeys what it prints."""

from __future__ import annotations

import unicodedata

from rich.markup import escape

# Bidirectional overrides and isolates reorder what a terminal shows (a line can read unlike its bytes).
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Unicode tag characters render as nothing while carrying text (hidden instructions in "plain" text).
_TAGS = range(0xE0000, 0xE0080)


def printable(text: str) -> str:
    """Traced text made safe for a terminal or a page: control characters shown as ``\\x1b``, never obeyed.

    ESC starts CSI/OSC sequences (clear the screen, retitle the window, forge hyperlinks), C1 bytes do the
    same in one character, CR and BS overwrite what was printed, NUL truncates in some viewers, bidirectional
    overrides make a line read unlike its bytes, tag characters hide text, and a lone surrogate cannot even be
    encoded; tabs, newlines and Unicode line separators become spaces.
    """
    return "".join(_printable_character(character) for character in text)


def needs_escape(character: str) -> bool:
    """A character a terminal or a page would obey, hide or fail on rather than show."""
    return (
        character in "\t\n\u2028\u2029"
        or character in _BIDI_CONTROLS
        or ord(character) in _TAGS
        or unicodedata.category(character) in ("Cs", "Cc")
    )


def _printable_character(character: str) -> str:
    if character in "\t\n\u2028\u2029":
        return " "
    code = ord(character)
    if character in _BIDI_CONTROLS or code in _TAGS or unicodedata.category(character) == "Cs":
        return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
    if unicodedata.category(character) == "Cc":
        return f"\\x{code:02x}"
    return character


def shown(text: str) -> str:
    """Traced text for rich: control characters neutralised, markup printed rather than applied."""
    return escape(printable(text))


def excerpt(text: str, limit: int = 160) -> str:
    flat = " ".join(printable(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
