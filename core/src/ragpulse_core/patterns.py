"""Regular expressions written by users, matched against values chosen by whoever sends spans.

A backtracking engine can take exponential time on a plausible pattern (``^(\\w+-?)+-prod$``) and a value of
the sender's choosing, and Python's ``re`` holds the GIL while it does, so one span could freeze every thread
of the process. RE2 matches in time linear in the value, whatever the pattern. What it cannot do in linear
time (backreferences, lookaround) it refuses when the pattern is compiled, which is when the config loads, so
the user reads the reason at start-up rather than a stall in production.

RE2 syntax is Python's for everything else, with one difference worth knowing: ``\\w``, ``\\d`` and ``\\s``
are ASCII classes; write ``\\pL`` or ``[[:alpha:]]``-style classes for other scripts.
"""

from __future__ import annotations

import re
from typing import Protocol

import re2

MAX_PATTERN_CHARS = 2_000
"""A longer pattern is refused: no filter or mapping needs one, and its compiled program would be large."""

_PROGRAM_MEMORY_BYTES = 8 << 20
"""RE2's memory for one compiled pattern; a pattern whose program needs more is refused."""


class LinearPattern(Protocol):
    """What callers use of a compiled RE2 pattern (the names and meanings of ``re.Pattern``)."""

    pattern: str
    groups: int
    groupindex: dict[str, int]

    def search(self, text: str, pos: int = ..., endpos: int = ...) -> LinearMatch | None: ...

    def finditer(self, text: str, pos: int = ..., endpos: int = ...) -> list[LinearMatch]: ...


class LinearMatch(Protocol):
    re: LinearPattern

    def group(self, *groups: int | str) -> str | None: ...

    def groupdict(self) -> dict[str, str | None]: ...

    def span(self, group: int | str = ...) -> tuple[int, int]: ...


class PatternError(ValueError):
    """A pattern that cannot be matched in linear time, or is not a regular expression at all."""


def linear_pattern(source: str) -> LinearPattern:
    """``source`` compiled by RE2, or :class:`PatternError` saying why it cannot be used."""
    if len(source) > MAX_PATTERN_CHARS:
        raise PatternError(f"a pattern is at most {MAX_PATTERN_CHARS} characters (this one: {len(source)})")
    options = re2.Options()
    options.log_errors = False
    options.max_mem = _PROGRAM_MEMORY_BYTES
    try:
        compiled: LinearPattern = re2.compile(source, options=options)
    except re2.error as exc:
        raise PatternError(_reason(exc)) from None
    return compiled


_BACKTRACKING = re.compile(r"invalid escape sequence: \\\d|invalid perl operator: \(\?(?:[=!]|<[=!]|P(?!<))")
"""RE2's words for a backreference or lookaround: the constructs that only a backtracking engine can run."""


def _reason(exc: Exception) -> str:
    detail = exc.args[0] if exc.args else exc
    text = detail.decode("utf-8", "replace") if isinstance(detail, bytes) else str(detail)
    if _BACKTRACKING.search(text):
        return f"{text} (backreferences and lookaround need backtracking, which a sent value could stall)"
    if "pattern too large" in text:
        return f"{text} (its compiled program needs over {_PROGRAM_MEMORY_BYTES >> 20} MiB)"
    return text
