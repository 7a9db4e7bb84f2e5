"""Documents the skeleton absorbed: items laid out as the documents slot's own, standing in the skeleton right
before the slot.

A document every request of a window retrieved (a memory file always loaded, a pinned page) is constant text
there, so it is learnt as skeleton, and a reading would miss it while reading the rest: a wrong reading, worse
than none. Such an item opens with a line laid out as every document's opening line (the same words before
the varying value and after it), and the slot opens a line of its own after it (or the line the slot's loop
writes before each item). A template holding one is not kept: its prompts are refused, never read short. What
stands between that line and the slot is not told apart, so a few-shot example laid out as the documents, at
the start of a line somewhere above a slot that opens a line, is refused too, unless it goes on with a line
the template writes after its documents (its own question's label, the answer's cue: a demonstration); one the
slot goes on a label's line after (``Context: {documents}``) is not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from ragpulse_assembly.learnt.matching import match_pieces
from ragpulse_assembly.learnt.template import SlotRole, Template
from ragpulse_assembly.learnt.tokens import MARK_CLOSE, MARK_OPEN

_LABEL: Final = re.compile(r"[^\W\d_][^:：\n]{0,30}[:：]")
"""A line's opening label: a word, at most about thirty characters up to a colon."""
_LEAST_OPENING: Final = 6
"""Characters of the documents' shared opening (a word and its mark at least): a lone mark or counter
opens lines of any kind."""


def absorbed_documents(template: Template, texts: Sequence[str]) -> bool:
    """The skeleton right before the first documents slot holds, within the slot's message, a line opening
    as the first document's item opens in every prompt of ``texts`` (the same words before and after a
    value that varies from prompt to prompt), and the slot follows that item with only its body and blank
    lines between (the line the template starts for the first item aside)."""
    found = _first_documents(template)
    if found is None:
        return False
    number, before = found
    message = before.rsplit(MARK_CLOSE, 1)[-1]
    head, _, started = message.rpartition("\n")
    loop = template.slots[number].loop
    if started.strip() and (loop is None or not "".join(loop.separator).endswith(started)):
        return False  # the slot goes on a line of the skeleton's own (a label), not one its loop writes
    openings = []
    for text in texts:
        spans = match_pieces(text, template.pieces)
        if spans is None:
            continue
        start, end = spans[number]
        lines = [line for line in text[start:end].splitlines() if line.strip()]
        if lines:
            openings.append((started + lines[0]).strip())
    lines = [line.strip() for line in head.splitlines()]
    asked = _lines_after(template, number)
    for index, line in enumerate(lines):
        if not openings or line in openings or not any(lines[index + 1 :]):
            continue
        if asked.intersection(lines[index + 1 :]) or _labels_written(asked, lines[index + 1 :]):
            continue  # a demonstration: it goes on with the lines the template writes after its documents
        laid_out = [*openings, line]
        prefix = _shared_start(laid_out)
        suffix = _shared_start([opening[::-1] for opening in laid_out])[::-1]
        if (
            len(prefix) >= _LEAST_OPENING
            and any(character.isalpha() for character in prefix)
            and min(len(opening) for opening in laid_out) > len(prefix) + len(suffix)
        ):
            return True
    return False


def _labels_written(asked: set[str], later: list[str]) -> bool:
    """Every line the template writes after its documents opens with a label ("Q: ", "A:"), and lines
    opening with each of those labels follow: a demonstration's own question and worked answer, whose
    values differ from the template's ("Q: Who was born first…?" where the template writes "Q: Answer the
    following question… {question}")."""
    labels = {_label(line) for line in asked}
    if not labels or None in labels:
        return False
    return labels <= {_label(line) for line in later}


def _label(line: str) -> str | None:
    found = _LABEL.match(line)
    return found.group() if found is not None else None


def _lines_after(template: Template, number: int) -> set[str]:
    """The worded lines of the skeleton after documents slot ``number`` (the question's label, the answer's
    cue): a few-shot demonstration above the slot writes them again after its own documents."""
    gaps = [index for index, piece in enumerate(template.pieces) if piece is None]
    after = "".join(piece for piece in template.pieces[gaps[number] + 1 :] if piece is not None)
    lines = (line.strip() for line in after.split(MARK_OPEN)[0].splitlines())
    return {line for line in lines if any(character.isalnum() for character in line)}


def _first_documents(template: Template) -> tuple[int, str] | None:
    """The first documents slot's number and the constant text right before it, when a constant is there."""
    previous: str | None = None
    number = 0
    for piece in template.pieces:
        if piece is not None:
            previous = piece
            continue
        if template.slots[number].role is SlotRole.DOCUMENTS:
            return (number, previous) if previous is not None else None
        previous = None
        number += 1
    return None


def _shared_start(texts: Sequence[str]) -> str:
    """The longest text every one of ``texts`` starts with."""
    shortest, longest = min(texts), max(texts)
    for index, character in enumerate(shortest):
        if character != longest[index]:
            return shortest[:index]
    return shortest
