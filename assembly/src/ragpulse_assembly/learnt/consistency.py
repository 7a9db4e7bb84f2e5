"""Whether one request's reading of its pasted documents agrees with what the place's other requests showed.

A reading can be wrong in a way no single prompt shows, yet many prompts of one place do:

- A document holds a line of words that every prompt of the place holds: the template's own words (an
  instruction, a heading), never context, however a reader split the prompt. A popular document (an FAQ entry
  retrieved for most questions) is missing from some prompts, and a line of marks ("-----") is no words.
- Two documents always come together, the one right after the other, and never apart: a search returns its
  documents in other company and order from request to request, so these are one document its reader cut in
  two (its own text holds the template's separator line). Once a place showed that, two documents not yet
  seen apart may be one as well: refused too.
- Two documents, one a short line, always come in the same requests, wherever they stand: a document and a
  line the template writes for it (a reference list's entry, a source) read as two.
- A document holds a sentence right after one that, in the documents readings let stand, it never follows
  (or its first sentence after another, where it opened a document): the ends of two documents joined.
- A document read as the only one of its prompt holds another such document whole, lies in one, or holds a
  sentence that followed another sentence in one: the place's documents slot holds several documents at
  times with nothing to split them at (run together in one paragraph), and no reading of it is the context.
- A document that stands between the quotes of a JSON string in the prompt and still holds its escapes
  (``\\n``): read without decoding, it is not the text the model read.
- A document's text after its first sentence was seen before with a first sentence that differs only in
  its first characters: the reading kept a label the template writes before each document (an id, a date).
- Text after the first document that another request read as (part of) a document is neither a document nor
  the question in this reading: the reading lost a document, or read one in part.
- Too little seen to tell (two documents seen only together, a lone document never seen before): the request
  waits for more traffic, as a prompt whose template is not learnt yet does, and is read as it is after.

Memory is bounded: places kept, and per place the prompts, lines and documents remembered (hashed).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from ragpulse_assembly.learnt.tokens import is_unspaced
from ragpulse_assembly.model import normalized

_PROMPTS: Final = 8
"""Distinct prompts of a place before a line held by all of them is taken for the template's."""
_TOGETHER: Final = 3
"""Requests in which two documents came only together, one after the other, before they are one document:
two searches that returned the same two documents in the same order are no evidence."""
_KEPT: Final = 4_000
"""Prompts, lines, documents, sentences and readings remembered per place: the memory stops growing there
(what is not remembered is never evidence against a reading)."""
_PLACES: Final = 512
"""Places remembered, least recently read dropped first."""
_HOLDERS: Final = 8
"""Documents remembered per sentence: enough to find the few a document may lie in or hold."""
_PART_CHARS: Final = 20
"""Characters a document holds before it is compared whole with others (not "Yes." inside a longer one)."""
_LABEL_CHARS: Final = 60
"""Characters of a one-line document that may be a line the template writes for another (a reference)."""
_OPENING_CHARS: Final = 300
"""Characters of a first sentence remembered to compare with others (a label and a sentence)."""
_SHOWN: Final = 50
"""Characters of a document a reason quotes."""
_SENTENCE_END: Final = re.compile(r"(?<=[.!?;。！？；।؟۔])\s*")
_LEADING_LABEL: Final = re.compile(r"^[^\s:]{1,24}:\s*")
_REFERENCE: Final = re.compile(r"[/\\]|\w\.\w")
_MARKUP: Final = re.compile(r"<[^<>]{0,80}>")
_VALUE: Final = re.compile(r"\d[\d\s.,:/+\-]*")
"""A number, a date, an id or a score: digits and their separators."""
_WORD: Final = re.compile(r"\w+")
_OPENING_MARKS: Final = re.compile(r"[^\w\s]{1,3}+[^\S\n]?+")
"""A few marks and a space opening a document's text: a quote, a bullet."""
_NUMBERED_OPENING: Final = re.compile(r"([^\d\n]{0,24}?)(\d{1,3})(?!\d)")
"""A document's opening words, on its first line, up to the first number."""
_BULLETS: Final = frozenset("-*+•·‣◦▪")
"""Marks a list writes before each item."""
_ITEM_MARKS: Final = _BULLETS | {">"}
"""Marks a template writes, with a blank after them, before each document of a list or a quote."""
_LABEL_WORDS: Final = 3
"""Words a label before a restated question may have ("Northgate policy:")."""
_RESTATED: Final = 0.7
"""Share of the question's words a restated question keeps (a search query drops a few)."""
_BETWEEN_LABEL: Final = 8
"""Characters between a label and its document, at most (" 2:\n", " [12]:")."""
_LINES_ABOVE: Final = 3
"""Lines looked at above a document for the heading of its section (a blank line may stand between)."""
_STATEMENT_ENDS: Final = frozenset(".!?。！？")
"""Marks a sentence ends with, which a heading has none of."""
_READ: Final = "\x00"
_EDGE: Final = b"\x00edge"


