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

import functools
import re
from typing import Protocol

import re2

MAX_PATTERN_CHARS = 2_000
"""A longer pattern is refused: no filter or mapping needs one, and its compiled program would be large."""

_PROGRAM_MEMORY_BYTES = 8 << 20
"""RE2's memory for one compiled pattern; a pattern whose program needs more is refused."""
MAX_REPEAT = 100
r"""The largest count a repetition may have (``{1,100}``). RE2 stays linear in the text, but its fast engine
gives up on a large count over a class and falls back to one whose time per character grows with the count:
``(?:\w+\s*){1,1000}Z`` took 465 µs a character (a 1 MB answer, 8 minutes), ``{1,100}`` 5 µs."""
# An escaped character or a class (whose braces are members), else a count: "{3}", "{2,5}", "{200,}".
_REPEAT = re.compile(r"\\.|\[(?:\\.|[^\]\\])*\]?|\{\s*(\d*)\s*,?\s*(\d*)\s*\}", re.DOTALL)


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
    largest = max((int(count) for counts in _REPEAT.findall(source) for count in counts if count), default=0)
    if largest > MAX_REPEAT:
        raise PatternError(
            f"a repetition counts to at most {MAX_REPEAT} (this one: {largest}); over that RE2 matches"
            " hundreds of times slower per character"
        )
    options = re2.Options()
    options.log_errors = False
    options.max_mem = _PROGRAM_MEMORY_BYTES
    try:
        compiled: LinearPattern = re2.compile(source, options=options)
    except re2.error as exc:
        raise PatternError(_reason(exc)) from None
    return _AnyText(compiled)


class _AnyText:
    """A compiled pattern that also matches text UTF-8 cannot encode: RE2 reads UTF-8, and a lone surrogate
    (which an OTLP/JSON ``\\ud800`` escape decodes to) raised instead of matching. Such characters are read
    as ``?``, one for one, so positions stay those of the text."""

    def __init__(self, compiled: LinearPattern) -> None:
        self._compiled = compiled
        self.pattern = compiled.pattern
        self.groups = compiled.groups
        self.groupindex = compiled.groupindex

    def search(self, text: str, *bounds: int) -> LinearMatch | None:
        return self._compiled.search(_encodable(text), *bounds)

    def finditer(self, text: str, *bounds: int) -> list[LinearMatch]:
        return list(self._compiled.finditer(_encodable(text), *bounds))


def config_pattern(source: str) -> LinearPattern:
    """:func:`linear_pattern` for a pattern a config gives: its error names the pattern (``bad regex '...':
    why``), for the one line that says what is wrong with the file."""
    try:
        return linear_pattern(source)
    except PatternError as exc:
        raise PatternError(f"bad regex {source!r}: {exc}") from None


def _encodable(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


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


@functools.lru_cache(maxsize=256)
def linear_glob(glob: str) -> LinearPattern:
    """A shell-style pattern (``*``, ``?``, ``[seq]``, ``[!seq]``, as :func:`fnmatch.fnmatchcase` reads it)
    compiled by RE2 to match a whole value: ``fnmatch`` compiles to a backtracking regex, and a value of the
    sender's choosing against ``*a*a*a*a*b`` costs it time that grows with every ``*``."""
    parts: list[str] = []
    at = 0
    while at < len(glob):
        character = glob[at]
        at += 1
        if character == "*":
            parts.append(".*")
        elif character == "?":
            parts.append(".")
        elif character == "[" and (end := _class_end(glob, at)) is not None:
            members = glob[at:end]
            negated = members.startswith("!")
            members = members[1:] if negated else members
            escaped = members.replace("\\", "\\\\").replace("]", "\\]").replace("[", "\\[")
            if escaped.startswith("^"):
                escaped = "\\" + escaped
            parts.append(f"[{'^' if negated else ''}{escaped}]")
            at = end + 1
        else:
            parts.append(re.escape(character))
    return linear_pattern(f"(?s)\\A(?:{''.join(parts)})\\z")


def glob_literal(text: str) -> str:
    """A pattern :func:`linear_glob` matches against ``text`` alone: a service named ``*`` pinned by its name
    would otherwise pin every service."""
    return "".join(f"[{character}]" if character in "*?[" else character for character in text)


def _class_end(glob: str, at: int) -> int | None:
    """Where the ``[...]`` starting before ``at`` closes (a ``]`` first in it is a member), or None."""
    end = at + (1 if glob[at : at + 1] == "!" else 0)
    end += 1 if glob[end : end + 1] == "]" else 0
    closing = glob.find("]", end)
    return None if closing < 0 else closing
