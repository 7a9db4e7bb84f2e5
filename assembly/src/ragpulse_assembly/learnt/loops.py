"""Inside a documents slot, the template's loop: the text that repeats between its variable runs (the
separator, with its counter when it numbers the documents) and each document's own layout (a title before
the text, a fence around it), learnt from all the documents of the window at once.

The separator is looked for first where the template shows it: what ends the last document (the skeleton
after the slot) followed by what starts the first one (the skeleton before it), "»\\n[2] «" from "»" and
"[1] «". Else it is a run of marks every region repeats between its words (" | ", "\\n\\n---\\n\\n", a
message boundary). A separator of blanks only ("\\n\\n") is weak: a document's own blank lines look the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ragpulse_assembly.learnt.alignment import Constant, Gap, align, gap_texts
from ragpulse_assembly.learnt.matching import match_pieces
from ragpulse_assembly.learnt.shapes import Shape, shape_of
from ragpulse_assembly.learnt.tokens import (
    DIGITS,
    SENTENCE_END,
    Tokens,
    generalised,
    is_blank,
    is_marker,
    is_word,
    tokenize,
)

_EDGE_TOKENS: Final = 24
"""How far into the skeleton beside a slot a separator's parts are looked for."""
_MAX_ITEMS: Final = 400
"""Documents in one region beyond which a split is no reading (a separator that occurs in every line)."""
Pattern = tuple[str, ...]


@dataclass(frozen=True)
class ItemLayout:
    """One document's layout inside the loop: its constants and gaps, and which gaps hold the text."""

    pieces: tuple[str | None, ...]
    """Constant texts and ``None`` for each gap, in order; an item is read with the separator before it (the
    loop's sample for the first), so a layout may open with the separator's label ("### ", "Source: ")."""
    shapes: tuple[Shape, ...]
    text_from: int
    """The first gap (by gap index) of the document's text; gaps before it are metadata (a title)."""
    text_to: int
    """The last gap of the text; gaps after it are metadata (a link)."""


@dataclass(frozen=True)
class Loop:
    separator: Pattern
    """The generalised tokens between two documents."""
    weak: bool
    """Blanks only: a document's own blank lines look the same."""
    sample: str
    """The separator's text as it first occurred: what the first document is read after."""
    layout: ItemLayout | None
    """Each document's layout, when its documents have framing or metadata of their own."""


def find_loop(regions: Sequence[Tokens], before: Pattern, after: Pattern) -> Loop | None:
    """The loop of a slot whose contents across the window are ``regions``, between the skeleton's
    ``before`` and ``after`` tokens; None when no separator repeats."""
    generals = [tuple(generalised(token) for token in region.tokens) for region in regions]
    for separator in _candidates(generals, before, after):
        widened = _widened(generals, separator)
        items = _split_all(regions, generals, widened)
        if items is None:
            continue
        sample = next(before for before, _ in items if before)
        prefixed = [tokenize((before or sample) + item.text) for before, item in items]
        weak = all(is_blank(token) for token in widened)
        return Loop(widened, weak, sample, _layout(prefixed))
    return None


def documents(region: Tokens, loop: Loop) -> list[str] | None:
    """The documents' texts in one region, or None when the region does not split (the separator's counter
    breaks its sequence, as a numbered list inside a document does; a piece is empty) or a piece does not
    have the documents' layout."""
    general = tuple(generalised(token) for token in region.tokens)
    items = _split(region, general, loop.separator)
    if items is None:
        return None
    texts = []
    for before, item in items:
        if loop.layout is None:
            texts.append(item.text)
            continue
        prefixed = (before or loop.sample) + item.text
        spans = match_pieces(prefixed, loop.layout.pieces, [shape.fits for shape in loop.layout.shapes])
        if spans is None:
            return None
        texts.append(prefixed[spans[loop.layout.text_from][0] : spans[loop.layout.text_to][1]])
    return texts


def _candidates(generals: list[Pattern], before: Pattern, after: Pattern) -> list[Pattern]:
    """Separators to try, most telling first: those the skeleton shows around the slot, longest first;
    then runs of marks the regions repeat, those with a mark other than blanks first."""
    seen: set[Pattern] = set()
    shown: list[Pattern] = []
    head = [generalised(token) for token in after[:_EDGE_TOKENS]]
    tail = [generalised(token) for token in before[-_EDGE_TOKENS:]]
    for end_part in range(len(head) + 1):
        for start_part in range(len(tail) + 1):
            candidate = _trimmed(tuple(head[:end_part] + tail[len(tail) - start_part :]))
            if candidate and candidate not in seen and any(_find(g, candidate, 0) >= 0 for g in generals):
                seen.add(candidate)
                shown.append(candidate)
    shown.sort(key=len, reverse=True)
    runs: dict[Pattern, int] = {}
    for general in generals:
        for run in _mark_runs(general):
            runs[run] = runs.get(run, 0) + 1
    repeated = sorted(
        (run for run in runs if run not in seen),
        key=lambda run: (all(is_blank(token) for token in run), -runs[run], -len(run)),
    )
    return shown + repeated