class Finding(StrEnum):
    CONSISTENT = "consistent"
    UNCONFIRMED = "unconfirmed"
    """Too little seen to tell: wait for more traffic."""
    REFUSED = "refused"


@dataclass(frozen=True)
class Check:
    finding: Finding
    reason: str = ""


@dataclass
class _Document:
    companions: frozenset[bytes]
    """The documents every reading that held this one held too."""
    before: set[bytes] = field(default_factory=set)
    after: set[bytes] = field(default_factory=set)
    readings: int = 0
    settled_before: set[bytes] = field(default_factory=set)
    settled_after: set[bytes] = field(default_factory=set)
    settled: int = 0
    """The same as seen by settled readings alone (their templates learnt): an unsettled one (another
    reader's) may cut a document elsewhere, its first part read last with the rest dropped, and seem to show
    the parts apart."""


@dataclass
class PlaceEvidence:
    """What one place's prompts and readings showed across requests."""

    prompts: set[bytes] = field(default_factory=set)
    lines: dict[bytes, int] = field(default_factory=dict)
    """Per line (whitespace collapsed), the distinct prompts that held it."""
    readings: set[bytes] = field(default_factory=set)
    settled_readings: set[bytes] = field(default_factory=set)
    documents: dict[bytes, _Document] = field(default_factory=dict)
    pieces: dict[bytes, set[bytes]] = field(default_factory=dict)
    """Per sentence of a document of a reading let stand, the documents that held it (a few)."""
    alone: dict[bytes, frozenset[bytes]] = field(default_factory=dict)
    """Documents read as the only one of their prompt, with their sentences."""
    alone_pieces: dict[bytes, set[bytes]] = field(default_factory=dict)
    """Per sentence of such a document, the documents that held it (a few)."""
    preceding: dict[bytes, set[bytes]] = field(default_factory=dict)
    """Per sentence of such a document or of a reading let stand, the sentences seen right before it (two at
    most; a document's start stands before its first)."""
    openings: dict[bytes, set[str]] = field(default_factory=dict)
    """Per document's text after its first sentence, the first sentences it was seen with (two at most)."""
    places: dict[bytes, set[str]] = field(default_factory=dict)
    """Per line of a document read among several, where in the reading its document stood (first, last, in
    between): template text read as a document stands where the template writes it, a popular document
    wherever the search ranked it."""
    cuts: set[tuple[bytes, bytes]] = field(default_factory=set)
    """Pairs of documents that came only together often enough to be one: while one still has, the place's
    readings are known to split documents, and two not yet seen apart may be one too."""

    def observe_prompt(self, prompt: str) -> None:
        if len(self.prompts) >= _KEPT:
            return
        # The prompt's lines, whitespace collapsed and joined by a blank, are the prompt whitespace collapsed
        # (every line break is whitespace): one pass over the prompt gives its key and its lines'.
        lines = _lines(prompt)
        key = _digest(" ".join(lines))
        if key in self.prompts:
            return
        self.prompts.add(key)
        for line in {_digest(line) for line in lines}:
            if line in self.lines:
                self.lines[line] += 1
            elif len(self.lines) < _KEPT:
                self.lines[line] = 1

    def observe_places(self, documents: tuple[str, ...]) -> None:
        if len(documents) < 2:
            return
        for at, document in enumerate(documents):
            place = "first" if at == 0 else "last" if at == len(documents) - 1 else "between"
            for line in _lines(document):
                key = _key(line)
                seen = self.places.get(key)
                if seen is None and len(self.places) < _KEPT:
                    self.places[key] = {place}
                elif seen is not None:
                    seen.add(place)

    def constant_line(self, document: str) -> str | None:
        """A line of words in ``document`` that every prompt of the place holds (enough of them seen), and
        that readings found in one place only among the documents: a document every search returned (a
        popular FAQ entry) was found first in some readings and later in others."""
        if len(self.prompts) < _PROMPTS:
            return None
        return next(
            (
                line
                for line in _lines(document)
                if self.lines.get(key := _key(line), 0) >= len(self.prompts)
                and sum(c.isalpha() for c in line) > 1
                and len(self.places.get(key, ())) < 2
            ),
            None,
        )

    def left_over(self, messages: list[str], documents: tuple[str, ...], question: str) -> str | None:
        """A sentence of ``messages``, after the first of ``documents`` and within its message, that is in
        neither a document nor the question here, but was in a document another reading let stand."""
        holder = next((message for message in messages if documents[0] in message), None)
        if holder is None:
            return None
        text = holder[holder.index(documents[0]) :]
        for read in sorted((*documents, question), key=len, reverse=True):
            written = next((form for form in _written(read) if form in text), None)
            if written is not None:
                text = text.replace(written, _READ)
            elif read in documents:
                return None  # a document not written as read (quoted another way): nothing to tell
        for stretch in text.split(_READ):
            for piece in _sentences(stretch):
                if len(piece) >= _PART_CHARS and _key(piece) in self.pieces:
                    return piece
        return None

    def joined(self, document: str, shortest: int = _PART_CHARS) -> bool:
        """A sentence of ``document`` (of ``shortest`` characters or more) came right after another sentence
        in a document a reading let stand: ``document`` joins the ends of two documents (run together, or
        split where a document's own paragraph breaks)."""
        pairs = _pairs(document, shortest)
        return any(self.preceding.get(sentence, {before}) - {before} for before, sentence in pairs)

    def part(self, document: str) -> str | None:
        """How a lone ``document`` relates to other lone documents of the place: it holds one whole, lies in
        one, or holds a sentence that came right after another sentence there (a document's sentences
        always follow the same ones: documents joined in other combinations)."""
        if len(normalized(document)) < _PART_CHARS:
            return None
        if self.joined(document, shortest=1):
            return "joins sentences that follow others in"
        key, pieces = _key(document), _pieces(document)
        for piece in pieces:
            for other in self.alone_pieces.get(piece, ()):
                theirs = self.alone.get(other)
                if other == key or theirs is None:
                    continue
                if theirs <= pieces:
                    return "holds whole"
                if pieces <= theirs:
                    return "lies whole in"
        return None

    def observe_reading(self, documents: tuple[str, ...], settled: bool = True) -> bool:
        """Remembers which documents came next to which (in settled readings apart too); False when this
        reading was seen before."""
        keys = [_key(document) for document in documents]
        reading = hashlib.blake2b(b"".join(keys), digest_size=8).digest()
        new = reading not in self.readings and len(self.readings) < _KEPT
        kept = len(self.settled_readings) < _KEPT
        newly_settled = settled and kept and reading not in self.settled_readings
        if new:
            self.readings.add(reading)
        if newly_settled:
            self.settled_readings.add(reading)
        for index, key in enumerate(keys):
            found = self.documents.get(key)
            if found is None:
                if len(self.documents) >= _KEPT or not new:
                    continue
                found = self.documents[key] = _Document(frozenset(keys))
            before = keys[index - 1] if index else _EDGE
            after = keys[index + 1] if index + 1 < len(keys) else _EDGE
            if new:
                found.companions &= frozenset(keys)
                found.readings += 1
                found.before.add(before)
                found.after.add(after)
            if newly_settled:
                found.settled += 1
                found.settled_before.add(before)
                found.settled_after.add(after)
        return new

    def observe_alone(self, document: str) -> None:
        """A lone document's sentences and which came right before which: what the prompt holds, whatever
        is made of the reading."""
        key, pieces = _key(document), _pieces(document)
        if len(self.alone) < _KEPT:
            self.alone[key] = pieces
            for piece in pieces:
                _hold(self.alone_pieces, piece, key)
        for before, sentence in _pairs(document):
            _hold(self.preceding, sentence, before, most=2)

    def observe_openings(self, documents: tuple[str, ...]) -> None:
        """Each document's first sentence, by the rest of its text."""
        for document in documents:
            opening, rest = _opening(document)
            if rest and len(opening) <= _OPENING_CHARS:
                found = self.openings.get(_key(rest))
                if found is None and len(self.openings) < _KEPT:
                    found = self.openings[_key(rest)] = set()
                if found is not None and len(found) < 2:
                    found.add(opening)

    def labelled(self, document: str) -> str | None:
        """Another opening ``document``'s text was seen with that differs only in its first characters (an
        id, a date, a score): the reading kept a label the template writes before the document."""
        opening, rest = _opening(document)
        if not rest:
            return None
        for other in self.openings.get(_key(rest), ()):
            shared = _shared_ending(opening, other)
            if (
                other != opening
                and shared >= _PART_CHARS
                and max(len(opening), len(other)) - shared <= _LABEL_CHARS
            ):
                return other
        return None

    def remember(self, documents: tuple[str, ...]) -> None:
        """The sentences of a reading let stand, and which came right before which, so later readings can be
        held against them."""
        for document in documents:
            for before, sentence in _pairs(document, edge=True):
                _hold(self.preceding, sentence, before, most=2)
            key = _key(document)
            for piece in _pieces(document):
                _hold(self.pieces, piece, key)

    def companions(self, documents: tuple[str, ...]) -> Check | None:
        """Two documents of ``documents``, one of them a short line, that every reading holding either held
        both: a document and a line the template writes for it (a reference, a source) read as two, once
        seen often enough; too few times to tell otherwise."""
        keys = [_key(document) for document in documents]
        found: Check | None = None
        for (one, first), (other, second) in itertools.combinations(zip(keys, documents, strict=True), 2):
            if not (_label_like(first) or _label_like(second)):
                continue  # two documents of a small pool may well come together every time
            mine, theirs = self.documents.get(one), self.documents.get(other)
            if mine is None or theirs is None or other not in mine.companions or one not in theirs.companions:
                continue
            if mine.readings >= _TOGETHER:
                self.cuts.add((one, other))
                return Check(
                    Finding.REFUSED,
                    f"documents {_quoted(first)} and {_quoted(second)} came in the same {mine.readings}"
                    " requests and never apart: parts of one document (a document and a line the template"
                    " writes for it, a reference or a source)",
                )
            if self._cut():
                return Check(
                    Finding.REFUSED,
                    f"documents {_quoted(first)} and {_quoted(second)} were never seen apart, and others of"
                    " the place came only together: perhaps parts of one document",
                )
            found = Check(Finding.UNCONFIRMED)
        return found

    def _cut(self) -> bool:
        """A pair of documents still only ever seen together (pairs since seen apart are forgotten)."""
        for pair in list(self.cuts):
            one, other = self.documents.get(pair[0]), self.documents.get(pair[1])
            if (
                one is not None
                and other is not None
                and pair[1] in one.companions
                and pair[0] in other.companions
            ):
                return True
            self.cuts.discard(pair)
        return False

    def adjacency(self, documents: tuple[str, ...]) -> Check:
        """Whether two neighbours of ``documents`` only ever came together (after :meth:`observe_reading`)."""
        unconfirmed = False
        for first, second in itertools.pairwise(documents):
            one, other = self.documents.get(_key(first)), self.documents.get(_key(second))
            if one is None or other is None:
                continue
            seen = one.after == {_key(second)} and other.before == {_key(first)}
            settled = one.settled_after == {_key(second)} and other.settled_before == {_key(first)}
            if not seen and not settled:
                continue
            if (seen and one.readings >= _TOGETHER) or (settled and one.settled >= _TOGETHER):
                self.cuts.add((_key(first), _key(second)))
                return Check(
                    Finding.REFUSED,
                    f"documents {_quoted(first)} and {_quoted(second)} came together, the one right after the"
                    f" other, in {one.readings} requests and never apart: one document read as two (its own"
                    " text holds the separator)",
                )
            if self._cut():
                return Check(
                    Finding.REFUSED,
                    f"documents {_quoted(first)} and {_quoted(second)} were never seen apart, and others of"
                    " the place came only together: perhaps one document read as two",
                )
            unconfirmed = True
        companions = self.companions(documents)
        if companions is not None:
            return companions
        lone = self.documents.get(_key(documents[0])) if len(documents) == 1 else None
        if lone is not None and lone.readings <= 1:
            # A lone document never seen before may be several run together: wait for others alone.
            unconfirmed = True
        return Check(Finding.UNCONFIRMED) if unconfirmed else Check(Finding.CONSISTENT)


