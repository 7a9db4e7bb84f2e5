"""A template learnt from a window of one place's prompts: the skeleton they share, and what each slot is.

The question is the slot that carries the user's words: the one whose content is the question a chain span
recorded, when the window has such spans; else the slot that varies in the last user message (the shortest
there; of several short ones, the one whose words the documents share clearly most, else none), and documents
are never it. When no slot is the question, a loop's first item may be: a question line laid out as the
documents' lines are ("QUESTION: '…'" then "PASSAGE: '…'") reaches the loop as its first item; it is cut off
as the question when it varies, never comes back as a later item while those recur, is shorter, and the
documents share its words clearly more than one another's. Documents slots are the slots with a loop (a
separator that repeats between variable runs) and the other long slots that vary; a slot that varies little (a
date, a variant of an instruction) is neither. A constant between two slots that the slots' own contents
repeat is the loop's separator, not the skeleton ("»\\n[2] «" when every request of the window had two
documents or more).
"""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ragpulse_assembly.learnt.alignment import Constant, Gap, Piece, align, gap_texts, numbered_alike
from ragpulse_assembly.learnt.loops import (
    Loop,
    documents,
    find_loop,
    first_counter,
    first_separator,
    occurs,
    repeats,
)
from ragpulse_assembly.learnt.message_loops import message_loop, opening_marker
from ragpulse_assembly.learnt.shapes import shape_of
from ragpulse_assembly.learnt.template import Slot, SlotRole, Template, literal_strings
from ragpulse_assembly.learnt.tokens import (
    COMBINING,
    MARK_CLOSE,
    MARK_OPEN,
    QUESTION_MARKS,
    Tokens,
    is_word,
    marker,
    tokenize,
)
from ragpulse_assembly.learnt.written_back import closing_cue, written_back
from ragpulse_assembly.model import Role, normalized
from ragpulse_assembly.unwrap import parse_json

logger = logging.getLogger(__name__)

_FEW_VALUES: Final = 2
"""A slot with this many distinct contents or fewer across the window is no question and no documents (a
date, an instruction's variant), once the window holds three times as many prompts."""
_DOCUMENT_LENGTH: Final = 40
"""Mean characters from which a slot without a loop can hold documents."""
_QUESTION_SHARE: Final = 0.3
"""Share of a slot's words the documents must hold, at least, to take it for the question among several."""
_QUESTION_LEAD: Final = 0.2
"""By how much that share must lead the next slot's."""
_LIFT: Final = 0.1
"""Share of a slot's words its own prompt's documents hold beyond other prompts' documents, and by which it
must lead the next slot's, to take it for the question where no slot's words the documents clearly hold."""
_PARAGRAPH: Final = re.compile(r"\n[^\S\n]*\n")
"""A blank line inside a text: a paragraph break."""
_JSON_OPENINGS: Final = 4
"""Lines opening with a bracket tried as the start of a JSON value around a slot: a bound on the parsing a
message full of brackets can cost."""
_QUERY_EXTRA: Final = 2
"""Words a search query written from the question adds to it, at most."""
_ESCAPINGS: Final = 3
"""JSON string escapings undone, at most, when a slot's text is compared with the user's words."""
_ANSWER_LABEL: Final = re.compile(
    r"^\W*(?:(?:(?:final|generated|model|llm|ai|actual|candidate|predicted|student|submitted|reference|expected"
    r"|ideal|correct|gold|golden|true|target|ground[ -]truth)\s+)?"
    r"(?:answer|response|output|completion|reply)s?|ground[ -]truths?|antwort|respuesta|r[ée]ponse|risposta"
    r"|resposta|antwoord|svar|vastaus|odpowied[źz]|odpov[ěe][ďd]|v[áa]lasz|cevap|ответ|відповідь|απάντηση"
    r"|回答|答案|答え|답변|응답|उत्तर|جواب|إجابة|الإجابة|תשובה|jawaban|คำตอบ)\W*$",
    re.IGNORECASE,
)
"""A slot's label naming an answer ("ANSWER:", "[Response]", "Reference answer:", "GROUND TRUTH:",
"Ответ:", in the languages the question labels are known in and more): what a model wrote, or what a person
wrote to compare it with, put before a grader; never the documents, whatever its text copies from them."""
_HISTORY_LABEL: Final = re.compile(
    r"^\W*(?:chat\s+|conversation\s+|dialog(?:ue)?\s+)?(?:history|conversation|transcript|dialog(?:ue)?)"
    r"(?:\s+so\s+far)?\W*$",
    re.IGNORECASE,
)
"""A label over the conversation so far ("Chat History:", "Conversation:"): turns a user and a model wrote,
never the documents, however they are laid out."""
_ANY_WORD: Final = re.compile(r"\w+")
_OPENING_TAG: Final = re.compile(r"<([^\s<>/]{1,40})[\s>]")
_CLOSING_TAG: Final = re.compile(r"</([^\s<>/]{1,40})>")
"""An opening and a closing tag, their names."""
_UNSPACED: Final = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
_WORD: Final = re.compile(f"[{_UNSPACED}]|(?:[^\\W_{_UNSPACED}]|[{COMBINING}]){{2,}}")
"""A word of two letters or digits or more, or one character of a script written without spaces (Chinese,
Japanese), where a run of characters is a phrase, not a word."""


