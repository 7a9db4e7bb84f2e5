"""Items that come from outside (spans, log records, feedback, label lines, rules matched against sent values,
judge and receiver replies): one validating parser per kind that returns a value or a reason, and a record of
refusals that logs each refused item once, then only counts it.

One bad item costs that item. A parser never raises on its input: what it cannot use becomes a
:class:`Refused` that says why, and the caller goes on with the next item. :class:`Refusals` is what the
caller tells: the first refusal of an item (per kind) is one log line with printable text, every later one
is counted, so a span re-read every tick for a day is logged once, not once a tick.
"""

from __future__ import annotations

import logging
import math
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final, TypeVar

from ragpulse_core.log_budget import LogBudget
from ragpulse_core.printable import printable

T = TypeVar("T")

ITEM_CHARS: Final = 120
"""How much of an item's name or a reason a log line quotes; the rest is cut."""
LOG_LINES_PER_WINDOW: Final = 20
"""First refusals logged per minute; past that they are counted (and recorded by callers that record)."""
REMEMBERED: Final = 100_000
"""Refused items remembered at once (the oldest forgotten first), so a flood of distinct bad items costs
bounded memory: one forgotten and refused again is logged again, which the log budget still bounds."""


@dataclass(frozen=True)
class Refused:
    """Why an item was not used, in words a person can act on."""

    reason: str

    def __bool__(self) -> bool:
        # ``if not parsed:`` never mistakes a refusal for a value.
        return False


def refused(value: object) -> bool:
    return isinstance(value, Refused)


@dataclass(frozen=True)
class Refusal:
    """One refused item: its kind (``feedback``, ``label line``...), which item, and why."""

    kind: str
    item: str
    reason: str
    service: str = ""
    """The service that sent the item, when known."""
    detail: str = ""
    """What the item said, for a person who reads the refusals (capped by who records it)."""


class Refusals:
    """Refused items of a long-running process: logged once per (kind, item), then counted.

    ``known`` (kind, item) pairs, for example read back from the store at start-up, count as logged already,
    so a restart does not log the same items again. :meth:`drain` hands over the refusals first seen since
    the last drain, for a caller that records them. First refusals are logged within ``budget`` too: a flood
    of distinct bad items costs a few lines a minute, and the next line says how many were left out.
    """

    def __init__(
        self,
        logger: logging.Logger,
        known: Iterable[tuple[str, str]] = (),
        budget: LogBudget | None = None,
    ) -> None:
        self._logger = logger
        self._budget = budget or LogBudget(lines=LOG_LINES_PER_WINDOW)
        self._seen: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._fresh: list[Refusal] = []
        self.counts: Counter[str] = Counter()
        """Refusals per kind since the process started, repeats of one item included."""
        self.remember(known)

    def remember(self, known: Iterable[tuple[str, str]]) -> None:
        for kind, item in known:
            self._mark(kind, item)

    def refuse(self, kind: str, item: str, reason: str, *, service: str = "", detail: str = "") -> bool:
        """Count the refusal; log it when it is this item's first of this kind. True when it was."""
        self.counts[kind] += 1
        key = (kind, item)
        if key in self._seen:
            self._seen.move_to_end(key)
            return False
        self._mark(kind, item)
        self._fresh.append(Refusal(kind, item, reason, service, detail))
        note = self._budget.admit()
        if note is not None:
            self._logger.warning(
                "%s %s refused: %s%s", kind, quoted(item), quoted(reason, quotes=False), note
            )
        return True

    def seen(self, kind: str, item: str) -> bool:
        return (kind, item) in self._seen

    def drain(self) -> list[Refusal]:
        fresh, self._fresh = self._fresh, []
        return fresh

    def undrain(self, refusals: list[Refusal]) -> None:
        """Hand drained refusals back (their recording failed): the next drain has them again, not logged
        again. At most :data:`REMEMBERED` wait, the newest kept."""
        self._fresh = [*refusals, *self._fresh][-REMEMBERED:]

    def _mark(self, kind: str, item: str) -> None:
        self._seen[(kind, item)] = None
        while len(self._seen) > REMEMBERED:
            self._seen.popitem(last=False)


def quoted(text: str, limit: int = ITEM_CHARS, *, quotes: bool = True) -> str:
    """``text`` for a log line: control characters shown, never obeyed, and at most ``limit`` characters."""
    shown = printable(text)
    if len(shown) > limit:
        shown = f"{shown[: limit - 1]}… ({len(text)} characters)"
    return f"'{shown}'" if quotes else shown


def parse_with(parser: Callable[[T], object], value: T) -> object:
    """``parser(value)``, or a :class:`Refused` naming the exception a parser let through (a parser should
    not raise; this is the last guard, so one bad item still costs only that item)."""
    try:
        return parser(value)
    except Exception as exc:
        return Refused(f"{type(exc).__name__}: {quoted(str(exc), quotes=False)}")


def finite_number(text: str, *, low: float, high: float, what: str) -> float | Refused:
    """A decimal number between ``low`` and ``high`` (inclusive) written as ``text``, or why not.

    Only ASCII digits, sign, point and exponent: ``'²'`` and ``'٣'`` pass ``str.isdigit`` or ``float`` in some
    readings and would make a number nobody sent; NaN and the infinities are not numbers anyone meant.
    """
    stripped = text.strip()
    if not stripped:
        return Refused(f"{what} is missing")
    if len(stripped) > 64 or not stripped.isascii():
        return Refused(f"{what} is not a number: {quoted(stripped, 40)}")
    try:
        value = float(stripped)
    except ValueError:
        return Refused(f"{what} is not a number: {quoted(stripped, 40)}")
    if not math.isfinite(value):
        return Refused(f"{what} is not a finite number: {quoted(stripped, 40)}")
    if not low <= value <= high:
        return Refused(f"{what} {value:g} is outside [{low:g}, {high:g}]")
    return value


def whole_number(text: str, *, low: int, high: int, what: str) -> int | Refused:
    """An integer between ``low`` and ``high`` written in ASCII digits as ``text``, or why not."""
    stripped = text.strip()
    digits = stripped[1:] if stripped[:1] in "+-" else stripped
    if not digits or len(digits) > 20 or not (digits.isascii() and digits.isdigit()):
        return Refused(f"{what} is not a whole number: {quoted(stripped, 40)}")
    value = int(stripped)
    if not low <= value <= high:
        return Refused(f"{what} {value} is outside [{low}, {high}]")
    return value
