"""Documents the skeleton absorbed: items laid out as the documents slot's own, standing in the skeleton right
before the slot.

A document every request of a window retrieved (a memory file always loaded, a pinned page) is constant text
there, so it is learnt as skeleton, and a reading would miss it while reading the rest: a wrong reading, worse
than none. Such an item opens with a line laid out as every document's opening line (the same words before
the varying value and after it) and runs, with nothing of the template's between, up to the slot.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Final

from ragpulse_assembly.learnt.template import SlotRole, Template, TemplateReading
from ragpulse_assembly.learnt.tokens import MARK_CLOSE

_LEAST_OPENING: Final = 6
"""Characters of the documents' shared opening (a word and its mark at least): a lone mark or counter
opens lines of any kind."""


def absorbed_documents(template: Template, readings: Sequence[TemplateReading]) -> bool:
    """The skeleton right before the first documents slot holds, within the slot's message, a line opening
    as every document read opens (the same words before and after a value that varies from document to
    document) and the slot follows that item with only its body and blank lines between."""
    before = _text_before_documents(template)
    if before is None:
        return False
    openings = [
        lines[0]
        for reading in readings
        if (documents := reading.items or reading.chunks)
        and (lines := [line.strip() for line in documents[0].splitlines() if line.strip()])
    ]
    if not openings:
        return False
    message = before.rsplit(MARK_CLOSE, 1)[-1]
    if not message.rstrip(" \t").endswith("\n"):
        return False  # the slot goes on a line of the skeleton's: no item of its own opens it
    lines = [line.strip() for line in message.splitlines()]
    for index, line in enumerate(lines):
        if line in openings or not any(lines[index + 1 :]):
            continue
        laid_out = [*openings, line]
        prefix = os.path.commonprefix(laid_out)
        suffix = os.path.commonprefix([opening[::-1] for opening in laid_out])[::-1]
        if (
            len(prefix) >= _LEAST_OPENING
            and any(character.isalpha() for character in prefix)
            and min(len(opening) for opening in laid_out) > len(prefix) + len(suffix)
        ):
            return True
    return False


def _text_before_documents(template: Template) -> str | None:
    """The constant text right before the first documents slot, when a constant is there."""
    slots = iter(template.slots)
    previous: str | None = None
    for piece in template.pieces:
        if piece is not None:
            previous = piece
            continue
        if next(slots).role is SlotRole.DOCUMENTS:
            return previous
        previous = None
    return None