@dataclass
class Evidence:
    """Per place (a service and where its prompt is built), what its requests showed."""

    places: OrderedDict[tuple[str, str], PlaceEvidence] = field(default_factory=OrderedDict)

    def place(self, service: str, place: str) -> PlaceEvidence:
        key = (service, place)
        found = self.places.get(key)
        if found is None:
            found = self.places[key] = PlaceEvidence()
            while len(self.places) > _PLACES:
                self.places.popitem(last=False)
        else:
            self.places.move_to_end(key)
        return found


def check(
    evidence: PlaceEvidence,
    messages: list[str],
    documents: tuple[str, ...],
    question: str = "",
    settled: bool = True,
) -> Check:
    """``documents`` and ``question`` read from the prompt's ``messages`` checked against the place's other
    requests (all remembered). A reading not ``settled`` (its template not learnt yet) is held against the
    others, but later readings are not held against its documents."""
    evidence.observe_prompt("\n".join(messages))
    evidence.observe_places(documents)
    if not documents:
        return Check(Finding.CONSISTENT)
    found = _refusal(evidence, messages, documents, question)
    if found is None:
        # A refused reading's documents are not the place's documents: two of them seen apart there says
        # nothing of whether they ever come apart.
        evidence.observe_reading(documents, settled)
        found = evidence.adjacency(documents)
    if settled:
        evidence.observe_openings(documents)
    if settled and len(documents) == 1:
        evidence.observe_alone(documents[0])
    if settled and found.finding is not Finding.REFUSED:
        evidence.remember(documents)
    return found


