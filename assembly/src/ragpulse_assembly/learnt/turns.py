"""Documents given as conversation turns, told from chat history by the place's own traffic.

Some services put each retrieved document in a turn of its own before the question: a user turn per
document answered by the same short assistant turn, or a user turn asking for a result answered by an
assistant turn holding it. The learnt template reads the current turn only, where none of them stand.

Earlier exchanges (a user turn and the assistant turn after it) are the documents' turns when the place's
requests show two things. One side of every exchange is the template's: at each exchange's position it is
the same text in every request of the window (the user's question and digits aside: "Ok.", "Give me the
first result.", "What do experts say about {question}?"). The other side comes back across requests in other
company and order: a text seen at one position in one request and at another in a different request, as a
search returns a document again. Chat history shows neither: earlier answers differ from one conversation to
the next, and a conversation's earlier turns stay where they were as it grows.

Where both hold, the prompt is read with the template's side of each document exchange left out and the
other side marked as a document turn, without the lines the template writes before every document (tags
around a date and the source); the learnt template then reads the documents where they repeat, one a turn.
A turn the place's users asked as their question is an earlier question of a conversation (answered each time
by the same refusal, say), never a document.
"""

from __future__ import annotations

import re
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from ragpulse_assembly.model import Message, Role

_WINDOW: Final = 32
"""Requests of a place whose exchanges are remembered."""
_LEAST: Final = 8
"""Requests with earlier exchanges a place must show before its turns are taken for documents."""
_PLACES: Final = 2000
"""Places remembered, least recently used dropped."""
_MOST_EXCHANGES: Final = 64
"""Earlier exchanges of a prompt past which they are not looked at (memory stays bounded per place)."""
_ASKED: Final = 1000
"""Questions a place remembers its requests asked."""
_DIGITS: Final = re.compile(r"\d+")
_FRAME_LINES: Final = 12
"""Lines at most the template writes before each document of a turn."""
_QUESTION: Final = "\ue003"
"""Stands for the request's question inside a side's text (no prompt holds it: the flattened prompt refuses
private-use marks)."""
DOCUMENT_ROLE: Final = Role.OTHER
"""The role a document's turn is given: apart from the user's, so the question's turn stays the only one."""


@dataclass(frozen=True)
class Exchanges:
    """A prompt cut into its leading system messages, its earlier exchanges and the current turn."""

    head: tuple[Message, ...]
    pairs: tuple[tuple[Message, Message], ...]
    last: tuple[Message, ...]


@dataclass
class _Seen:
    sides: tuple[tuple[int, ...], tuple[int, ...]]
    """Per side (user, assistant), the hash of each exchange's text with the question and digits masked
    (compared only, so a place's memory stays small whatever its documents' length)."""
    openings: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    """Per side, each exchange's first lines so masked and hashed, its last line apart: where a frame the
    template writes before every document ends."""
    endings: tuple[tuple[int, ...], tuple[int, ...]]
    """Per side, each exchange's last line so masked and hashed: a document's own, which comes back with it
    whatever the frame around it says (a date, a score)."""


@dataclass
class _PlaceTurns:
    requests: deque[_Seen] = field(default_factory=lambda: deque(maxlen=_WINDOW))
    asked: OrderedDict[int, None] = field(default_factory=OrderedDict)
    """The questions the place's requests asked last (hashed as a side's text is)."""

    def ask(self, question: str) -> None:
        key = hash(_masked(question, ""))
        self.asked[key] = None
        self.asked.move_to_end(key)
        while len(self.asked) > _ASKED:
            self.asked.popitem(last=False)


@dataclass
class TurnEvidence:
    """Per place, the earlier exchanges of its recent requests."""

    places: OrderedDict[tuple[str, str], _PlaceTurns] = field(default_factory=OrderedDict)

    def documents_turn(self, service: str, place: str, messages: Sequence[Message]) -> list[Message] | None:
        """Notes the prompt's earlier exchanges; the prompt as the learnt template reads it when the place's
        traffic shows its exchanges to be documents' turns: each document exchange's template side left out,
        its other side marked as a document's turn, every other exchange kept. None otherwise."""
        found = exchanges(messages)
        if found is None:
            return None
        key = (service, place)
        place_turns = self.places.get(key)
        if place_turns is None:
            place_turns = self.places[key] = _PlaceTurns()
            while len(self.places) > _PLACES:
                self.places.popitem(last=False)
        else:
            self.places.move_to_end(key)
        seen = _seen(found)
        place_turns.requests.append(seen)
        place_turns.ask(found.last[0].text)
        window = list(place_turns.requests)
        side = _documents_side(window)
        if side is None or any(
            text in place_turns.asked for request in window for text in request.sides[side]
        ):
            # A turn the place's users asked as their question is an earlier question of a
            # conversation (answered by a canned reply), never a document.
            return None
        fixed = _constant(window, side)
        frame = _frame(window, side, fixed)
        turn = list(found.head)
        for index, pair in enumerate(found.pairs):
            if index in fixed:
                turn.extend(pair)  # the template's own exchange (a preamble), the same in every request
            else:
                lines = pair[side].text.strip().split("\n")
                turn.append(Message(DOCUMENT_ROLE, "\n".join(lines[frame:])))
        return [*turn, *found.last]


