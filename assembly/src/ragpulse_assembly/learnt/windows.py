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

START: Final = "\x00start"
"""The neighbour a region's first line or window has before it."""
END: Final = "\x00end"
"""The neighbour a region's last line or window has after it."""
NAMING: Final = 25
"""Characters from which a line, or a window of words, names one place in one document (not "Tips:" or a
rule of dashes)."""
TOGETHER: Final = 3
"""Requests in which two lines, or the text on both sides of a gap, must have come only with each other to
be one document's: two searches that returned the same two documents one after the other are no evidence."""
NEIGHBOURS: Final = 2
"""Neighbours kept on each side: only whether there was one or several is asked (besides a region's start
and end, always kept)."""
REGIONS: Final = 2 * TOGETHER
"""Contents kept per line or window: enough to tell two came together in ``TOGETHER`` of them."""
_WINDOWS: Final = 20_000
"""Windows remembered per side and per slot (as many as lines are): the memory stops growing there, and a
content whose windows it misses is not read."""
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
    lines: tuple[int, ...]
    """Per word, the line it is on."""

    @classmethod
    def of(cls, content: str) -> Words:
        found = list(_WORD.finditer(content))
        lines: list[int] = []
        line = at = 0
        for match in found:
            line += content.count("\n", at, match.start())
            at = match.start()
            lines.append(line)
        return cls(
            tuple(match.group() for match in found), tuple(match.span() for match in found), tuple(lines)
        )

    def between_lines(self, gap: int) -> bool:
        """A line break lies between word ``gap`` and the one before."""
        return self.lines[gap] != self.lines[gap - 1]


@dataclass
class GapMemory:
    """What one documents slot's contents showed about each gap between two words."""

    ending: dict[str, _Window] = field(default_factory=dict)
    """Windows that end at a gap: the words seen after them."""
    starting: dict[str, _Window] = field(default_factory=dict)
    """Windows that start at a gap: the words seen before them."""
    edges: dict[int, set[str]] = field(default_factory=dict)
    """The last (-1) words of the regions seen, while at most two differ."""
    regions: int = 0

    def note_edges(self, words: Words) -> None:
        """Notes a region's last word (as sent, before any mark is blanked out)."""
        if words.texts:
            self.regions += 1
            seen = self.edges.setdefault(-1, set())
            if len(seen) < NEIGHBOURS:
                seen.add(words.texts[-1])

    def observe(self, region: str, words: Words) -> None:
        texts = words.texts
        for gap in range(len(texts) + 1):
            # Both windows, on the line and across it: the same document starts after a space in one
            # request and at a line's start (or the region's) in another.
            for within in (True, False):
                if gap < len(texts):
                    key, _, _ = _window(words, gap, forward=True, within=within)
                    _note(self.starting, key, texts[gap - 1] if gap else START, region)
                if gap:
                    key, _, _ = _window(words, gap, forward=False, within=within)
                    _note(self.ending, key, texts[gap] if gap < len(texts) else END, region)

    def cut(self, words: Words, gap: int) -> bool | None:
        """True: a document ends at ``gap`` (before word ``gap``); False: one document goes on; None: not
        known. Inside a line a cut needs both sides to show an edge; where one side only does, it is not
        known."""
        texts = words.texts
        between_lines = words.between_lines(gap)
        later, later_long, last = _window(words, gap, forward=True, within=not between_lines)
        earlier, earlier_long, first = _window(words, gap, forward=False, within=not between_lines)
        starting = self.starting.get(later)
        ending = self.ending.get(earlier)
        if starting is None or ending is None:
            return None  # a content is observed before it is read: only a full memory misses a window
        opens = START in starting.neighbours or (later_long and len(starting.neighbours) > 1)
        closes = END in ending.neighbours or (earlier_long and len(ending.neighbours) > 1)
        if between_lines:
            if opens or closes:
                return True
            together = starting.neighbours == {texts[gap - 1]} and ending.neighbours == {texts[gap]}
            if together and len(starting.regions & ending.regions) >= TOGETHER:
                return False
            return None
        # Inside a line a window may be a phrase two documents share: both sides must show the edge, one
        # only where the other is the region's first or last words, too few to name a place.
        if (opens or last) and (closes or first) and (opens or closes):
            return True
        return None if opens or closes else False

    def template_mark(self, words: Words) -> bool | None:
        """The region's last word is a mark with no letter or digit that every region closed with, in
        several requests, and the text before it came before other words elsewhere: the template writes it
        (" ." after the documents), no document does. None where the text before it never came elsewhere:
        the template's mark, or a document's own (a code block's closing fence) that is last each time."""
        word = words.texts[-1]
        if self.regions < TOGETHER or self.edges.get(-1) != {word} or any(c.isalnum() for c in word):
            return False
        key, _, _ = _window(words, len(words.texts) - 1, forward=False, within=False)
        before = self.ending.get(key)
        return True if before is not None and before.neighbours - {word} else None

    def goes_on(self, words: Words, gap: int) -> bool:
        """Neither side of ``gap`` ever showed a document's edge, and one side always came with the word
        across it, in several requests: where lines say a document ends (a line that came after many),
        its words say it goes on (a document's first short line, joined by a space after others)."""
        later, later_long, _ = _window(words, gap, forward=True, within=False)
        earlier, earlier_long, _ = _window(words, gap, forward=False, within=False)
        starting = self.starting.get(later)
        ending = self.ending.get(earlier)
        if starting is None or ending is None:
            return False
        if START in starting.neighbours or END in ending.neighbours:
            return False
        if len(starting.neighbours) > 1 or len(ending.neighbours) > 1:
            return False
        return (later_long and len(starting.regions) >= TOGETHER) or (
            earlier_long and len(ending.regions) >= TOGETHER
        )


def _window(words: Words, gap: int, forward: bool, within: bool) -> tuple[str, bool, bool]:
    """The key of the words from ``gap`` on (or up to it) until they reach ``NAMING`` characters, and
    whether they did, and whether they stopped at the region's edge first; ``within``: on the gap's line
    only. Between two words of a line, the window stays on
    that line: across a break it would hold the document before (a list's first "-" after another
    document's last line), which other requests follow with other words though the list goes on."""
    texts = words.texts
    taken: list[str] = []
    length = 0
    index = gap if forward else gap - 1
    line = words.lines[index] if within and 0 <= index < len(texts) else -1
    while 0 <= index < len(texts) and length < NAMING and line in (-1, words.lines[index]):
        taken.append(texts[index])
        length += len(texts[index]) + 1
        index += 1 if forward else -1
    if not forward:
        taken.reverse()
    text = " ".join(taken)
    long = length >= NAMING
    return (
        hashlib.blake2b(text.encode(), digest_size=12).hexdigest(),
        long,
        not long and index in (-1, len(texts)),
    )


def _note(windows: dict[str, _Window], key: str, neighbour: str, region: str) -> None:
    window = windows.get(key)
    if window is None:
        if len(windows) >= _WINDOWS:
            return
        window = windows[key] = _Window()
    bounded_add(window.neighbours, neighbour, NEIGHBOURS)
    bounded_add(window.regions, region, REGIONS)


def bounded_add(found: set[str], key: str, most: int) -> None:
    """``key`` added to ``found`` while it holds fewer than ``most`` keys besides a region's start and end,
    which are always kept."""
    if key in (START, END) or len(found - {START, END}) < most:
        found.add(key)