def _refusal(
    evidence: PlaceEvidence, messages: list[str], documents: tuple[str, ...], question: str
) -> Check | None:
    for no_document, why in _NO_DOCUMENT:
        found = next((document for document in documents if no_document(document, question)), None)
        if found is not None:
            return Check(Finding.REFUSED, f"document {_quoted(found)} {why}")
    constant = next((line for document in documents if (line := evidence.constant_line(document))), None)
    if constant is not None:
        return Check(
            Finding.REFUSED,
            f"a document read holds {_quoted(constant)}, a line every prompt of the place holds: the"
            " template's own words, not context",
        )
    for no_reading, why in _NO_READING:
        shown = no_reading(messages, documents)
        if shown is not None:
            return Check(Finding.REFUSED, why.format(_quoted(shown)))
    escaped = next((document for document in documents if _still_escaped(messages, document)), None)
    if escaped is not None:
        return Check(
            Finding.REFUSED,
            f"document {_quoted(escaped)} is a quoted string of the prompt (JSON, a Python repr) read with"
            " its escapes: its text is not what the model read",
        )
    if len(documents) == 1 and (relation := evidence.part(documents[0])) is not None:
        return Check(
            Finding.REFUSED,
            f"the only document read, {_quoted(documents[0])}, {relation} another prompt's only document:"
            " the place's documents slot holds several documents at times, with nothing to split them at",
        )
    labelled = next(((d, other) for d in documents if (other := evidence.labelled(d)) is not None), None)
    if labelled is not None:
        return Check(
            Finding.REFUSED,
            f"document {_quoted(labelled[0])} opens as another request's did, {_quoted(labelled[1])}, but for"
            " its first characters: a label the template writes (an id, a date) read as the document's",
        )
    joined = next((document for document in documents if evidence.joined(document)), None)
    if joined is not None:
        return Check(
            Finding.REFUSED,
            f"document {_quoted(joined)} holds a sentence after one it never follows in the documents other"
            " requests read: the ends of two documents joined",
        )
    left = evidence.left_over(messages, documents, question)
    if left is not None:
        return Check(
            Finding.REFUSED,
            f"the reading left {_quoted(left)} out, text another request read in a document, here neither a"
            " document nor the question: a document lost, or one read in part",
        )
    return None


