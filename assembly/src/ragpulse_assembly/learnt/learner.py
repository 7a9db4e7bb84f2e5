"""Templates learnt incrementally, per place a prompt is built (a service and the generating call's span
name), from the prompts no learnt template reads yet.

Each place keeps its learnt templates (a few, least recently used dropped first) and a pool of the prompts
none of them read. Once the pool holds enough, the newest prompt's cluster is learnt: the prompts sharing the
most tokens that occur once in each (ExAlg's equivalence classes: a template's own words occur once in every
prompt of it, a popular document's only in the prompts that retrieved it), and among groups of such tokens
the one that covers the most prompts, so a document that recurs in many requests stays a slot's content. A
router's two templates share few such tokens and come out as two templates. A changed prompt in a deploy fits
no learnt template: its prompts pool up and are learnt as a new version. Memory is bounded by the places kept,
the templates per place, the pool per place and the characters pooled in all.
"""

from __future__ import annotations

import logging
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from ragpulse_assembly.learnt.learning import learn
from ragpulse_assembly.learnt.recurrence import DocumentMemory
from ragpulse_assembly.learnt.skeleton_items import absorbed_documents
from ragpulse_assembly.learnt.template import Segmenter, Template, TemplateReading, read
from ragpulse_assembly.learnt.tokens import Tokens, flatten, tokenize
from ragpulse_assembly.model import Message
from ragpulse_assembly.settings import TemplateSettings

logger = logging.getLogger(__name__)
Place = tuple[str, str]
_SHARED_TOKENS: Final = 3
"""Tokens a cluster's prompts must share (once in each) with the newest one."""
_OWN_TOKENS: Final = 3
"""Once-only tokens a template's prompts share that another template's do not: its own instructions."""
_REST_PROMPTS: Final = 4
"""Prompts of another template the pool must hold before a cluster is narrowed for it."""
_OWN_CHARS: Final = 12
"""Characters of words (a phrase in a script written without blanks is one token) each side of a template
version's change holds in its own once-only tokens at least."""
_EDGE_PROMPTS: Final = 3
"""Distinct documents that open (or close) with one line before that line is taken for template text."""
_EDGE_WORDS: Final = 3
"""Words such a line holds at least (a title of a word or two may open several documents)."""


@dataclass(frozen=True)
class Lookup:
    """What the learnt templates make of one prompt."""

    reading: TemplateReading | None
    """The reading of the template that fits, if one does."""
    unlearnt: bool
    """No learnt template of the place fits the prompt yet (its first prompts, or a new version), or its
    documents are not told apart yet (they have not recurred enough)."""


@dataclass
class _Pooled:
    text: str
    tokens: Tokens
    question: str
    asked: tuple[str, ...]


@dataclass
class _PlaceState:
    templates: OrderedDict[str, Template] = field(default_factory=OrderedDict)
    pool: OrderedDict[str, _Pooled] = field(default_factory=OrderedDict)
    added: int = 0
    tried_at: int = -1


