"""Where documents joined by a space or a line break begin and end, told by the text on either side of each
gap between two words, where lines alone cannot tell: documents joined on one line (by a space), or lines too
short to name one place ("}", "## 2.3.1", a table's rows).

A search returns the same documents again in other company and order. So, per documents slot, this memory
keeps for the text that ends at a gap (a window of words long enough to name one place) the words seen after
it, and for the text that starts at a gap the words seen before it, with the region's edges. Inside a
document, a window's neighbour is always the same word; at a document's edge it changes from request to
request (or the region starts or ends there). A window, unlike a line, may be shared by two documents (a
common phrase), so a cut inside a line needs both sides to show it; only between lines, where the lines
named no place, does one side do, as for lines.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Final

_START: Final = "\x00start"
_END: Final = "\x00end"
_WIDTH: Final = 25
"""Characters from which a window of words names one place in one document."""
_TOGETHER: Final = 3
"""Requests in which the text on both sides of a gap must have come only with each other to be one
document's (as for lines)."""
_WINDOWS: Final = 50_000
"""Windows remembered per side and per slot: the memory stops growing there."""
_NEIGHBOURS: Final = 2
_REGIONS: Final = 2 * _TOGETHER
_WORD: Final = re.compile(r"\S+")


@dataclass
class _Window:
    neighbours: set[str] = field(default_factory=set)
    regions: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Words:
    """A content's words, with where each starts and ends."""

    texts: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, content: str) -> Words:
        found = list(_WORD.finditer(content))
        return cls(tuple(match.group() for match in found), tuple(match.span() for match in found))


@dataclass
class GapMemory:
    """What one documents slot's contents showed about each gap between two words."""

    ending: dict[str, _Window] = field(default_factory=dict)
    """Windows that end at a gap: the words seen after them."""
    starting: dict[str, _Window] = field(default_factory=dict)
    """Windows that start at a gap: the words seen before them."""

    def observe(self, region: str, words: Words) -> None:
        texts = words.texts
        for gap in range(len(texts) + 1):
            if gap < len(texts):
                key, _ = _window(texts, gap, forward=True)
                _note(self.starting, key, texts[gap - 1] if gap else _START, region)
            if gap:
                key, _ = _window(texts, gap, forward=False)
                _note(self.ending, key, texts[gap] if gap < len(texts) else _END, region)

    def cut(self, words: Words, gap: int, between_lines: bool) -> bool | None:
        """True: a document ends at ``gap`` (before word ``gap``); False: one document goes on; None: not
        known. Inside a line, only True or False (a cut needs both sides)."""
        texts = words.texts
        later, later_long = _window(texts, gap, forward=True)
        earlier, earlier_long = _window(texts, gap, forward=False)
        starting = self.starting.get(later)
        ending = self.ending.get(earlier)
        if starting is None or ending is None:
            return None if between_lines else False
        opens = _START in starting.neighbours or (later_long and len(starting.neighbours) > 1)
        closes = _END in ending.neighbours or (earlier_long and len(ending.neighbours) > 1)
        if between_lines:
            if opens or closes:
                return True
            together = starting.neighbours == {texts[gap - 1]} and ending.neighbours == {texts[gap]}
            if together and len(starting.regions & ending.regions) >= _TOGETHER:
                return False
            return None
        # Inside a line a window may be a phrase two documents share: both sides must show the edge, one
        # only where the other is too short to name a place (the region's first or last words).
        return (opens or not later_long) and (closes or not earlier_long) and (opens or closes)


def _window(texts: tuple[str, ...], gap: int, forward: bool) -> tuple[str, bool]:
    """The key of the words from ``gap`` on (or up to it) until they reach ``_WIDTH`` characters, and
    whether they did."""
    taken: list[str] = []
    length = 0
    index = gap if forward else gap - 1
    while 0 <= index < len(texts) and length < _WIDTH:
        taken.append(texts[index])
        length += len(texts[index]) + 1
        index += 1 if forward else -1
    if not forward:
        taken.reverse()
    text = " ".join(taken)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest(), length >= _WIDTH


def _note(windows: dict[str, _Window], key: str, neighbour: str, region: str) -> None:
    window = windows.get(key)
    if window is None:
        if len(windows) >= _WINDOWS:
            return
        window = windows[key] = _Window()
    if neighbour in (_START, _END) or len(window.neighbours - {_START, _END}) < _NEIGHBOURS:
        window.neighbours.add(neighbour)
    if len(window.regions) < _REGIONS:
        window.regions.add(region)