@dataclass(frozen=True)
class _SlotFacts:
    contents: list[str]
    regions: list[Tokens]
    before: tuple[str, ...]
    after: tuple[str, ...]
    role: str
    last_user: bool
    whole_message: bool
    crosses: bool
    multi_line: bool
    json_string: bool
    distinct: int
    mean_length: float


def learn(
    service: str,
    place: str,
    texts: Sequence[Tokens],
    questions: Sequence[str],
    asked: Sequence[Sequence[str]] = (),
) -> Template | None:
    """The template ``texts`` share (``questions``: the question a chain span recorded for each, or "";
    ``asked``: each prompt's user messages, earlier turns' too), or None when they share no slot that
    reads."""
    pieces = align(texts)
    # Each rule below joins slots or cuts one; should some window make one rule undo another's change, the
    # learner would go round for ever on one place's traffic. A layout met twice ends learning: no template.
    seen: set[tuple[Piece, ...]] = set()
    while True:
        layout = tuple(pieces)
        if layout in seen:
            logger.warning("template of %s/%s: its slots would be joined and cut again for ever; none learnt",
                           service, place)  # fmt: skip
            return None
        seen.add(layout)
        gaps = [index for index, piece in enumerate(pieces) if isinstance(piece, Gap)]
        if not gaps:
            return None
        facts = [_facts(texts, pieces, index) for index in gaps]
        loops = [find_loop(fact.regions, fact.before, fact.after) for fact in facts]
        question = _question_slot(facts, loops, questions)
        last = pieces[-1]
        cue = closing_cue(last.text) if isinstance(last, Constant) else ""
        roles = _roles(facts, loops, question, asked, cue)
        changed = (
            _one_loop(pieces, gaps, facts, loops)
            or _same_loop_apart(texts, pieces, gaps, loops, question)
            or _document_between(pieces, gaps, roles, facts)
            or _loop_started(pieces, gaps, facts, loops)
            or (_question_cut(pieces, gaps, facts, loops) if question is None else None)
            or (_question_after(pieces, gaps, facts, loops) if question is None else None)
            or (_turn_cut(pieces, gaps, facts, loops) if question is None else None)
        )
        if changed is None:
            break
        pieces = changed
    if _full_stop_written(facts, question):
        logger.info("template of %s/%s: every question ends with the same full stop, the template's or the"
                    " users'; none learnt", service, place)  # fmt: skip
        return None
    slots = []
    for fact, loop, role in zip(facts, loops, roles, strict=True):
        if role is SlotRole.DOCUMENTS and loop is None and fact.crosses:
            loop = message_loop(fact.contents, opening_marker("".join(fact.before)))
        kept = loop if role is SlotRole.DOCUMENTS else None
        undivided = (
            role is SlotRole.DOCUMENTS and loop is None and repeats(fact.regions, fact.before, fact.after)
        )
        literal = role is SlotRole.DOCUMENTS and _list_literal(fact, loop)
        shape = shape_of(fact.contents, "".join(fact.after))
        slots.append(
            Slot(
                role,
                _label(fact.before),
                shape,
                None if literal else kept,
                fact.json_string,
                undivided and not literal,
                literal,
            )
        )
    shown = tuple(piece.text if isinstance(piece, Constant) else None for piece in pieces)
    return Template(service, place, shown, tuple(slots), len(texts))


def _one_loop(
    pieces: list[Piece], gaps: list[int], facts: list[_SlotFacts], loops: list[Loop | None]
) -> list[Piece] | None:
    """Two slots with a constant between them joined where one slot's loop separator occurs in the other:
    one region of documents, and the constant (a phone number every request's documents happened to hold
    once) belongs to a document. Joined too where the constant is what the second slot's loop writes after
    every document ("</doc>"): the first slot is the loop's first document, which every request held."""
    for number in range(len(gaps) - 1):
        first, second = gaps[number], gaps[number + 1]
        if second != first + 2:
            continue
        if _closes_tag(pieces, first, pieces[first + 1 : second], facts[number + 1].contents):
            continue
        for loop, other in ((loops[number], facts[number + 1]), (loops[number + 1], facts[number])):
            if loop is not None and occurs(other.regions, loop.separator):
                return _joined(pieces, first, second)
        later, between = loops[number + 1], pieces[first + 1]
        closes_first = isinstance(between, Constant) and later is not None and between.text == later.sample
        if closes_first and later is not None and later.closed:
            return _joined(pieces, first, second)
    return None


_FULL_STOPS: Final = frozenset(".。")
"""Marks that end a statement, never a question: the template's after a question slot, where every
question of the window ends with one."""
_STOPPED_QUESTIONS: Final = 3
"""Different questions a window holds at least before their one shared full stop is the template's."""


