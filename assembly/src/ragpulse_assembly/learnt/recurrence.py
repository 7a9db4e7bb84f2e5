"""Documents told apart by how they recur across requests, where the template joins them with nothing a
document's own text does not hold too (a bare line break between documents with line breaks of their own).

A search returns the same documents again and again, in other company and order: a document's lines always
come in the same order, one after the other, while the line after a document's last one changes from request
to request (or the region ends there). So, per documents slot, this memory keeps for each line the lines seen
before and after it, and whether it opened or closed a region (a region starts with a document and ends with
one). Between two lines of a prompt, a document ends when the later line opened a region or came after other
lines elsewhere, or the earlier line closed a region or came before others (a line long enough to name one
place); the two are one document's when each only ever came with the other, in three requests or more. A
line too short to name one place opens a document too when it came after several lines but always before the
same one (a short title), and closes one when it came before several but always after the same one.
Where neither is known, the text on either side of the break tells it (``windows``: a run of short lines
names one place where none of its lines does), and inside a line the same tells where documents joined by a
space begin and end. Where that is not known either, the prompt is not read: its request waits for more
traffic, or is refused.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass, field
from typing import Final

from ragpulse_assembly.learnt.windows import (
    END,
    NAMING,
    NEIGHBOURS,
    REGIONS,
    START,
    TOGETHER,
    GapMemory,
    Words,
    bounded_add,
)

_LINES: Final = 20_000
"""Lines (and whole contents) remembered per slot: the memory stops growing there."""


@dataclass
class _Line:
    before: set[str] = field(default_factory=set)
    after: set[str] = field(default_factory=set)
    regions: set[str] = field(default_factory=set)


@dataclass
class DocumentMemory:
    """What one documents slot's contents showed about where documents begin and end."""

    lines: dict[str, _Line] = field(default_factory=dict)
    gaps: GapMemory = field(default_factory=GapMemory)
    seen: set[str] = field(default_factory=set)
    twice: set[str] = field(default_factory=set)
    """Lines long enough to name one place that came twice in one content: the template writes them (a
    line under each group's header), no document's text; a content holding one is not read."""

    def observe(self, content: str) -> None:
        region = _key(content)
        if region in self.seen or len(self.seen) >= _LINES:
            return
        self.seen.add(region)
        self.note_twice(content)
        self.gaps.note_edges(Words.of(content))
        content = self._unmarked(content) or content
        self.gaps.observe(region, Words.of(content))
        keys = [_key(line) for _, _, line in _lines(content)]
        for index, key in enumerate(keys):
            line = self.lines.get(key)
            if line is None:
                if len(self.lines) >= _LINES:
                    continue
                line = self.lines[key] = _Line()
            bounded_add(line.before, keys[index - 1] if index else START, NEIGHBOURS)
            bounded_add(line.after, keys[index + 1] if index + 1 < len(keys) else END, NEIGHBOURS)
            bounded_add(line.regions, region, REGIONS)

    def note_twice(self, content: str) -> None:
        """Notes the lines long enough to name one place that ``content`` holds twice."""
        named = [_key(line) for _, _, line in _lines(content) if len(line) >= NAMING]
        if len(self.twice) < _LINES:
            self.twice.update(key for key in set(named) if named.count(key) > 1)

    def documents(self, content: str) -> list[str] | None:
        """The documents of ``content`` (as written, each from its first word to its last), or None when a
        break between two lines is not known to be inside a document or between two."""
        unmarked = self._unmarked(content)
        if unmarked is None:
            return None
        content = unmarked
        found = _lines(content)
        if any(_key(text) in self.twice for _, _, text in found):
            return None
        words = Words.of(content)
        if not words.texts:
            return []
        verdicts = [None, *(self.gaps.cut(words, gap) for gap in range(1, len(words.texts)))]
        # A line that holds a document's edge between two of its words (documents joined by a space) is
        # no unit: it came after many lines though the document that ends it goes on past its break.
        mixed = {
            words.lines[gap]
            for gap in range(1, len(words.texts))
            if verdicts[gap] and not words.between_lines(gap)
        }
        cuts = [0]
        line = 0
        for gap in range(1, len(words.texts)):
            verdict = verdicts[gap]
            if words.between_lines(gap) and verdict is not False:
                while found[line][1] < words.spans[gap][0]:
                    line += 1
                unit = not {words.lines[gap - 1], words.lines[gap]} & mixed
                lines = self._between(found[line - 1][2], found[line][2]) if unit else None
                if (lines or not unit) and verdict is None and self.gaps.goes_on(words, gap):
                    # The words across the break only ever came with each other, on both sides.
                    lines = False
                verdict = _first_known(lines, verdict)
            if verdict is None:
                return None
            if verdict:
                cuts.append(gap)
        cuts.append(len(words.texts))
        return [content[words.spans[a][0] : words.spans[b - 1][1]] for a, b in itertools.pairwise(cuts)]

    def _unmarked(self, content: str) -> str | None:
        """``content`` with the mark the template writes after its documents on their line (" ." after the
        last one) blanked out: the last document's last line is the same line whatever comes after it,
        and no piece of it is read as a document. None while that mark cannot be told from the last
        document's own."""
        words = Words.of(content)
        mark = len(words.texts) > 1 and self.gaps.template_mark(words)
        if not mark:
            return None if mark is None else content
        start, end = words.spans[-1]
        return content[:start] + " " * (end - start) + content[end:]

    def _between(self, earlier: str, later: str) -> bool | None:
        """True: a document ends between the two lines; False: one document goes on; None: not known."""
        first = self.lines.get(_key(earlier))
        second = self.lines.get(_key(later))
        if first is None or second is None:
            return None
        starts = START in second.before or (
            len(second.before) > 1 and (len(later) >= NAMING or _one_next(second.after))
        )
        ends = END in first.after or (
            len(first.after) > 1 and (len(earlier) >= NAMING or _one_next(first.before))
        )
        if starts or ends:
            return True
        together = second.before == {_key(earlier)} and first.after == {_key(later)}
        if together and len(first.regions & second.regions) >= TOGETHER:
            return False
        return None


def _first_known(first: bool | None, second: bool | None) -> bool | None:
    return second if first is None else first


def _one_next(neighbours: set[str]) -> bool:
    """A line always had the same line on one side, never a region's edge: a short line that came after
    several others yet always before the same one opens a document (a short title, "常见问题（FAQ）"), as a
    line a template or many documents write ("Note:") does not, being followed by several."""
    return len(neighbours) == 1 and not neighbours & {START, END}


def _lines(content: str) -> list[tuple[int, int, str]]:
    """The non-blank lines of ``content``: start, end and stripped text."""
    found = []
    at = 0
    for raw in content.split("\n"):
        stripped = raw.strip()
        if stripped:
            start = at + len(raw) - len(raw.lstrip())
            found.append((start, start + len(stripped), stripped))
        at += len(raw) + 1
    return found


def _key(text: str) -> str:
    return hashlib.blake2b(" ".join(text.split()).encode(), digest_size=12).hexdigest()
