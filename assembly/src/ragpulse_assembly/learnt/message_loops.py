"""A documents slot that spans several messages of one role, each holding several documents: an agent's
parallel tool calls, each result the documents of one search joined by the tool's separator.

No separator splits the whole slot, since a message boundary sits between some documents and the tool's
separator between the others; but no document crosses a message boundary. So each message's text is split
on its own by the loop its messages share, and the slot's documents are those of its messages in order. A
slot that crosses a message of another role (the model's own words between two results) is never read so:
what that message holds is no retrieved text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from ragpulse_assembly.learnt.loops import Loop, find_loop
from ragpulse_assembly.learnt.tokens import MARKER, tokenize

_MARKER: Final = re.compile(MARKER)


def opening_marker(opening: str) -> str:
    """The marker of the message a slot opens in: the last one of the skeleton's text before it."""
    found = _MARKER.findall(opening)
    return found[-1] if found else ""


def message_texts(content: str, marker: str) -> list[str] | None:
    """The text of each message ``content`` spans, in order (empty ones left out); None when a message
    boundary in it is of another role than ``marker``'s (the message the slot opens in)."""
    if not marker or any(found != marker for found in _MARKER.findall(content)):
        return None
    return [text for text in _MARKER.split(content) if text.strip()]


def message_loop(contents: Sequence[str], marker: str) -> Loop | None:
    """The loop that splits each message of a slot's ``contents`` (across the window) on its own, when the
    slot crosses messages of its own role only and one separator repeats inside them; None otherwise."""
    texts: list[str] = []
    for content in contents:
        found = message_texts(content, marker)
        if found is None:
            return None
        texts.extend(found)
    if len(texts) == len(contents):
        return None  # no content crosses a message: the slot's own loop was already looked for
    loop = find_loop([tokenize(text) for text in texts], (marker,), ())
    return None if loop is None else replace(loop, messages=True)