def _full_stop_written(facts: list[_SlotFacts], question: int | None) -> bool:
    """The question slot, inside a message the template writes, ends in every prompt with the same full stop
    right after a word ("Search Query: {query}. "). The alignment gives the mark to the value, as a
    question owns its "?"; but the template may write it after every query (RankGPT) or every user may end
    with it ("Summarize the report."), and one template cannot tell which: no template is learnt."""
    if question is None or facts[question].whole_message or facts[question].distinct < _STOPPED_QUESTIONS:
        return False
    ends = [region.tokens[-2:] for region in facts[question].regions]
    if not ends or any(len(end) < 2 or not (is_word(end[0]) or end[0].isdigit()) for end in ends):
        return False
    return len({end[1] for end in ends}) == 1 and ends[0][1] in _FULL_STOPS


def _closes_tag(pieces: list[Piece], gap: int, between: list[Piece], later: Sequence[str]) -> bool:
    """The skeleton between a slot and a later one closes a tag ("</FACTS>") that the skeleton opened
    before the slot, within its message, and neither it nor the later slot (``later``: its contents) opens
    it again: the slot is that tag's content and ends there, whatever the later slot's items look like.
    Two lists in one message, each in its own tags, are two slots, and the closing tag (with the next
    list's heading) is never a document's text; an element closed and opened again ("</doc>\n<doc>") is
    a loop's."""
    opened = ""
    for piece in reversed(pieces[:gap]):
        if isinstance(piece, Constant):
            opened = piece.text + opened
            if MARK_OPEN in piece.text:
                break
    names = set(_OPENING_TAG.findall(opened[opened.rfind(MARK_OPEN) + 1 :]))
    written = "".join(piece.text for piece in between if isinstance(piece, Constant))
    closed = names & set(_CLOSING_TAG.findall(written))
    reopened = set(_OPENING_TAG.findall(written)).union(*(_OPENING_TAG.findall(text) for text in later))
    return bool(closed - reopened)


def _same_loop_apart(
    texts: Sequence[Tokens],
    pieces: list[Piece],
    gaps: list[int],
    loops: list[Loop | None],
    question: int | None,
) -> list[Piece] | None:
    """A slot with a loop joined with a later slot of the same message, and all that lies between them, when
    no question lies between and the loop's separator starts between them in every prompt where the later
    slot holds text: the template writes one run of documents, and what the alignment kept between them (a
    rule line and a line of text of a document that every prompt of the window held) belongs to it."""
    for number, loop in enumerate(loops):
        if loop is None:
            continue
        for later in range(number + 2, len(gaps)):
            if question is not None and number < question <= later:
                break
            between = pieces[gaps[number] + 1 : gaps[later]]
            if any(isinstance(piece, Constant) and MARK_OPEN in piece.text for piece in between):
                break
            later_gap = pieces[gaps[later]]
            assert isinstance(later_gap, Gap)
            if _closes_tag(pieces, gaps[number], between, gap_texts(texts, later_gap)):
                break
            first, last = pieces[gaps[number]], pieces[gaps[later]]
            assert isinstance(first, Gap) and isinstance(last, Gap)
            reach = len(loop.separator)  # the separator may run on into the later slot
            spans = [
                tokenize(text.span(start, min(len(text.tokens), end + reach)))
                for text, (_, start), (end, last_end) in zip(texts, first.ranges, last.ranges, strict=True)
                if text.span(end, last_end).strip()
            ]
            if spans and all(occurs([span], loop.separator) for span in spans):
                return _joined(pieces, gaps[number], gaps[later])
    return None


def _roles(
    facts: list[_SlotFacts],
    loops: list[Loop | None],
    question: int | None,
    asked: Sequence[Sequence[str]],
    cue: str,
) -> list[SlotRole]:
    """Each slot's role; ``cue``: the label the prompt ends with, after which the model writes."""
    roles = []
    for number, (fact, loop) in enumerate(zip(facts, loops, strict=True)):
        if number == question:
            roles.append(SlotRole.QUESTION)
        elif (question is not None and _widens(fact, facts[question])) or _quotes_users(fact, asked):
            roles.append(SlotRole.OTHER)  # the user's words quoted again ("<user_query>"): never documents
        elif question is not None and number < question and _ends_asking(fact, facts[question]):
            roles.append(SlotRole.OTHER)  # the conversation so far, up to this turn's question
        elif question is not None and number > question and written_back(_label(fact.before), cue):
            roles.append(SlotRole.OTHER)  # the model's earlier answer to the question, pasted back
        elif _ANSWER_LABEL.match(_label(fact.before)):
            roles.append(SlotRole.OTHER)  # an answer under judgement (a faithfulness grader's "ANSWER:")
        elif any(_HISTORY_LABEL.match(line) for line in _last_lines(fact.before, 2)):
            roles.append(SlotRole.OTHER)  # the conversation so far ("Chat History:\nHuman: {turns}")
        elif _holds_documents(fact, loop) and _written_again(number, facts, loops, question) is None:
            roles.append(SlotRole.DOCUMENTS)
        else:
            roles.append(SlotRole.OTHER)
    return roles