def _wordless(document: str, question: str) -> bool:
    """No letter and no digit: a rule or a mark (``question`` is for the table's common signature)."""
    return not any(character.isalnum() for character in document)


def _tags_only(document: str, question: str) -> bool:
    """Tags and nothing else ("</FACTS> <NOTES>"): where one tagged list ends and the next begins."""
    return "<" in document and not any(character.isalnum() for character in _MARKUP.sub("", document))


def _marks_of_the_template(messages: list[str], documents: tuple[str, ...]) -> str | None:
    """The marks (no letter, no digit: "> ", "- ", "• ") every document but the first opens with, when the
    first does not and the prompt writes them right before it: the template writes them before each
    document, and the reading kept them on all but the first."""
    if len(documents) < 2:
        return None
    found = _OPENING_MARKS.match(documents[1])
    marks = found.group() if found else ""
    if not marks.strip() or documents[0].startswith(marks.strip()):
        return None
    if not all(document.startswith(marks) for document in documents[2:]):
        return None
    first = documents[0].strip()
    return marks if any(_written_before(message, marks, first) for message in messages) else None


def _sections_of_the_template(messages: list[str], documents: tuple[str, ...]) -> str | None:
    """Marks of two or more characters ("===", "##") that open the prompt's line right before the first
    document (or a line above it) and a line of words in a document (but the first's own start), where
    some document has no such line above it: the template opens each of its sections (tables, notes) with
    them, and the reading took a section's heading for a document or a part of one. A template that heads
    every document so ("## Source 2: …") leaves the documents' own headings theirs."""
    standing = _standing(messages, documents)
    headed = [_heading_marks(found[0], found[2]) if found else set() for found in standing]
    sections = headed[0] - headed[0].intersection(*headed[1:])
    for number, document in enumerate(documents):
        lines = document.strip().splitlines()
        for line in lines[1:] if number == 0 else lines:
            marks = _line_marks(line)
            if marks in sections and not (number == 0 and _line_marks(lines[0]) == marks):
                return marks
    return None


