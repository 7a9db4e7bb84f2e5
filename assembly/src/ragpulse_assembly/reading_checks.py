"""A reading of pasted documents held against what the place's other requests showed (see
:mod:`ragpulse_assembly.learnt.consistency`): refused with the reason when they contradict it, held for more
traffic when too little was seen to tell; a refused one is held too, and read again once more was seen."""

from __future__ import annotations

from dataclasses import replace

from ragpulse_assembly.learnt.consistency import Finding, check
from ragpulse_assembly.model import Span
from ragpulse_assembly.prompt_context import current_turn
from ragpulse_assembly.readings import PastedReading, Readers, place


def checked(pasted: PastedReading, generator: Span, readers: Readers) -> PastedReading:
    """``pasted``, read from ``generator``'s prompt, as the place's requests let it stand. Only with learnt
    templates: the structure rules alone read each request by itself."""
    if readers.templates is None:
        return pasted
    turn = current_turn(generator.messages)
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
