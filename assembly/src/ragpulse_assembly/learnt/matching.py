"""A text read against a learnt skeleton: its constants found in order, in exactly one way.

A constant that also occurs inside a slot's content (a document quoting the template's "Question:" label)
can make two placements fit; then the text is not read rather than read one way at a guess, unless what a
slot may hold (learnt from the window: one line, no message boundary) leaves only one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

_MAX_PLACES: Final = 64
"""Occurrences of one constant considered; beyond this the text is not read."""
Fits = Callable[[str], bool]


def match_pieces(
    text: str, pieces: Sequence[str | None], fits: Sequence[Fits] | None = None
) -> list[tuple[int, int]] | None:
    """The character span of each gap (``None`` in ``pieces``, in order) when the constants occur in order
    in exactly one way; when in several, the one way (if one) that every gap's ``fits`` accepts; else
    None."""
    spans = _match(text, pieces, None)
    if spans is None and fits is not None:
        spans = _match(text, pieces, fits)
    return spans


def _match(
    text: str, pieces: Sequence[str | None], fits: Sequence[Fits] | None
) -> list[tuple[int, int]] | None:
    constants = [index for index, piece in enumerate(pieces) if piece is not None]
    gap_numbers: dict[int, int] = {}
    for index, piece in enumerate(pieces):
        if piece is None:
            gap_numbers[index] = len(gap_numbers)
    places: list[list[int]] = []
    for index in constants:
        constant = pieces[index]
        assert constant is not None
        if index == 0 or index == len(pieces) - 1:
            # The first and last constants are where the text starts and ends, wherever else they occur.
            at = 0 if index == 0 else len(text) - len(constant)
            found = [at] if at >= 0 and text.startswith(constant, at) else []
            if index == 0 and index == len(pieces) - 1 and at + len(constant) != len(text):
                found = []
        else:
            places_found = _places(text, constant)
            if places_found is None:
                return None
            found = places_found
        if not found:
            return None
        places.append(found)
    solutions: list[list[int]] = []

    def gap_fits(piece_index: int, start: int, end: int) -> bool:
        if fits is None:
            return True
        return fits[gap_numbers[piece_index]](text[start:end])

    def walk(position: int, end: int, chosen: list[int]) -> None:
        if len(solutions) > 1:
            return
        if position == len(constants):
            last = constants[-1] if constants else -1
            if last < len(pieces) - 1 and not gap_fits(len(pieces) - 1, end, len(text)):
                return
            solutions.append(list(chosen))
            return
        index = constants[position]
        constant = pieces[index]
        assert constant is not None
        for at in places[position]:
            if at < end:
                continue
            if index > 0 and pieces[index - 1] is None and not gap_fits(index - 1, end, at):
                continue
            if index > 0 and pieces[index - 1] is not None and at != end:
                continue
            chosen.append(at)
            walk(position + 1, at + len(constant), chosen)
            chosen.pop()

    walk(0, 0, [])
    if len(solutions) != 1:
        return None
    return _gap_spans(text, pieces, constants, solutions[0])


def _places(text: str, constant: str) -> list[int] | None:
    found = []
    at = text.find(constant)
    while at >= 0:
        found.append(at)
        if len(found) > _MAX_PLACES:
            return None
        at = text.find(constant, at + 1)
    return found


def _gap_spans(
    text: str, pieces: Sequence[str | None], constants: list[int], starts: list[int]
) -> list[tuple[int, int]]:
    bounds = {index: (at, at + len(pieces[index] or "")) for index, at in zip(constants, starts, strict=True)}
    spans = []
    for index, piece in enumerate(pieces):
        if piece is None:
            start = bounds[index - 1][1] if index > 0 else 0
            end = bounds[index + 1][0] if index + 1 < len(pieces) else len(text)
            spans.append((start, end))
    return spans