def _written_again(
    number: int, facts: list[_SlotFacts], loops: list[Loop | None], question: int | None
) -> int | None:
    """The documents slot whose text, in most prompts, holds every word of this slot's as many times: this
    slot only writes again what that one holds (the documents' citation keys or names listed once more, the
    documents under a second field). Of two slots that hold each other's words, the later is the copy."""
    mine = [Counter(_WORD.findall(content.casefold())) for content in facts[number].contents]
    for other, (fact, loop) in enumerate(zip(facts, loops, strict=True)):
        if other in (number, question) or not _holds_documents(fact, loop):
            continue
        held = sum(
            bool(words) and not words - Counter(_WORD.findall(content.casefold()))
            for words, content in zip(mine, fact.contents, strict=True)
        )
        if held * 5 < len(mine) * 4:
            continue
        mutual = all(
            not Counter(_WORD.findall(content.casefold())) - words
            for words, content in zip(mine, fact.contents, strict=True)
        )
        if not mutual or other < number:
            return other
    return None


def _document_between(
    pieces: list[Piece], gaps: list[int], roles: list[SlotRole], facts: list[_SlotFacts]
) -> list[Piece] | None:
    """Two documents slots joined where the constant between them is as long as a document and holds no
    message boundary: a popular document every prompt of the window held, in the middle of the others."""
    for number in range(len(gaps) - 1):
        first, second = gaps[number], gaps[number + 1]
        if second != first + 2 or roles[number] is not SlotRole.DOCUMENTS:
            continue
        between = pieces[first + 1]
        assert isinstance(between, Constant)
        long = len(between.text.strip()) >= _DOCUMENT_LENGTH and MARK_OPEN not in between.text
        closes = _closes_tag(pieces, first, [between], facts[number + 1].contents)
        if long and roles[number + 1] is SlotRole.DOCUMENTS and not closes:
            return _joined(pieces, first, second)
    return None


def _joined(pieces: list[Piece], first: int, second: int) -> list[Piece]:
    one, two = pieces[first], pieces[second]
    assert isinstance(one, Gap) and isinstance(two, Gap)
    joined = Gap(tuple((a[0], b[1]) for a, b in zip(one.ranges, two.ranges, strict=True)))
    return [*pieces[:first], joined, *pieces[second + 1 :]]


def _loop_started(
    pieces: list[Piece], gaps: list[int], facts: list[_SlotFacts], loops: list[Loop | None]
) -> list[Piece] | None:
    """The pieces with a gap cut where its numbered loop starts ("Dokument 1:"), when every text has
    something before that (the question): that is a slot of its own, not the first document."""
    for index, fact, loop in zip(gaps, facts, loops, strict=True):
        opening = pieces[index - 1] if index else None
        if loop is None or not all(region.tokens for region in fact.regions):
            continue
        if isinstance(opening, Constant) and numbered_alike(opening, loop.separator):
            continue  # the skeleton opens the first document ("Document: 0"): the loop starts with the slot
        firsts = [first_counter(region, loop) for region in fact.regions]
        if any(first is None or first[0] == 0 for first in firsts) or len({f[1] for f in firsts if f}) != 1:
            continue
        starts = [first[0] for first in firsts if first is not None]
        return _cut(pieces, index, starts, len(loop.separator), fact)
    return None


def _cut(pieces: list[Piece], index: int, starts: list[int], width: int, fact: _SlotFacts) -> list[Piece]:
    """The pieces with gap ``index`` cut in three where a run of ``width`` tokens that every text's gap holds
    starts (``starts``, token indices): the head a slot of its own, the run a constant (a loop's separator,
    blank lines), the tail a slot of its own."""
    gap = pieces[index]
    assert isinstance(gap, Gap)
    shown = fact.regions[0].tokens[starts[0] : starts[0] + width]
    head = Gap(tuple((start, start + at) for (start, _), at in zip(gap.ranges, starts, strict=True)))
    tail = Gap(tuple((start + at + width, end) for (start, end), at in zip(gap.ranges, starts, strict=True)))
    return [*pieces[:index], head, Constant(shown), tail, *pieces[index + 1 :]]


def _question_cut(
    pieces: list[Piece], gaps: list[int], facts: list[_SlotFacts], loops: list[Loop | None]
) -> list[Piece] | None:
    """The pieces with a documents slot's first item cut off as a slot of its own, when the template found
    no question and that item is the user's words: a question line laid out as the documents' lines are
    ("QUESTION: '…'" then "PASSAGE: '…'" lines) is the loop's first item to the alignment."""
    for index, fact, loop in zip(gaps, facts, loops, strict=True):
        if loop is None or loop.counters or not fact.last_user:
            continue
        items = [documents(region, loop) for region in fact.regions]
        split = [[text for text, _ in found] for found in items if found is not None and len(found) > 1]
        firsts = [first_separator(region, loop) for region in fact.regions]
        if len(split) < len(items) or None in firsts or len({first[1] for first in firsts if first}) != 1:
            continue
        if not _first_asks(split):
            continue
        starts = [first[0] for first in firsts if first is not None]
        return _cut(pieces, index, starts, len(loop.separator), fact)
    return None