def _section_heading(messages: list[str], documents: tuple[str, ...]) -> str | None:
    """A document whose first line is short and ends no sentence, written right after marks of two or more
    characters on its line ("===Additional Context", "## Notes"), unless the prompt quotes every document
    between such marks (triple quotes around a titled document: its own first line): the template opens a
    section with them, and the reading kept the section's heading."""
    standing = _standing(messages, documents)
    marked = [found is not None and _marks_only(_line_before(found[0], found[2])) for found in standing]
    quoted = all(
        found is not None and mark and _marks_only(_line_after(found[0], found[2] + len(document.strip())))
        for found, mark, document in zip(standing, marked, documents, strict=True)
    )
    if quoted:
        return None
    for document, mark in zip(documents, marked, strict=True):
        text = document.strip()
        first = text.splitlines()[0].strip() if text else ""
        if mark and _label_like(first) and first[-1:] not in _STATEMENT_ENDS:
            return document
    return None


def _standing(messages: list[str], documents: tuple[str, ...]) -> list[tuple[str, int, int] | None]:
    """Where each document (stripped) stands in the prompt: its message, the message's number and the
    offset, found in reading order (one pass over each message); None from the first one not found as
    written (JSON-escaped)."""
    found: list[tuple[str, int, int] | None] = [None] * len(documents)
    for number, message in enumerate(messages):
        at = 0
        for index, document in enumerate(documents):
            if found[index] is not None:
                continue
            place = message.find(document.strip(), at)
            if place < 0:
                break
            found[index] = (message, number, place)
            at = place + len(document.strip())
    return found


def _between(messages: list[str], documents: tuple[str, ...]) -> list[str | None]:
    """The prompt's text between each document and the next (stripped documents); None where the two do
    not stand one after the other in one message."""
    standing = _standing(messages, documents)
    texts: list[str | None] = []
    for document, found, following in zip(documents, standing, standing[1:], strict=False):
        if found is None or following is None or found[1] != following[1]:
            texts.append(None)
        else:
            texts.append(found[0][found[2] + len(document.strip()) : following[2]])
    return texts


def _line_before(message: str, at: int) -> str:
    """The text of ``at``'s line before it."""
    return message[message.rfind("\n", 0, at) + 1 : at]


def _line_after(message: str, end: int) -> str:
    """The text of ``end``'s line after it."""
    stop = message.find("\n", end)
    return message[end : stop if stop >= 0 else len(message)]


def _heading_marks(message: str, at: int) -> set[str]:
    """The marks that open the line a document at ``at`` stands on, or one of the few lines above it
    ("===Tables \n…", "===Notes \n\n…")."""
    marks: set[str] = set()
    end = at
    for _ in range(_LINES_ABOVE):
        start = message.rfind("\n", 0, end) + 1
        line = message[start:end]
        if line.strip():
            marks.add(_line_marks(line + "a"))
            break
        if start == 0:
            break
        end = start - 1
    return marks - {""}


def _line_marks(line: str) -> str:
    """The marks (two characters or more) a line of words opens with, or ""."""
    found = _OPENING_MARKS.match(line.strip())
    marks = found.group().strip() if found else ""
    return marks if len(marks) > 1 and any(character.isalpha() for character in line) else ""


def _marks_only(text: str) -> bool:
    """``text`` is marks only, two characters or more."""
    stripped = text.strip()
    return len(stripped) > 1 and not any(character.isalnum() for character in stripped)


def _label_of_the_next(messages: list[str], documents: tuple[str, ...]) -> str | None:
    """A short document, no sentence, that the prompt writes right before the next document with nothing
    but a number on its own line and marks between them ("Document" of "Document 2:\n…"): the label the
    template writes before each document, which the reading cut off at its number. A list's number opens
    the next line ("…\n2. "): that is the next item's."""
    for document, between in zip(documents, _between(messages, documents), strict=False):
        text = document.strip()
        if (
            between is not None
            and _label_like(text)
            and text[-1:] not in _STATEMENT_ENDS
            and len(between.strip()) <= _BETWEEN_LABEL
            and not any(character.isalpha() for character in between)
            and any(character.isdigit() for character in between.split("\n", 1)[0])
        ):
            return text
    return None


def _unmarked_item(messages: list[str], documents: tuple[str, ...]) -> str | None:
    """A later document of the reading that stands on a line without the bullet (or quote mark) the prompt
    writes on the first document's line before it ("  - ", "> "): the template writes it before every
    document, so that line is the document before's own text (a line of it that opens with other marks,
    "* * *"), cut off. Other marks before the first document (a label's colon, a list literal's "['") are
    no item's."""
    standing = _standing(messages, documents)
    first = standing[0] if standing else None
    if len(documents) < 2 or first is None:
        return None
    before = _line_before(first[0], first[2])
    marks = before.strip()
    if marks not in _ITEM_MARKS or not before.endswith((" ", "\t")):
        return None
    for document, found in zip(documents[1:], standing[1:], strict=True):
        if found is not None and found[1] == first[1] and _line_before(found[0], found[2]).strip() != marks:
            return document
    return None