def _mark_runs(general: Pattern) -> list[Pattern]:
    """Maximal runs of tokens that are neither words nor digits, between two words: where a template may
    join documents."""
    runs: list[Pattern] = []
    start = None
    for index, token in enumerate(general):
        mark = not is_word(token) and token != DIGITS
        if mark and start is None:
            start = index
        elif not mark and start is not None:
            if start > 0:
                runs.append(general[start:index])
            start = None
    return [trimmed for run in runs if (trimmed := _trimmed(run))]


def _trimmed(run: Pattern) -> Pattern:
    """A candidate separator without a sentence's last mark at its start (that mark is the document's), and
    none at all when it is what stands between two words of prose (" ", ". ", ", ")."""
    while run and run[0] in SENTENCE_END:
        run = run[1:]
    text = "".join(run)
    if "\n" not in text and text.strip() in {"", ".", ",", ";", ":", "!", "?", "-", "'", "’", "(", ")"}:
        return ()
    return run


def _widened(generals: list[Pattern], separator: Pattern) -> Pattern:
    """The separator grown over the tokens every occurrence shares on its left and right."""
    places = [(g, at) for g in generals for at in _occurrences(g, separator)]
    if not places:
        return separator
    left: list[str] = []
    while True:
        offset = len(left) + 1
        tokens = {g[at - offset] if at - offset >= 0 else None for g, at in places}
        token = tokens.pop() if len(tokens) == 1 else None
        if token is None or token in SENTENCE_END or is_word(token):
            break
        left.insert(0, token)
    right: list[str] = []
    while True:
        offset = len(separator) + len(right)
        tokens = {g[at + offset] if at + offset < len(g) else None for g, at in places}
        token = tokens.pop() if len(tokens) == 1 else None
        if token is None:
            break
        right.append(token)
    while right and (is_word(right[-1]) or (is_blank(right[-1]) and len(right) > 1 and is_word(right[-2]))):
        right.pop()
    return tuple(left) + separator + tuple(right)


def _find(general: Pattern, pattern: Pattern, start: int) -> int:
    """Where ``pattern`` first occurs in ``general`` at or after ``start``; -1 when it does not."""
    width = len(pattern)
    first = pattern[0]
    for index in range(start, len(general) - width + 1):
        if general[index] == first and general[index : index + width] == pattern:
            return index
    return -1


def _occurrences(general: Pattern, pattern: Pattern) -> list[int]:
    found = []
    at = _find(general, pattern, 0)
    while at >= 0 and len(found) <= _MAX_ITEMS:
        found.append(at)
        at = _find(general, pattern, at + len(pattern))
    return found


def _split(region: Tokens, general: Pattern, separator: Pattern) -> list[tuple[str, Tokens]] | None:
    """The region's pieces between separators, each with the separator text before it ("" for the first)."""
    places = _occurrences(general, separator)
    if len(places) > _MAX_ITEMS:
        return None
    counters = [i for i, token in enumerate(separator) if token == DIGITS]
    numbers = [[region.tokens[at + i] for at in places] for i in counters]
    if any(not _consecutive(values) for values in numbers):
        return None
    pieces = []
    start = 0
    before = ""
    for at in [*places, len(general)]:
        if not any(is_word(token) or token.isdigit() for token in region.tokens[start:at]):
            return None
        pieces.append((before, tokenize(region.span(start, at))))
        if at < len(general):
            before = region.span(at, at + len(separator))
        start = at + len(separator)
    return pieces


def _consecutive(values: list[str]) -> bool:
    """Counters that go up by one: a numbered list inside a document breaks them."""
    numbers = [int(value) for value in values]
    return all(b == a + 1 for a, b in zip(numbers, numbers[1:], strict=False))


def _split_all(
    regions: Sequence[Tokens], generals: list[Pattern], separator: Pattern
) -> list[tuple[str, Tokens]] | None:
    """Every region's documents, when the separator splits every region and repeats in one at least."""
    items: list[tuple[str, Tokens]] = []
    repeats = False
    for region, general in zip(regions, generals, strict=True):
        if not region.tokens:
            continue
        found = _split(region, general, separator)
        if found is None:
            return None
        repeats = repeats or len(found) > 1
        items.extend(found)
    return items if repeats else None


def _layout(items: list[Tokens]) -> ItemLayout | None:
    """The documents' own layout (a title line and a fence, metadata fields, or only the separator before
    them), learnt from every document of the window, each after its separator."""
    pieces = align(items, loops=False)
    gaps = [piece for piece in pieces if isinstance(piece, Gap)]
    if not gaps:
        return None
    lengths = [sum(end - start for start, end in gap.ranges) for gap in gaps]
    text = max(range(len(gaps)), key=lambda index: lengths[index])
    content = [index for index, gap in enumerate(gaps) if not _metadata(items, gap) or index == text]
    layout = tuple(piece.text if isinstance(piece, Constant) else None for piece in pieces)
    shapes = tuple(shape_of(gap_texts(items, gap)) for gap in gaps)
    return ItemLayout(layout, shapes, min(content), max(content))


def _metadata(items: list[Tokens], gap: Gap) -> bool:
    """A gap of short single-line values that are not questions: a title, a file name, a link, a score."""
    values = [item.span(start, end) for item, (start, end) in zip(items, gap.ranges, strict=True)]
    asking = sum(value.rstrip().endswith(("?", "？")) for value in values)
    return all(len(value) <= 300 and "\n" not in value.strip() for value in values) and asking * 2 < len(
        values
    )