def _turn_cut(
    pieces: list[Piece], gaps: list[int], facts: list[_SlotFacts], loops: list[Loop | None]
) -> list[Piece] | None:
    """The pieces with a documents slot's first item cut off as a slot of its own, when the template found no
    question, the loop's separator opens messages of its own roles (a tool call and its result) and the
    slot starts in a message of another role (the user's): that message is no item of the loop, though the
    alignment joined it to the documents after it (the same separator follows it in every prompt)."""
    for index, fact, loop in zip(gaps, facts, loops, strict=True):
        if loop is None or not fact.last_user:
            continue
        opened = {token for token in loop.separator if token.startswith(MARK_OPEN)}
        turns = [token for token in fact.before if token.startswith(MARK_OPEN)]
        if not opened or not turns or turns[-1] in opened:
            continue
        firsts = [first_separator(region, loop) for region in fact.regions]
        if None in firsts or len({first[1] for first in firsts if first}) != 1:
            continue
        # At the message's end: marks the separator took in before it ("?") end the user's words.
        turn = next(at for at, token in enumerate(loop.separator) if token.startswith(MARK_OPEN))
        starts = [first[0] + turn for first in firsts if first is not None]
        return _cut(pieces, index, starts, len(loop.separator) - turn, fact)
    return None


def _first_asks(items: list[list[str]]) -> bool:
    """The loop's first item in every prompt is the question, not a document: it varies, it is never one of
    the other items of any prompt while those recur across prompts (documents come back in other company
    and order, the question stays first), it is shorter than they are, and the documents retrieved for it
    share its words clearly more than they share one another's."""
    firsts = [normalized(found[0]) for found in items]
    others = [[normalized(text) for text in found[1:]] for found in items]
    elsewhere = [text for found in others for text in found]
    recurring = any(elsewhere.count(text) > 1 for text in set(elsewhere))
    if len(set(firsts)) <= _FEW_VALUES or not recurring or set(firsts) & set(elsewhere):
        return False
    if sum(map(len, firsts)) / len(firsts) * 2 > sum(map(len, elsewhere)) / len(elsewhere):
        return False
    asked = sum(_share(first, " ".join(rest)) for first, rest in zip(firsts, others, strict=True)) / len(
        items
    )
    among = [
        _share(text, " ".join(rest[:n] + rest[n + 1 :]))
        for rest in others
        if len(rest) > 1
        for n, text in enumerate(rest)
    ]
    mutual = sum(among) / len(among) if among else 0.0
    return asked >= _QUESTION_SHARE and asked - mutual >= _QUESTION_LEAD


def _question_after(
    pieces: list[Piece], gaps: list[int], facts: list[_SlotFacts], loops: list[Loop | None]
) -> list[Piece] | None:
    """The pieces with a documents slot's last paragraph cut off as a slot of its own, when the template
    found no question, the slot ends the last user message, and that paragraph is the user's words: a
    question appended after the last document with only a blank line ("…Excerpt: …\\n\\nhow do I …") is,
    to the alignment, the last document's last paragraph. It is the question when, in every prompt, it is
    one line after the same blank lines, it varies, no prompt's documents ever hold it, and the documents
    before it end where documents end: the last one comes back whole, in other company, elsewhere."""
    for index, fact, loop in zip(gaps, facts, loops, strict=True):
        ends_message = not fact.after or fact.after[0].startswith(MARK_OPEN)
        if loop is None or loop.closed or not fact.last_user or not ends_message:
            continue
        breaks = [cut for region in fact.regions if (cut := _last_blank_lines(region)) is not None]
        if len(breaks) != len(fact.regions) or len({width for _, width in breaks}) != 1:
            continue
        regions = list(zip(fact.regions, breaks, strict=True))
        tails = [normalized(region.span(at + width, len(region.tokens))) for region, (at, width) in regions]
        split = [documents(tokenize(region.span(0, at)), loop) for region, (at, _) in regions]
        read = [texts for texts in split if texts]
        if len(read) != len(split) or not _tail_asks(tails, read, loop.weak):
            continue
        return _cut(pieces, index, [at for at, _ in breaks], breaks[0][1], fact)
    return None


def _last_blank_lines(region: Tokens) -> tuple[int, int] | None:
    """Where the region's last run of two line breaks or more starts (token index) and how many tokens it
    has, when one line with words follows it; else None."""
    tokens = region.tokens
    end = len(tokens)
    at = end
    while at > 0 and tokens[at - 1] != "\n":
        at -= 1
    if at == end or not region.span(at, end).strip():
        return None
    start = at
    while start > 0 and tokens[start - 1] == "\n":
        start -= 1
    width = at - start
    return (start, width) if width >= 2 and start > 0 else None


def _tail_asks(tails: list[str], split: list[list[tuple[str, str]]], weak: bool) -> bool:
    """The last paragraphs are the user's words, not the end of the last document: they vary, no prompt's
    documents hold one, and the documents before them end where documents end. Either some prompt's last
    document comes back whole in another prompt, not last; or the loop's separator is more than blank lines
    and no document of the window ever breaks into paragraphs, so the one blank-line break every prompt has
    after its last document is the template's, not the document's (``weak``: documents joined by blank lines
    alone, where a paragraph break and a document boundary look the same)."""
    texts = [[normalized(text) for text, _ in found] for found in split]
    everything = " ".join(text for found in texts for text in found)
    if len(set(tails)) <= _FEW_VALUES or any(not tail or tail in everything for tail in tails):
        return False
    earlier = {text for found in texts for text in found[:-1]}
    if any(found[-1] in earlier for found in texts):
        return True
    raw = [text for found in split for text, _ in found]
    return (
        not weak and len(raw) - len(split) >= _FEW_VALUES and not any(_PARAGRAPH.search(text) for text in raw)
    )