def _numbered_openings(messages: list[str], documents: tuple[str, ...]) -> str | None:
    """Every document opens with the same short text and then its own place in the reading as a number
    ("Document [1](…", "Document [2](…", or "1.", "2."): documents a search returned do not count their
    own order, the template does, so each document kept the label the template writes before it. The
    label's text is quoted (``messages``: for the table's common signature)."""
    if len(documents) < 2:
        return None
    openings = [_NUMBERED_OPENING.match(document.strip()) for document in documents]
    if any(found is None for found in openings):
        return None
    labels = {found.group(1) for found in openings if found is not None}
    numbers = [int(found.group(2)) for found in openings if found is not None]
    first = numbers[0]
    if len(labels) != 1 or first not in (0, 1) or numbers != list(range(first, first + len(numbers))):
        return None
    return f"{labels.pop()}{first}"


def _bullets_inside(messages: list[str], documents: tuple[str, ...]) -> str | None:
    """The bullet the prompt writes between two neighbouring documents of the reading, when a document
    holds a line opening with that bullet too."""
    opening = {line.lstrip()[:1] for document in documents for line in document.splitlines()}
    for between in _between(messages, documents):
        if between is None:
            return None
        if between.strip() in _BULLETS and between.strip() in opening:
            return between.strip()
    return None


def _written_before(message: str, marks: str, document: str) -> bool:
    at = message.find(document)
    return at >= 0 and message[:at].rstrip(" ").endswith(marks.rstrip(" "))


def _read_twice(messages: list[str], documents: tuple[str, ...]) -> str | None:
    """The first document whose text (whitespace collapsed) another document of the reading holds too
    (``messages`` is for the table's common signature)."""
    seen: set[str] = set()
    for document in documents:
        text = normalized(document)
        if text in seen:
            return document
        seen.add(text)
    return None


def _reference_only(document: str, question: str) -> bool:
    """``document`` is one link or path ("example.org/faq", "Source: https://…/naps"), with no text (a
    script written without blanks has whole sentences without one)."""
    rest = _LEADING_LABEL.sub("", document.strip(), count=1)
    return (
        bool(rest)
        and not any(c.isspace() for c in rest)
        and not is_unspaced(rest)
        and _REFERENCE.search(rest) is not None
    )


def _value_only(document: str, question: str) -> bool:
    """``document``, but for a label before it ("Published:"), is a number, a date, an id or a score (digits
    and their separators, no letter and no mark that opens a line of markup, "## 2.3.1"), alone or on a
    line above the record's next labelled field ("2022-12-20\nTitle: …"): a field the template writes for a
    document, never retrieved text. A value line above the document's own text (a year heading a report)
    is the document's."""
    first, _, rest = document.strip().partition("\n")
    if _VALUE.fullmatch(_LEADING_LABEL.sub("", first.strip(), count=1)) is None:
        return False
    return not rest.strip() or _LEADING_LABEL.match(rest.lstrip()) is not None


def _restates(document: str, question: str) -> bool:
    """``document`` is the question again: besides markup, most of the question's words and no more other
    words than a label has, in any case and punctuation (a search query the service wrote from it, the
    question quoted in a tag). An FAQ entry that asks the question answers it in words of its own."""
    asked = normalized(question).casefold().strip()
    if len(asked) < _PART_CHARS:
        return False
    asked_words = Counter(_WORD.findall(asked))
    words = Counter(_WORD.findall(_MARKUP.sub(" ", normalized(document).casefold())))
    shared = (words & asked_words).total()
    return (words - asked_words).total() <= _LABEL_WORDS and shared >= _RESTATED * asked_words.total()


def _still_escaped(messages: list[str], document: str) -> bool:
    """``document`` stands between the quotes of a JSON string in the prompt and holds escapes there, or
    its line breaks are all still written as escapes (a Python or JSON string's repr pasted as it is)."""
    if "\\" not in document:
        return False
    if "\\n" in document and "\n" not in document:
        return True
    quoted = f'"{document}"'
    if not any(quoted in message for message in messages):
        return False
    try:
        decoded = json.loads(quoted)
    except ValueError:
        return False
    return isinstance(decoded, str) and decoded != document


def _written(text: str) -> tuple[str, ...]:
    """How a text read from a prompt may be written in it: as it is, or escaped in a JSON string."""
    if not text:
        return ()
    return text, json.dumps(text, ensure_ascii=False)[1:-1], json.dumps(text)[1:-1]


def _lines(text: str) -> list[str]:
    return [line for line in (normalized(line) for line in text.splitlines()) if line]


def _sentences(text: str) -> list[str]:
    """The sentences of ``text``, whitespace collapsed."""
    return [piece for piece in _SENTENCE_END.split(normalized(text)) if piece.strip()]


