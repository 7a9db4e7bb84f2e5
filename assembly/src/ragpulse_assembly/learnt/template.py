"""A learnt template: its skeleton (constants and slots in order), each slot's role, the documents slots'
loops, and its version; and one prompt read with it.

The version is a hash of everything that decides a reading, so the same template learnt twice (another
worker, a restart) has the same version, and a changed prompt in a deploy has another.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any, Final

from ragpulse_assembly.learnt.alignment import spaced_label_mark
from ragpulse_assembly.learnt.loops import ItemLayout, Loop, documents
from ragpulse_assembly.learnt.matching import Fits, match_pieces
from ragpulse_assembly.learnt.message_loops import message_texts, opening_marker
from ragpulse_assembly.learnt.shapes import Shape
from ragpulse_assembly.learnt.tokens import MARK_CLOSE, MARK_OPEN, tokenize
from ragpulse_assembly.model import normalized
from ragpulse_assembly.pyrepr import list_items


class SlotRole(StrEnum):
    QUESTION = "question"
    DOCUMENTS = "documents"
    OTHER = "other"
    """Varies but is neither (a date, a user's name, a variant of an instruction)."""


@dataclass(frozen=True)
class Slot:
    role: SlotRole
    label: str
    """The skeleton's words just before the slot ("Question:", "<已知信息>"), as people read it."""
    shape: Shape
    loop: Loop | None = None
    json_string: bool = False
    """The slot lies inside a JSON string of a message that is JSON: its text is escaped."""
    undivided: bool = False
    """A documents slot that held several documents at times but no separator splits them exactly."""
    literal: bool = False
    """A documents slot that is the inside of a list of quoted strings (a Python list's repr, a JSON array
    pasted inline): each string, its escapes undone, is a document."""


@dataclass(frozen=True)
class Template:
    service: str
    place: str
    pieces: tuple[str | None, ...]
    """Constant texts and ``None`` for each slot, in order."""
    slots: tuple[Slot, ...]
    learnt_from: int
    """How many prompts the skeleton was learnt from."""

    @cached_property
    def version(self) -> str:
        """Computed once per template: every reading names its version."""
        digest = hashlib.sha256(json.dumps(self.definition(), sort_keys=True).encode()).hexdigest()
        return digest[:12]

    @property
    def reads_documents(self) -> bool:
        return any(slot.role is SlotRole.DOCUMENTS for slot in self.slots)

    def skeleton(self) -> str:
        """The skeleton as people read it: constants as they are, each slot as ``{{role}}``, messages on
        lines of their own."""
        shown = []
        slots = iter(self.slots)
        for piece in self.pieces:
            shown.append(piece if piece is not None else "{{" + next(slots).role.value + "}}")
        text = "".join(shown)
        return text.replace(MARK_OPEN, "\n[").replace("\ue001", "]\n").strip("\n")

    def definition(self) -> dict[str, Any]:
        """Everything that decides a reading, as JSON-able values (stored; the version hashes it)."""
        return {
            "pieces": list(self.pieces),
            "slots": [
                {
                    "role": slot.role.value,
                    "label": slot.label,
                    "shape": slot.shape.as_json(),
                    "json_string": slot.json_string,
                    "undivided": slot.undivided,
                    # Only when set: the versions of templates learnt before it stay the same.
                    **({"literal": True} if slot.literal else {}),
                    "loop": None
                    if slot.loop is None
                    else {
                        "separator": list(slot.loop.separator),
                        "counters": list(slot.loop.counters),
                        "weak": slot.loop.weak,
                        "sample": slot.loop.sample,
                        "closed": slot.loop.closed,
                        **({"group": list(slot.loop.group)} if slot.loop.group else {}),
                        **({"padded": slot.loop.padded} if slot.loop.padded else {}),
                        **({"quote": slot.loop.quote} if slot.loop.quote else {}),
                        **({"titled": slot.loop.titled} if slot.loop.titled else {}),
                        **({"messages": True} if slot.loop.messages else {}),
                        "layout": None
                        if slot.loop.layout is None
                        else {
                            "pieces": list(slot.loop.layout.pieces),
                            "shapes": [shape.as_json() for shape in slot.loop.layout.shapes],
                            "text_from": slot.loop.layout.text_from,
                            "text_to": slot.loop.layout.text_to,
                            # Only when set: the versions of templates learnt before it stay the same.
                            **({"unclear": True} if slot.loop.layout.unclear else {}),
                        },
                    },
                }
                for slot in self.slots
            ],
        }

    @classmethod
    def from_definition(cls, service: str, place: str, learnt_from: int, value: Any) -> Template:
        """A stored template; raises ValueError on a definition this version cannot read."""
        try:
            slots = tuple(_slot(item) for item in value["slots"])
            pieces = tuple(piece if piece is None else str(piece) for piece in value["pieces"])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a template definition: {exc}") from None
        if sum(piece is None for piece in pieces) != len(slots):
            raise ValueError("a template definition whose slots and pieces disagree")
        return cls(service, place, pieces, slots, learnt_from)


def _slot(value: Any) -> Slot:
    loop = value["loop"]
    layout = None if loop is None else loop["layout"]
    return Slot(
        SlotRole(value["role"]),
        str(value["label"]),
        Shape.from_json(value["shape"]),
        None
        if loop is None
        else Loop(
            tuple(str(token) for token in loop["separator"]),
            tuple(int(position) for position in loop["counters"]),
            bool(loop["weak"]),
            str(loop["sample"]),
            None
            if layout is None
            else ItemLayout(
                tuple(piece if piece is None else str(piece) for piece in layout["pieces"]),
                tuple(Shape.from_json(shape) for shape in layout["shapes"]),
                int(layout["text_from"]),
                int(layout["text_to"]),
                bool(layout.get("unclear", False)),
            ),
            bool(loop["closed"]),
            tuple(str(token) for token in loop.get("group", ())),
            str(loop.get("padded", "")),
            str(loop.get("quote", "")),
            str(loop.get("titled", "")),
            bool(loop.get("messages", False)),
        ),
        bool(value["json_string"]),
        bool(value["undivided"]),
        bool(value.get("literal", False)),
    )


@dataclass(frozen=True)
class TemplateReading:
    """What a learnt template reads in one prompt."""

    version: str
    chunks: tuple[str, ...]
    question: str
    weak: bool
    """A documents slot was split at blanks only (or not split at all): the structure rules must agree."""
    undivided: bool = False
    """A documents slot holds several documents at times and none of its readings split them."""
    regions: tuple[str, ...] = ()
    """The documents slots' whole contents (whitespace collapsed): where any reading's documents must lie;
    text outside them is the template's own."""
    items: tuple[str, ...] = ()
    """Per document, the loop's item it was read from (whitespace collapsed): the document with the header
    and footer lines the template writes around it."""
    skeleton: str = ""
    """The template's constant text (whitespace collapsed): a question another reading finds there is the
    template's own words (an answer cue), not the user's."""
    unclear: bool = False
    """A documents slot's items open with a header line whose value cannot be told from the document's own
    first line (a title that asks), or with a field only some of them have: no reading of its documents is
    sure."""


_LIST_ITEM: Final = re.compile(
    r"^[^\S\n]*(?:\(\d+\)|\d+[.)](?!\d)|[\u2460-\u2473\u2776-\u2793]|[一二三四五六七八九十]+、|[-*•‣▪][^\S\n])",
    re.MULTILINE,
)
"""A line opening with a list's number or bullet: "(1)", "1." or "1)", a circled number, a Chinese numeral and
"、", "- ", "* ", "• "."""
_BULLETS: Final = frozenset("-*•‣▪")
"""Marks a list writes before every item alike."""
_LABEL_CHARS: Final = 80
"""Characters a label line before a documents slot has at most ("DOCUMENT 1: ", "Quelle [1] — ")."""

_TURN_LABEL: Final = 24
"""Characters a label has at most ("User:", "Frage:", "प्रश्न:")."""

_QUOTES: Final = "'\""
_OPENING_MARKS: Final = "¿¡ "
_CLOSING_MARKS: Final = "?!.？！。؟"
"""Marks a question opens or ends with, which a skeleton takes in when every question of its window does."""
_COPY_CHARS: Final = 2000
"""Characters of a slot compared with the question, at most: a copy of it is as short as a question."""
_WORDS: Final = re.compile(r"\w+")

Segmenter = Callable[[int, str, bool], list[str] | None]
"""Documents of an undivided slot (by slot number) told apart by how they recur; None while not known, or
when the content is not to be read (False: only the lines it writes twice are noted)."""


def read(template: Template, text: str, segment: Segmenter | None = None) -> TemplateReading | None:
    """``text`` (a flattened prompt) read with ``template``; None when it does not fit the template (another
    template, or two ways to place its skeleton). ``segment`` splits the documents of a slot no separator
    splits."""
    fits: list[Fits] = [slot.shape.fits for slot in template.slots]
    spans = match_pieces(text, template.pieces, fits)
    if spans is None:
        return None
    question = ""
    chunks: list[str] = []
    items: list[str] = []
    regions: list[str] = []
    weak = undivided = unclear = False
    others: list[str] = []
    for number, (slot, (start, end)) in enumerate(zip(template.slots, spans, strict=True)):
        content = text[start:end]
        if slot.role is SlotRole.OTHER:
            others.append(content)
        if slot.role is SlotRole.QUESTION:
            found = _unescaped(content, slot)
            if found is None:
                return None
            question = _asked(_opening(template, number), found.strip(), _closing(template, number))
        elif slot.role is SlotRole.DOCUMENTS:
            regions.append(normalized(_unescaped(content, slot) or content))
            opening = _opening(template, number)
            told = (
                segment(
                    number, content, not _label_repeats(opening, content) and not _listed(opening, content)
                )
                if slot.undivided and segment is not None
                else None
            )
            if told is not None:
                chunks.extend(document.strip() for document in told if document.strip())
                items.extend(normalized(document) for document in told if document.strip())
                unclear = unclear or _titled_alike(told)
                continue
            if slot.literal:
                listed = literal_strings(opening, content, _closing(template, number))
                if listed is None:
                    return None
                chunks.extend(document.strip() for document in listed if document.strip())
                items.extend(normalized(document) for document in listed if document.strip())
                continue
            slot_documents = _slot_documents(content, slot, opening)
            if slot_documents is None:
                return None
            chunks.extend(document for document, _ in slot_documents)
            items.extend(normalized(item) for _, item in slot_documents)
            weak = weak or slot.loop is None or slot.loop.weak
            unclear = unclear or (
                slot.loop is not None and slot.loop.layout is not None and slot.loop.layout.unclear
            )
            # Lines numbered as a list where no loop was learnt: several documents at times, not told apart.
            undivided = undivided or slot.undivided or (slot.loop is None and _listed(opening, content))
    if question and any(_fuller(other, question) for other in others):
        # The question's words written again with more marks or capitals than the question slot holds:
        # the template took a copy made from the user's words (a search query) for them, and this prompt
        # shows it; which slot holds them as the user wrote them is not known.
        return None
    if any(MARK_OPEN in chunk for chunk in chunks):
        # A document across a message boundary holds another message's text (the model's own words between
        # two tool results): several documents, and the template cannot tell them from those words.
        chunks, items, undivided = [], [], True
    if any(_is_label(chunk) for chunk in chunks):
        # A "document" that is only a label ("User:", "Frage:") is the template's own text that the loop took
        # in: a turn of a conversation written between the documents and the question. The template cannot
        # say which of the items are documents.
        return None
    skeleton = normalized(" ".join(piece for piece in template.pieces if piece is not None))
    return TemplateReading(
        template.version,
        tuple(chunks),
        question,
        weak,
        undivided,
        tuple(regions),
        tuple(items),
        skeleton,
        unclear,
    )


def _asked(opening: str, content: str, closing: str) -> str:
    """The question slot's words with the question marks every question of the window shares, which the
    skeleton took in ("¿" before the slot, "?" after it): the user wrote them, where the question opens its
    line and ends it."""
    question = _last_turn(opening, content).strip()
    line = opening[max(opening.rfind("\n"), opening.rfind(MARK_CLOSE)) + 1 :]
    if line.strip(_OPENING_MARKS) or not question:
        return question
    ending = closing[
        : min(at for at in (closing.find("\n"), closing.find(MARK_OPEN), len(closing)) if at >= 0)
    ]
    return line.strip() + question + ("" if ending.rstrip().strip(_CLOSING_MARKS) else ending.rstrip())


def _titled_alike(documents: list[str]) -> bool:
    """Every document told apart by how its lines recur opens with a name ended by the same mark ("Refunds —
    "): a title the template writes on the text's line, or the documents' own first words; no loop was
    learnt to tell which."""
    marks = {spaced_label_mark(tokenize(document.strip())) for document in documents if document.strip()}
    return len(marks) == 1 and "" not in marks


def _fuller(other: str, question: str) -> bool:
    """``other`` holds ``question``'s words, lower-cased, with more besides them (marks, capitals)."""
    other, question = other.strip(), question.strip()
    if len(other) > _COPY_CHARS or other == question:
        return False
    words = _WORDS.findall(other.lower())
    capitals = other != other.lower() and question == question.lower()
    return (
        (len(other) > len(question) or capitals) and bool(words) and words == _WORDS.findall(question.lower())
    )


def _label_repeats(opening: str, content: str) -> bool:
    """The line the skeleton opens the slot with ("DOCUMENT: ") opens later lines of its content too: the
    template's loop labels every document, though none was learnt. Lines told apart by how they recur are
    then no reading (the first document's first line lacks the label the others' have, and a title after
    the label would stay in the text): the slot is read undivided, and refused."""
    # The label's counter ("DOCUMENT 1: ", "DOCUMENT 2: ") is any number; the rest is matched as written.
    label = _label_pattern(opening)
    return label is not None and re.search("\n" + label, content) is not None


def _last_turn(opening: str, content: str) -> str:
    """The question slot's content after the last line that opens with the label the skeleton writes
    before the slot ("User: "): a transcript the template writes in one slot ("hi\nAssistant: Hello!\n
    User: how long…") asks its last turn's words, as the label before the slot says."""
    label = _label_pattern(opening)
    if label is None:
        return content
    ends = [found.end() for found in re.finditer("\n" + label, content)]
    return content[ends[-1] :] if ends else content


def _label_pattern(opening: str) -> str | None:
    """The skeleton's line before a slot ("DOCUMENT 1: ", "User: ") as a pattern, its counter any number;
    None when the line is long or holds no letter or digit."""
    line = opening[opening.rfind("\n") + 1 :]
    if len(line) > _LABEL_CHARS or not any(character.isalnum() for character in line):
        return None
    return r"\d+".join(re.escape(part) for part in re.split(r"\d+", line))


def _is_label(chunk: str) -> bool:
    """A short text ending in a colon, with a letter in it: a label, never a document."""
    text = chunk.strip()
    return len(text) <= _TURN_LABEL and text[-1:] in ":：" and any(character.isalpha() for character in text)


def _listed(opening: str, content: str) -> bool:
    """The slot's first line (with the skeleton's start of it) opens with a list's number ("1. ", "(1) ",
    "① ") and a later line does too, or the slot itself opens with a bullet ("- ") that the skeleton did
    not take (a list that holds one item or none in many prompts): the template lists the documents, and
    where no loop was learnt (its numbers did not run on, a document's own list among them) no reading
    tells its marks from the documents' own; the slot is not read by how lines recur either."""
    text = opening[opening.rfind("\n") + 1 :] + content
    first = _LIST_ITEM.match(text)
    if first is None:
        return False
    if first.group().strip() in _BULLETS:
        return _LIST_ITEM.match(content) is not None
    return len(_LIST_ITEM.findall(text)) > 1


def _closing(template: Template, slot: int) -> str:
    """The skeleton's constant just after slot number ``slot``."""
    at = [index for index, piece in enumerate(template.pieces) if piece is None][slot]
    return template.pieces[at + 1] or "" if at + 1 < len(template.pieces) else ""


def _opening(template: Template, slot: int) -> str:
    """The skeleton's constant just before slot number ``slot``."""
    at = [index for index, piece in enumerate(template.pieces) if piece is None][slot]
    return template.pieces[at - 1] or "" if at else ""


def _slot_documents(content: str, slot: Slot, opening: str) -> list[tuple[str, str]] | None:
    """The slot's documents, each with the loop's item it was read from; ``opening``: the skeleton's text
    before the slot."""
    if not content.strip():
        return []
    if slot.loop is None:
        if not slot.undivided and not slot.shape.fits(content):
            # One document in every prompt of the window; a content of another shape (a line break, a
            # blank line, a message boundary it never had) may hold several: learnt again, not guessed.
            return None
        whole = _unescaped(content, slot)
        return None if whole is None else [(whole.strip(), whole)]
    found = _loop_documents(content, slot.loop, opening)
    if found is None:
        return None
    texts = []
    for text, item in found:
        unescaped = _unescaped(text, slot)
        if unescaped is None or not unescaped.strip():
            return None
        texts.append((unescaped.strip(), _unescaped(item, slot) or item))
    return texts


def _loop_documents(content: str, loop: Loop, opening: str) -> list[tuple[str, str]] | None:
    """The documents ``loop`` splits ``content`` in: each message's on its own where the loop is one of
    messages, the first after the skeleton's ``opening``, the others after their message's marker."""
    if not loop.messages:
        return documents(tokenize(content), loop, opening)
    marker = opening_marker(opening)
    texts = message_texts(content, marker)
    if texts is None:
        return None
    found: list[tuple[str, str]] = []
    for number, text in enumerate(texts):
        split = documents(tokenize(text), loop, opening if number == 0 else marker)
        if split is None:
            return None
        found.extend(split)
    return found


def literal_strings(opening: str, content: str, closing: str) -> list[str] | None:
    """The strings of a list literal (``['a', 'b']``, ``["a", "b"]``) whose inside is ``content``, between
    the skeleton's ``opening`` (ending with the bracket, perhaps a quote after it) and ``closing``; None
    when the text there is no list of quoted strings only. Nothing is evaluated."""
    bracket, end = opening.rfind("["), closing.find("]")
    lead, trail = opening[bracket + 1 :], closing[:end]
    if bracket < 0 or end < 0 or lead.strip(_QUOTES + " \n") or trail.strip(_QUOTES + " \n"):
        return None
    if not (lead + content + trail).strip():
        return []
    literal = f"[{lead}{content}{trail}]"
    try:
        # A JSON array first, as JSON reads it ("\\/" is "/"); then a Python list's repr.
        values = json.loads(literal)
    except (ValueError, RecursionError):  # a list nested thousands deep is no list of texts
        values = _python_list(literal)
    if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
        return None
    return values


def _python_list(literal: str) -> list[object] | None:
    """The items of a Python list literal (a ``repr``, which writes no escape Python does not know), as
    constants or None; None when ``literal`` is no list."""
    items = list_items(literal)
    if items is None:
        return None
    return [item.value if isinstance(item, ast.Constant) else None for item in items]


def _unescaped(text: str, slot: Slot) -> str | None:
    if not slot.json_string:
        return text
    try:
        value = json.loads(f'"{text}"')
    except ValueError:
        return None
    return value if isinstance(value, str) else None