def _facts(texts: Sequence[Tokens], pieces: list[Piece], index: int) -> _SlotFacts:
    gap = pieces[index]
    assert isinstance(gap, Gap)
    before = pieces[index - 1] if index > 0 else None
    after = pieces[index + 1] if index + 1 < len(pieces) else None
    contents = gap_texts(texts, gap)
    first = texts[0]
    start = first.starts[gap.ranges[0][0]]
    opened = first.text.rfind(MARK_OPEN, 0, start + 1)
    role = first.text[opened + 1 : first.text.find(MARK_CLOSE, opened)] if opened >= 0 else ""
    later_user = first.text.find(marker(Role.USER.value), start) >= 0
    before_tokens = before.tokens if isinstance(before, Constant) else ()
    after_tokens = after.tokens if isinstance(after, Constant) else ()
    whole = (
        bool(before_tokens)
        and before_tokens[-1].startswith(MARK_OPEN)
        and (not after_tokens or after_tokens[0].startswith(MARK_OPEN))
    )
    stripped = [content.strip() for content in contents]
    return _SlotFacts(
        contents=contents,
        regions=[tokenize(content) for content in contents],
        before=before_tokens,
        after=after_tokens,
        role=role,
        last_user=role == Role.USER.value and not later_user,
        whole_message=whole,
        crosses=any(MARK_OPEN in content for content in contents),
        multi_line=any("\n" in content for content in stripped),
        json_string=_in_json(texts, gap),
        distinct=len(set(stripped)),
        mean_length=sum(len(content) for content in stripped) / len(stripped),
    )


def _in_json(texts: Sequence[Tokens], gap: Gap) -> bool:
    """Every text's message around the gap holds a JSON value that spans the gap: the whole message, or a
    value pasted on lines of its own after some prose ("Context:\\n[{…}]"). The gap's text is then a JSON
    string's, escaped: its documents are read decoded, as the retriever gave them."""
    for text, (start, end) in zip(texts, gap.ranges, strict=True):
        at, until = text.starts[start], text.starts[end]
        opened = text.text.rfind(MARK_CLOSE, 0, at + 1)
        closed = text.text.find(MARK_OPEN, at)
        if not _json_around(text.text, opened + 1, closed if closed >= 0 else len(text.text), at, until):
            return False
    return True


def _json_around(text: str, start: int, end: int, at: int, until: int) -> bool:
    """Whether ``text[start:end]`` (a message) is one JSON array or object, or holds one that opens a line
    before ``at`` and closes after ``until``: the first few lines that open with a bracket (after their
    indent) are tried."""
    value = parse_json(text[start:end])
    if value is not None:
        return isinstance(value, dict | list)
    decoder = json.JSONDecoder()
    line, tried = start, 0
    while line < at and tried < _JSON_OPENINGS:
        opening = line
        while opening < at and text[opening] in " \t":
            opening += 1  # an indented line ("    {…}" in an indented prompt) opens with its bracket
        if text[opening] in "[{":
            tried += 1
            try:
                value, stop = decoder.raw_decode(text[:end], opening)
            except (ValueError, RecursionError):  # not JSON, or nested deeper than Python's stack
                value, stop = None, 0
            if isinstance(value, dict | list) and stop >= until:
                return True
        following = text.find("\n", line, at)
        if following < 0:
            return False
        line = following + 1
    return False


def _question_slot(facts: list[_SlotFacts], loops: list[Loop | None], questions: Sequence[str]) -> int | None:
    recorded = [(n, normalized(q)) for n, q in enumerate(questions) if q.strip()]
    if recorded and len(recorded) * 2 >= len(questions):
        for number, fact in enumerate(facts):
            same = sum(normalized(fact.contents[n]) == q for n, q in recorded)
            if same * 5 >= len(recorded) * 4:
                return number
        return None
    candidates = [
        number
        for number, (fact, loop) in enumerate(zip(facts, loops, strict=True))
        if not fact.crosses
        and fact.distinct > 1
        and not _few(fact)
        and (loop is None or loop.weak)
        and fact.mean_length
        and not _record_key(number, facts)
    ]
    asking = [number for number in candidates if facts[number].last_user]
    whole = [number for number in asking if facts[number].whole_message]
    if whole:
        return whole[-1]
    if not asking and (said := _whole_last_user(facts)) is not None:
        # The user's own message, whole, with marks it repeats ("*walks in.* Where…"): the user's words,
        # never the other messages' text (a system message's lore).
        return said
    chosen = asking or candidates
    # The question quoted again ('the query: "…"' after the documents) is one question written twice: the
    # last of the slots holding the same words stands for them all.
    # Written again in another case or without its marks in some prompts (a search query made from the
    # question): the earlier slot holds the user's words as the user wrote them.
    chosen = [
        number
        for at, number in enumerate(chosen)
        if not any(_rewritten(facts[number], facts[earlier]) for earlier in chosen[:at])
    ]
    chosen = [
        number
        for at, number in enumerate(chosen)
        if not any(_copies(facts[number], facts[later]) for later in chosen[at + 1 :])
    ]
    worded = [number for number in chosen if _worded(facts[number])]
    if len(worded) == 1:
        return worded[0]  # beside counts and dates ("Found 3 chunks"), which never are a question
    asks = [number for number in chosen if _asks(facts[number])]
    if len(asks) == 1:
        return asks[0]
    echoed = [
        number
        for number in chosen
        if any(
            _copies(facts[other], facts[number], loose=True) for other in range(len(facts)) if other != number
        )
    ]
    if echoed:
        # The prompt writes these words again in another case or with other marks (a search call's query
        # written from the question): the user's words, first where the user wrote them; a date is never
        # quoted again.
        return echoed[0]
    short = [number for number in chosen if facts[number].mean_length < _DOCUMENT_LENGTH]
    if len(short) > 1:
        return _retrieved_by(short, facts)
    return min(chosen, key=lambda number: facts[number].mean_length) if chosen else None


