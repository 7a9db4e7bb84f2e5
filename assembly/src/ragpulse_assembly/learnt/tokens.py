"""A prompt as one text and its tokens: the messages of the current turn joined with a marker per message
(its role), cut into words, digit runs, single CJK characters, newlines, blanks and single other characters.

Every token is a substring of the text and the tokens cover it exactly, so a token range maps back to the
text's characters. Digit runs are compared as one class (:data:`DIGITS`) where a template's counter may stand
("[1]", "[2]").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ragpulse_assembly.model import Message

MARK_OPEN: Final = "\ue000"
MARK_CLOSE: Final = "\ue001"
"""Private-use characters around a message's role: no prompt text can forge a message boundary, since a
prompt holding either is not read (:func:`flatten`)."""
DIGITS: Final = "\ue002#"
"""The class every digit run falls in when counters are compared."""
_CJK: Final = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"


def _combining_marks() -> str:
    """A character class body of the combining marks (Unicode categories Mn, Mc, Me) up to U+1FFF: the vowel
    signs, viramas and diacritics inside the words of Devanagari, Bengali, Tamil, Thai, Arabic... that
    ``\\w`` does not match, so a word of those scripts would fall apart into letters and "marks"."""
    ranges: list[tuple[int, int]] = []
    for code in range(0x0300, 0x2000):
        if unicodedata.category(chr(code)).startswith("M"):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))
    return "".join(chr(low) if low == high else f"{chr(low)}-{chr(high)}" for low, high in ranges)


COMBINING: Final = _combining_marks()
MARKER: Final = f"{MARK_OPEN}[^{MARK_CLOSE}]*{MARK_CLOSE}"
"""A message's marker, its role between the two private-use characters, as a pattern."""
_TOKEN: Final = re.compile(
    rf"{MARKER}|\n|[^\S\n]+|\d+|[{_CJK}]+|(?:(?![{_CJK}])[^\W\d_]|[{COMBINING}])+|"
    r"(?P<mark>[^\w\s])(?P=mark)+|.",
    re.DOTALL,
)
"""A marker, a newline, blanks, digits, a run of CJK characters (a word or more: those scripts write no
blanks), a word, a run of one mark ("=====", "```"), any other character."""
SENTENCE_END: Final = frozenset(".!?。！？…।॥۔؟።፧\u037e։။។།‽｡")
"""A document's or question's own last character, never a template's framing around it (Latin, CJK,
Devanagari, Urdu, Arabic, Ethiopic, Greek, Armenian, Myanmar, Khmer, Tibetan)."""
CLAUSE_MARKS: Final = frozenset(",;،؛፣፤、，；")
"""Commas and semicolons, in Latin and the scripts whose marks differ (Arabic, Ethiopic, Chinese and
Japanese): they end a clause, never a label or a template's separator."""
PROSE_MARKS: Final = SENTENCE_END | CLAUSE_MARKS | frozenset(":-'’()：")
"""Marks between two words of a sentence's prose."""
QUESTION_MARKS: Final = frozenset("?？؟፧\u037e‽")
"""Marks that end a question (Latin, full-width, Arabic, Ethiopic, Greek), a title's as well as a
sentence's."""
GREEK_QUESTION: Final = ";"
"""The mark Greek writes to end a question, typed as a semicolon on every keyboard."""


@dataclass(frozen=True)
class Tokens:
    """A text cut into tokens; ``starts[i]`` is where token ``i`` begins, ``starts[-1]`` the text's end."""

    text: str
    tokens: tuple[str, ...]
    starts: tuple[int, ...]

    def span(self, start: int, end: int) -> str:
        """The text of tokens ``start`` to ``end`` (exclusive)."""
        return self.text[self.starts[start] : self.starts[end]]

    def __len__(self) -> int:
        return len(self.tokens)


def tokenize(text: str) -> Tokens:
    tokens = [match.group(0) for match in _TOKEN.finditer(text)]
    starts = [0]
    for token in tokens:
        starts.append(starts[-1] + len(token))
    return Tokens(text, tuple(tokens), tuple(starts))


def marker(role: str) -> str:
    return f"{MARK_OPEN}{role}{MARK_CLOSE}"


def flatten(messages: Sequence[Message]) -> str | None:
    """The messages as one text, each after its role's marker; None when a message holds a marker character
    (the text could forge a boundary) or no message has text."""
    if not any(message.text.strip() for message in messages):
        return None
    parts = []
    for message in messages:
        if MARK_OPEN in message.text or MARK_CLOSE in message.text or DIGITS[0] in message.text:
            return None
        parts.append(marker(message.role.value) + message.text)
    return "".join(parts)


def is_marker(token: str) -> bool:
    return token.startswith(MARK_OPEN)


def generalised(token: str) -> str:
    """The token as counters compare: numbers are one class."""
    # str methods first: this runs for every token read; the value is looked up only where it counts.
    return DIGITS if token.isdigit() or (len(token) == 1 and token.isnumeric()) else token


def numeral_value(token: str) -> int | None:
    """The whole number a token writes: a run of decimal digits in any script, or one character that
    stands for a number ("①", "Ⅳ", "三"); None for any other token."""
    if token.isdecimal():
        return int(token)
    if len(token) == 1:
        value = unicodedata.numeric(token, -1.0)
        if value >= 0 and value.is_integer():
            return int(value)
    return None


def is_word(token: str) -> bool:
    """Letters (a word of a language written with spaces): never a template's framing by itself."""
    return token[:1].isalpha() and not is_marker(token)


_UNSPACED: Final = re.compile(f"[{_CJK}]")


def is_unspaced(token: str) -> bool:
    """Characters of a script written without blanks (Chinese, Japanese, Korean): a run is a phrase."""
    return _UNSPACED.search(token) is not None


def is_blank(token: str) -> bool:
    return token.isspace()


def find_run(general: tuple[str, ...], pattern: tuple[str, ...], start: int) -> int:
    """Where the run of tokens ``pattern`` first occurs in ``general`` at or after ``start``; -1 when it
    does not."""
    width = len(pattern)
    first = pattern[0]
    for index in range(start, len(general) - width + 1):
        if general[index] == first and general[index : index + width] == pattern:
            return index
    return -1


def is_prose_mark(text: str) -> bool:
    """Nothing, or one mark that stands between two words of prose in some script (". ", "، ", "、", "।"):
    never a template's separator on its own."""
    return not text or text in PROSE_MARKS