def _pieces(text: str) -> frozenset[bytes]:
    return frozenset(_key(piece) for piece in _sentences(text))


def _opening(document: str) -> tuple[str, str]:
    """The document's first sentence and the rest of its text (whitespace collapsed)."""
    text = normalized(document)
    found = _SENTENCE_END.search(text)
    if found is None or found.end() >= len(text):
        return text, ""
    return text[: found.start()], text[found.end() :]


def _shared_ending(one: str, other: str) -> int:
    """Characters ``one`` and ``other`` end with alike."""
    shared = 0
    for mine, theirs in zip(reversed(one), reversed(other), strict=False):
        if mine != theirs:
            break
        shared += 1
    return shared


def _label_like(document: str) -> bool:
    """One short line: what a template writes for a document (a reference, a source's name)."""
    return "\n" not in document.strip() and len(document.strip()) <= _LABEL_CHARS


def _hold(holders: dict[bytes, set[bytes]], piece: bytes, holder: bytes, most: int = _HOLDERS) -> None:
    """Records ``holder`` with ``piece`` (``most`` of them at most), within the memory's bounds."""
    found = holders.get(piece)
    if found is None:
        if len(holders) >= _KEPT:
            return
        found = holders[piece] = set()
    if len(found) < most:
        found.add(holder)


def _pairs(text: str, shortest: int = 1, edge: bool = False) -> list[tuple[bytes, bytes]]:
    """Each sentence of ``text`` (hashed) after the one before it, and with ``edge`` the first after the
    document's start; with ``shortest``, only pairs whose later sentence has that many characters ("Yes."
    follows many sentences in many documents)."""
    pieces = _sentences(text)
    keys = [_key(piece) for piece in pieces]
    pairs = [
        (before, key)
        for (before, key), piece in zip(itertools.pairwise(keys), pieces[1:], strict=True)
        if len(piece) >= shortest
    ]
    return [(_EDGE, keys[0]), *pairs] if edge and len(pieces) > 1 else pairs


def _key(text: str) -> bytes:
    return _digest(normalized(text))


def _digest(flat: str) -> bytes:
    """The key of a text whose whitespace is already collapsed."""
    return hashlib.blake2b(flat.encode(), digest_size=8).digest()


def _quoted(text: str) -> str:
    flat = normalized(text)
    return "«" + (flat if len(flat) <= _SHOWN else flat[: _SHOWN - 1] + "…") + "»"


_NO_DOCUMENT: Final[tuple[tuple[Callable[[str, str], bool], str], ...]] = (
    (_wordless, "holds no word or number: a rule or mark between documents read as one of them"),
    (_tags_only, "is tags alone: where the template closes one part and opens the next, read as a document"),
    (
        _reference_only,
        "is only a reference (a link, a path), perhaps after its label: a line the template writes for a"
        " document, read as one",
    ),
    (
        _value_only,
        "is, or opens with a line that is, only a value (a date, an id, a score), perhaps after its label: a"
        " field the template writes for a document, read as its text",
    ),
    (
        _restates,
        "is the user's question written again (a rewritten query, the question quoted in a tag), not context",
    ),
)
"""What a document of a reading may be that no document is, whatever the place's other requests showed,
and why."""

_NO_READING: Final[tuple[tuple[Callable[[list[str], tuple[str, ...]], str | None], str], ...]] = (
    (
        _read_twice,
        "document {} was read twice in one request: the template writes the documents twice (under two"
        " fields), or two readings of one place were joined",
    ),
    (
        _marks_of_the_template,
        "every document after the first opens with {}, which the prompt writes right before the first too:"
        " the template's marks before each document (a quote, a bullet) read as theirs",
    ),
    (
        _sections_of_the_template,
        "a document holds a line opening with {}, the marks that head the first document's section but not"
        " every document: the template's mark before each of its sections, a section's heading read into the"
        " documents",
    ),
    (
        _section_heading,
        "document {} opens with one short line, no sentence, after marks that open its line: a heading the"
        " template writes (a section's name), not retrieved text",
    ),
    (
        _label_of_the_next,
        "document {} stands right before the next one with only a number on its line and marks between: the"
        " label the template writes before each document, read as one",
    ),
    (
        _unmarked_item,
        "document {} stands on a line without the marks the prompt writes before the first document: the"
        " template writes them before each, so the line is the document before's own, cut off",
    ),
    (
        _numbered_openings,
        "every document opens with the same words and its own place among the documents as a number, {}"
        " for the first: the label the template writes before each document, read as theirs",
    ),
    (
        _bullets_inside,
        "the documents are a list, each after {}, and one holds lines opening with that mark of its own:"
        " which line starts the next document is a guess",
    ),
)
"""What a reading as a whole may show that no reading of documents does, the text it quotes and why."""
