"""A reading of pasted documents held against what the place's other requests showed (see
:mod:`ragpulse_assembly.learnt.consistency`): refused with the reason when they contradict it, held for more
traffic when too little was seen to tell; a refused one is held too, and read again once more was seen. And
held against the question the service recorded: no text of the user's is ever a document."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ragpulse_assembly.learnt.consistency import Finding, check
from ragpulse_assembly.model import Span, normalized
from ragpulse_assembly.prompt_context import current_turn
from ragpulse_assembly.readings import PastedReading, Readers, place


def checked(pasted: PastedReading, generator: Span, readers: Readers) -> PastedReading:
    """``pasted``, read from ``generator``'s prompt, as the place's requests let it stand. Only with learnt
    templates: the structure rules alone read each request by itself."""
    if readers.templates is None:
        return pasted
    turn = list(pasted.turn) or current_turn(generator.messages)
    evidence = readers.evidence.place(generator.service_name, place(generator.name, turn))
    found = check(
        evidence, [message.text for message in turn], pasted.chunks, pasted.question, not pasted.pending
    )
    if found.finding is Finding.CONSISTENT:
        return pasted
    if found.finding is Finding.UNCONFIRMED:
        return replace(pasted, pending=True)
    # Held like a reading too little is known of: more traffic may show the documents apart after all.
    return replace(pasted, chunks=(), not_separable=False, disagreement=found.reason, pending=True)


_QUOTED_CHARS: Final = 20
"""Characters a document holds before it is looked for in the question (not "Yes." inside a longer one)."""


def outside_question(pasted: PastedReading, recorded_question: str) -> PastedReading:
    """``pasted`` unless a document it read is text of the question the service recorded: the user's
    words are never context, however they are laid out (a question may hold a separator, a label and text
    written like the template's documents, to be read as one). A question of one line may be asked in a
    document's own words (an FAQ entry), so only one of several lines marks a document as the question's."""
    asked = normalized(recorded_question)
    lines = recorded_question.strip().splitlines()
    pieces = (
        [piece for line in lines if len(piece := normalized(line)) >= _QUOTED_CHARS] if len(lines) > 1 else []
    )
    quoted = next(
        (
            chunk
            for chunk in pasted.chunks
            if (len(text := normalized(chunk)) >= _QUOTED_CHARS and text in asked)
            or any(piece in text for piece in pieces)
        ),
        None,
    )
    if quoted is None:
        return pasted
    return replace(
        pasted,
        chunks=(),
        not_separable=False,
        disagreement=f"document «{normalized(quoted)[:60]}…» holds text of the question the service recorded:"
        " the user's words are never context, and a question holding text laid out like the documents"
        " cannot be told from them",
    )