def exchanges(messages: Sequence[Message]) -> Exchanges | None:
    """The prompt's system messages first, then user and assistant turns alternating, the last user turn
    (and what follows it) the current one; None for any other layout, no earlier exchange or more than
    ``_MOST_EXCHANGES``."""
    start = 0
    while start < len(messages) and messages[start].role is Role.SYSTEM:
        start += 1
    users = [i for i in range(start, len(messages)) if messages[i].role is Role.USER]
    if not users or users[-1] == start:
        return None
    body = messages[start : users[-1]]
    if (
        len(body) % 2
        or len(body) > 2 * _MOST_EXCHANGES
        or any(
            message.role is not (Role.USER if index % 2 == 0 else Role.ASSISTANT)
            for index, message in enumerate(body)
        )
    ):
        return None
    pairs = tuple((body[i], body[i + 1]) for i in range(0, len(body), 2))
    return Exchanges(tuple(messages[:start]), pairs, tuple(messages[users[-1] :]))


def _masked(text: str, question: str) -> str:
    stripped = question.strip()
    if stripped:
        text = text.replace(stripped, _QUESTION)
    return _DIGITS.sub("#", text.strip())


def _seen(found: Exchanges) -> _Seen:
    question = found.last[0].text
    users = tuple(hash(_masked(pair[0].text, question)) for pair in found.pairs)
    assistants = tuple(hash(_masked(pair[1].text, question)) for pair in found.pairs)
    endings = tuple(
        tuple(hash(_masked(pair[side].text.strip().rsplit("\n", 1)[-1], question)) for pair in found.pairs)
        for side in (0, 1)
    )
    return _Seen(
        (users, assistants),
        (_openings(found, 0, question), _openings(found, 1, question)),
        (endings[0], endings[1]),
    )


def _openings(found: Exchanges, side: int, question: str) -> tuple[tuple[int, ...], ...]:
    openings = []
    for pair in found.pairs:
        lines = pair[side].text.strip().split("\n")[:-1]
        openings.append(tuple(hash(_masked(line, question)) for line in lines[:_FRAME_LINES]))
    return tuple(openings)


def _frame(requests: list[_Seen], side: int, fixed: set[int]) -> int:
    """The lines the template writes before every document of the window (tags, a label, a date, the
    source between them), up to the last one the same in every document: none where a document's first
    line is its own. A line after them is left to every document."""
    openings = [
        opening
        for seen in requests
        for index, opening in enumerate(seen.openings[side])
        if index not in fixed
    ]
    if not openings or len({opening[:1] for opening in openings}) != 1 or not openings[0]:
        return 0
    shortest = min(len(opening) for opening in openings)
    same = [at for at in range(shortest) if len({opening[at] for opening in openings}) == 1]
    return same[-1] + 1


def _documents_side(requests: list[_Seen]) -> int | None:
    """The side holding documents: the other is the template's at every position, and this one's texts
    come back at other positions; None for chat history (both sides vary) or a replayed conversation."""
    if len(requests) < _LEAST:
        return None
    framed = [side for side in (0, 1) if _by_position(requests, side)]
    if len(framed) != 1:
        return None
    side = 1 - framed[0]
    return side if _recur_elsewhere(requests, side) else None


def _by_position(requests: list[_Seen], side: int) -> bool:
    """Every request of the window writes the same text on ``side`` at each exchange position."""
    texts: dict[int, int] = {}
    return all(
        texts.setdefault(index, text) == text
        for seen in requests
        for index, text in enumerate(seen.sides[side])
    )


def _constant(requests: list[_Seen], side: int) -> set[int]:
    """The positions every request of the window has, with the same text on ``side``: the template's own
    exchanges (a preamble), not a document's."""
    texts: dict[int, set[int]] = {}
    for seen in requests:
        for index, text in enumerate(seen.sides[side]):
            texts.setdefault(index, set()).add(text)
    shortest = min(len(seen.sides[side]) for seen in requests)
    return {index for index, found in texts.items() if len(found) == 1 and index < shortest}


def _recur_elsewhere(requests: list[_Seen], side: int) -> bool:
    """A text of ``side`` (its last line) comes back in another request at another position: a document
    retrieved again in other company; a conversation's earlier turns stay at their positions."""
    where: dict[int, set[tuple[int, int]]] = {}
    for number, seen in enumerate(requests):
        for index, text in enumerate(seen.endings[side]):
            where.setdefault(text, set()).add((number, index))
    return any(
        len({number for number, _ in places}) > 1 and len({index for _, index in places}) > 1
        for places in where.values()
    )