class TemplateLearner:
    """Learnt templates per place, read and extended one prompt at a time."""

    def __init__(self, settings: TemplateSettings, known: Iterable[Template] = ()) -> None:
        self._settings = settings
        self._places: OrderedDict[Place, _PlaceState] = OrderedDict()
        self._new: list[Template] = []
        self.learnt_count = 0
        """Templates learnt by this learner so far."""
        self._versions: dict[str, Template] = {}
        self._memories: OrderedDict[tuple[str, int], DocumentMemory] = OrderedDict()
        self._pooled_chars = 0
        for template in known:
            self._state((template.service, template.place)).templates[template.version] = template
            self._versions[template.version] = template

    def lookup(
        self,
        service: str,
        place: str,
        messages: Sequence[Message],
        question: str = "",
        asked: Sequence[str] = (),
    ) -> Lookup:
        """The reading of the learnt template that fits ``messages`` (the generating call's current turn);
        the prompt is pooled and may complete a new template when none fits. ``asked``: what the user wrote
        in the request, earlier turns included (a slot quoting it is never documents)."""
        text = flatten(messages)
        if text is None:
            return Lookup(None, False)
        state = self._state((service, place))
        reading = _best_reading(state, text, self._segmenter)
        if reading is not None:
            return Lookup(reading, reading.undivided)
        if len(text) > self._settings.max_prompt_chars:
            return Lookup(None, True)
        if text not in state.pool:
            state.pool[text] = _Pooled(text, tokenize(text), question, (question, *asked))
            self._pooled_chars += len(text)
            state.added += 1
            while len(state.pool) > self._settings.pool:
                self._unpool(state, next(iter(state.pool)))
            self._within_budget()
        if self._learn(service, place, state):
            reading = _best_reading(state, text, self._segmenter)
        return Lookup(reading, reading is None or reading.undivided)

    @property
    def pooled_chars(self) -> int:
        """Characters of the prompts held while no learnt template reads them (bounded by ``pool_chars``)."""
        return self._pooled_chars

    def templates(self, service: str, place: str) -> list[Template]:
        state = self._places.get((service, place))
        return list(state.templates.values()) if state is not None else []

    def known(self, version: str) -> Template | None:
        """A version this learner holds (learnt or loaded)."""
        return self._versions.get(version)

    def _segmenter(self, template: Template) -> Segmenter:
        """Splits an undivided slot of ``template`` by how its documents recur, learning from it first."""

        def segment(slot: int, content: str, readable: bool) -> list[str] | None:
            key = (template.version, slot)
            memory = self._memories.get(key)
            if memory is None:
                memory = self._memories[key] = DocumentMemory()
                while len(self._memories) > self._settings.max_places:
                    self._memories.popitem(last=False)
            if not readable:
                memory.note_twice(content)
                return None
            memory.observe(content)
            return memory.documents(content)

        return segment

    def take_new(self) -> list[Template]:
        """Templates learnt since the last call (to be stored)."""
        new, self._new = self._new, []
        return new

    def _state(self, place: Place) -> _PlaceState:
        state = self._places.get(place)
        if state is None:
            state = self._places[place] = _PlaceState()
            while len(self._places) > self._settings.max_places:
                _, dropped = self._places.popitem(last=False)
                for version in dropped.templates:
                    self._versions.pop(version, None)
                self._pooled_chars -= sum(len(text) for text in dropped.pool)
        else:
            self._places.move_to_end(place)
        return state

    def _unpool(self, state: _PlaceState, text: str) -> None:
        del state.pool[text]
        self._pooled_chars -= len(text)

    def _within_budget(self) -> None:
        """Unread prompts past ``pool_chars`` dropped, oldest first from the places least recently sent:
        a sender spraying many services or huge prompts cannot grow the learner, and a busy service keeps
        its own."""
        for state in self._places.values():
            while self._pooled_chars > self._settings.pool_chars and state.pool:
                self._unpool(state, next(iter(state.pool)))
            if self._pooled_chars <= self._settings.pool_chars:
                return

    def _learn(self, service: str, place: str, state: _PlaceState) -> bool:
        settings = self._settings
        if len(state.pool) < settings.min_prompts:
            return False
        if state.tried_at >= 0 and state.added - state.tried_at < max(1, settings.min_prompts // 2):
            return False
        state.tried_at = state.added
        members = _newest_version(_cluster(list(state.pool.values()), settings.min_prompts))
        members = members[-settings.window :]
        if len(members) < settings.min_prompts:
            return False
        template = learn(
            service,
            place,
            [m.tokens for m in members],
            [m.question for m in members],
            [m.asked for m in members],
        )
        if template is None:
            return False
        readings = [reading for m in members if (reading := read(template, m.text)) is not None]
        if len(readings) * 10 < len(members) * 9:
            logger.info("template of %s/%s learnt but reads back %d of %d prompts: not kept", service,
                        place, len(readings), len(members))  # fmt: skip
            return False
        if _edges_recur(readings):
            logger.info("template of %s/%s learnt but its documents open or close with the same line in"
                        " several prompts: another template's text, not kept", service, place)  # fmt: skip
            return False
        if absorbed_documents(template, [m.text for m in members]):
            logger.info("template of %s/%s learnt but its skeleton holds documents laid out as its documents"
                        " slot's, right before it: documents every prompt retrieved, not kept", service,
                        place)  # fmt: skip
            return False
        state.templates[template.version] = template
        self._versions[template.version] = template
        while len(state.templates) > settings.templates_per_place:
            dropped, _ = state.templates.popitem(last=False)
            self._versions.pop(dropped, None)
        for key in [key for key, pooled in state.pool.items() if read(template, pooled.text) is not None]:
            self._unpool(state, key)
        self._new.append(template)
        self.learnt_count += 1
        logger.info("learnt template %s of %s/%s from %d prompts", template.version, service, place,
                    len(members))  # fmt: skip
        return True


def _best_reading(
    state: _PlaceState, text: str, segmenter: Callable[[Template], Segmenter]
) -> TemplateReading | None:
    """The reading of the most general template that fits (fewest constant characters): a template learnt
    while a document recurred in every prompt of its window holds that document as skeleton, the general
    one does not."""
    found = []
    for version, template in list(state.templates.items()):
        reading = read(template, text, segmenter(template))
        if reading is not None:
            found.append((sum(len(piece or "") for piece in template.pieces), version, reading))
    if not found:
        return None
    _, version, reading = min(found, key=lambda item: (item[0], item[1]))
    state.templates.move_to_end(version)
    return reading


def _cluster(pool: list[_Pooled], least: int) -> list[_Pooled]:
    """The newest prompt and the prompts of its template: the most prompts that share a group of its
    once-only tokens (a message boundary is enough when every prompt of the place shares it); narrowed to a
    smaller such group when the prompts left out share many once-only tokens of their own (a router's other
    template), never for a document the smaller group alone holds."""
    seed = pool[-1]
    once = [_once_only(p) for p in pool]
    holders: dict[str, frozenset[int]] = {}
    for token in once[-1]:
        holders[token] = frozenset(index for index, tokens in enumerate(once) if token in tokens)
    everyone = frozenset(range(len(pool)))
    groups = [
        (members, size)
        for members, size in Counter(holders.values()).items()
        if size >= _SHARED_TOKENS or members == everyone
    ]
    candidates = [(members, size) for members, size in groups if len(members) >= least]
    if not candidates:
        return [seed]
    members, joined_by = max(candidates, key=lambda item: (len(item[0]), item[1]))
    # Prompts held together by fewer tokens than a template's own text (a message boundary alone) are not
    # one template where a part of them shares many words the rest lack and the rest share words of their
    # own: two templates, even while the rest are few (learning the mix gives a template of one slot that
    # reads every prompt, and nothing is learnt after it).
    rest_least = _REST_PROMPTS if joined_by >= _SHARED_TOKENS else 2
    narrower = [
        (inner, size)
        for inner, size in groups
        if inner < members
        and len(inner) > 1
        and size >= _OWN_TOKENS
        and _own_tokens(once, members - inner, inner, rest_least)
    ]
    if narrower:
        # Two templates: the newest prompt's own is learnt once it has prompts enough, not mixed before.
        members, _ = max(narrower, key=lambda item: (len(item[0]), item[1]))
    return [pool[index] for index in sorted(members)]


def _newest_version(members: list[_Pooled]) -> list[_Pooled]:
    """The members (in arrival order) from the newest template version on: where a run of earlier prompts
    shares once-only tokens no later one has and the later ones share once-only tokens no earlier one has,
    the template's own text changed once, from one constant to another (a deploy), and each side is a
    version learnt apart. A router's templates alternate and a popular document comes and goes, so neither
    holds its tokens in one unbroken run on each side of one point in time. One prompt alone has tokens of
    its own anyway (its documents'), so one prompt at either end set apart that was no other version (it
    lacks a document all the others hold) only delays learning: the window waits for more prompts."""
    count = len(members)
    holders: dict[str, list[int]] = {}
    for index, member in enumerate(members):
        for token in _once_only(member):
            holders.setdefault(token, []).append(index)
    earlier: Counter[int] = Counter()
    later: Counter[int] = Counter()
    for token, held in holders.items():
        unbroken = held[-1] - held[0] + 1 == len(held)
        worded = len(token) if any(character.isalnum() for character in token) else 0
        if unbroken and held[0] == 0 and len(held) < count:
            earlier[len(held)] += worded
        elif unbroken and held[-1] == count - 1 and held[0] > 0:
            later[held[0]] += worded
    boundaries = [at for at in range(1, count) if earlier[at] >= _OWN_CHARS and later[at] >= _OWN_CHARS]
    return members[max(boundaries) :] if boundaries else members


def _once_only(pooled: _Pooled) -> frozenset[str]:
    """The tokens that occur once in a pooled prompt: where a template's own words are told from its
    slots'."""
    return frozenset(token for token, count in Counter(pooled.tokens.tokens).items() if count == 1)


def _own_tokens(once: list[frozenset[str]], rest: frozenset[int], others: frozenset[int], least: int) -> bool:
    """The prompts of ``rest`` (``least`` of them at least) share many once-only tokens no prompt of
    ``others`` has."""
    if len(rest) < least:
        return False
    shared = frozenset.intersection(*(once[index] for index in rest))
    held = frozenset().union(*(once[index] for index in others))
    return len(shared - held) >= _OWN_TOKENS


def _edges_recur(readings: list[TemplateReading]) -> bool:
    """The first documents of several prompts open (or the last ones close) with the same line, though
    the documents differ: a window that mixed two templates (a router's, or a sender's prompts close to a
    service's) took one template's own text for a document; a popular document recurs whole instead."""
    for edge in (0, -1):
        documents_by_line: dict[str, set[str]] = {}
        for reading in readings:
            if not reading.chunks or reading.undivided:
                continue  # an undivided slot's content is several documents, told apart by recurrence
            document = reading.chunks[edge]
            lines = [line.strip() for line in document.splitlines() if line.strip()]
            if lines and len(lines[edge].split()) >= _EDGE_WORDS:
                documents_by_line.setdefault(lines[edge], set()).add(document)
        if any(len(documents) >= _EDGE_PROMPTS for documents in documents_by_line.values()):
            return True
    return False