def _whole_last_user(facts: list[_SlotFacts]) -> int | None:
    """The slot that is the whole last user message in every prompt and varies, if one is."""
    whole = [
        number
        for number, fact in enumerate(facts)
        if fact.last_user and fact.whole_message and not fact.crosses and fact.distinct > 1 and not _few(fact)
    ]
    return whole[-1] if whole else None


def _record_key(number: int, facts: list[_SlotFacts]) -> bool:
    """The slot never asks and, in most prompts, the next slot opens with its value (a record's name that
    its path repeats: "Source: faq" then "/docs/faq.md"): that is a field of the first document, which the
    alignment split off because the records before it differ, not the user's words. A record's fields stand
    in one message."""
    fact = facts[number]
    if number + 1 >= len(facts) or _asks(fact) or any(token.startswith(MARK_OPEN) for token in fact.after):
        return False  # the next slot in a later message (a search call written from the question): no record
    following = facts[number + 1].contents
    echoed = sum(
        bool(value := content.strip()) and nxt.lstrip().startswith(value)
        for content, nxt in zip(fact.contents, following, strict=True)
    )
    return echoed * 5 >= len(fact.contents) * 4


def _worded(fact: _SlotFacts) -> bool:
    """The slot holds a word in most prompts, not only numbers and marks."""
    worded = sum(any(character.isalpha() for character in content) for content in fact.contents)
    return worded * 5 >= len(fact.contents) * 4


def _asks(fact: _SlotFacts) -> bool:
    """The slot's contents end with a question mark in most prompts: where several slots could hold the
    user's words, a shorter one that never asks (a line of a document the alignment took apart) is not
    the question."""
    asking = sum(content.rstrip()[-1:] in QUESTION_MARKS for content in fact.contents)
    return asking * 5 >= len(fact.contents) * 4


def _retrieved_by(chosen: list[int], facts: list[_SlotFacts]) -> int | None:
    """Of several short slots where the user's words could be (a date and the question, a user name and the
    question), the one whose words the prompt's other varying text shares most: documents are retrieved for
    the question, not for the date. None when no slot clearly leads: the template then names no question."""
    shares = sorted(((_shared_words(number, facts), number) for number in chosen), reverse=True)
    (best, number), (second, _) = shares[0], shares[1]
    if best >= _QUESTION_SHARE and best - second >= _QUESTION_LEAD:
        return number
    # Words every prompt's documents hold alike (the characters of a date in Chinese, "2025") lift no slot:
    # the question's words are its own prompt's documents' more than other prompts' documents'.
    lifts = sorted(((_lift(number, facts), number) for number in chosen), reverse=True)
    (best, number), (second, _) = lifts[0], lifts[1]
    return number if best >= _LIFT and best - second >= _LIFT else None


def _shared_words(number: int, facts: list[_SlotFacts]) -> float:
    """The mean share of a slot's words, prompt by prompt, that the other slots' contents hold."""
    shares: list[float] = []
    for prompt, content in enumerate(facts[number].contents):
        elsewhere = " ".join(fact.contents[prompt] for other, fact in enumerate(facts) if other != number)
        shares.append(_share(content, elsewhere))
    return sum(shares) / len(shares) if shares else 0.0


def _lift(number: int, facts: list[_SlotFacts]) -> float:
    """How much more of a slot's words, prompt by prompt, the prompt's other slots hold than other prompts'
    other slots do, where the slot holds something else: what was retrieved for its words, not any text."""
    contents = facts[number].contents
    elsewhere = [
        " ".join(fact.contents[prompt] for other, fact in enumerate(facts) if other != number)
        for prompt in range(len(contents))
    ]
    lifts: list[float] = []
    for prompt, content in enumerate(contents):
        others = [
            _share(content, text)
            for at, text in enumerate(elsewhere)
            if normalized(contents[at]) != normalized(content)
        ]
        if others:
            lifts.append(_share(content, elsewhere[prompt]) - sum(others) / len(others))
    return sum(lifts) / len(lifts) if lifts else 0.0


def _share(text: str, other: str) -> float:
    """The share of ``text``'s words that ``other`` holds."""
    words = set(_WORD.findall(text.lower()))
    return len(words & set(_WORD.findall(other.lower()))) / len(words) if words else 0.0


def _copies(fact: _SlotFacts, question: _SlotFacts, loose: bool = False) -> bool:
    """The slot holds the question's words in most prompts; ``loose``: its words in any case, with any
    marks and escaping around them (a search query written from the question), not only as written."""
    same = sum(
        bool(words := _words_of(a)) and words == _words_of(b) if loose else normalized(a) == normalized(b)
        for a, b in zip(fact.contents, question.contents, strict=True)
    )
    return same * 5 >= len(fact.contents) * 4


def _widens(fact: _SlotFacts, question: _SlotFacts) -> bool:
    """In most prompts the slot holds the question's words in any case and marks, all of them in a row,
    with a word or two more at most (a search query written from the question: "returns policy 2024"): the
    user's words again, never retrieved documents."""
    widened = 0
    for content, asked in zip(fact.contents, question.contents, strict=True):
        words, question_words = _words_of(content).split(), _words_of(asked).split()
        width = len(question_words)
        widened += (
            bool(question_words)
            and any(words[at : at + width] == question_words for at in range(len(words) - width + 1))
            and len(words) - width <= _QUERY_EXTRA
        )
    return widened * 5 >= len(fact.contents) * 4


def _rewritten(fact: _SlotFacts, question: _SlotFacts) -> bool:
    """The slot holds the question's words in most prompts, and other marks or case in some."""
    return _copies(fact, question, loose=True) and any(
        normalized(a) != normalized(b) for a, b in zip(fact.contents, question.contents, strict=True)
    )


def _ends_asking(fact: _SlotFacts, question: _SlotFacts) -> bool:
    """In most prompts the slot ends with the question's words, after other lines in some: a transcript of
    the conversation, whose last turn is the user's question asked again below; a search's documents end
    with their own text."""
    pairs = list(zip(fact.contents, question.contents, strict=True))
    ending = sum(bool(normalized(b)) and normalized(a).endswith(normalized(b)) for a, b in pairs)
    longer = any(len(normalized(a)) > len(normalized(b)) for a, b in pairs)
    return longer and ending * 5 >= len(pairs) * 4


def _quotes_users(fact: _SlotFacts, asked: Sequence[Sequence[str]]) -> bool:
    """In most prompts the slot holds only what the user wrote in that request, this turn or an earlier one,
    quoted in any JSON escaping (a search intent listing the conversation's questions): never documents."""
    if len(asked) != len(fact.contents):
        return False
    quoting = sum(
        bool(words := _words_of(content)) and not _left_over(words, [_words_of(text) for text in users])
        for content, users in zip(fact.contents, asked, strict=True)
    )
    return quoting * 5 >= len(fact.contents) * 4


def _words_of(text: str) -> str:
    """The text's words, one blank between them, after undoing the JSON string escaping it may be in (twice
    for a JSON value encoded inside another's string)."""
    for _ in range(_ESCAPINGS):
        try:
            unescaped = json.loads(f'"{text}"')
        except ValueError:
            break
        if not isinstance(unescaped, str) or unescaped == text:
            break
        text = unescaped
    return " ".join(_ANY_WORD.findall(text.lower()))


def _left_over(words: str, users: list[str]) -> bool:
    """Words remain once every user message's words are taken out where they occur whole."""
    words = f" {words} "
    for user in sorted((user for user in users if user), key=len, reverse=True):
        while f" {user} " in words:
            words = words.replace(f" {user} ", " ")
    return bool(words.strip())


def _list_literal(fact: _SlotFacts, loop: Loop | None) -> bool:
    """The slot stands between a list's brackets and holds quoted strings only in every prompt (a Python
    list of texts formatted into the prompt, a JSON array of strings), and no loop reads it, or one would
    read the strings with their escapes: its strings, decoded, are its documents. A loop that reads them as
    written knows more (a label the template writes in each string: "559|…")."""
    opening, closing = "".join(fact.before), "".join(fact.after)
    escaped = loop is None or any("\\" in content for content in fact.contents)
    return (
        escaped
        and any(content.strip() for content in fact.contents)
        and all(literal_strings(opening, content, closing) is not None for content in fact.contents)
    )


def _holds_documents(fact: _SlotFacts, loop: Loop | None) -> bool:
    if loop is not None:
        return True
    return not _few(fact) and fact.mean_length >= _DOCUMENT_LENGTH


def _few(fact: _SlotFacts) -> bool:
    """The slot holds a few values over and over (an instruction's variants, a mode): neither the user's
    words nor retrieved documents."""
    return fact.distinct <= _FEW_VALUES and len(fact.contents) >= 3 * _FEW_VALUES


def _label(before: tuple[str, ...]) -> str:
    """The skeleton's last words before a slot, as a person reads them."""
    lines = _last_lines(before, 1)
    return lines[-1][-80:] if lines else ""


def _last_lines(before: tuple[str, ...], count: int) -> list[str]:
    """The skeleton's last ``count`` lines with text before a slot, within its message."""
    text = "".join(before)
    text = text[text.rfind(MARK_CLOSE) + 1 :] if MARK_CLOSE in text else text
    return [line.strip() for line in text.splitlines() if line.strip()][-count:]
