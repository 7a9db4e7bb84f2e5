"""Two readings of the documents pasted into a prompt, one verdict.

The learnt template of the prompt's place and the structure rules each read it. When they agree, or only the
template reads and it is sure (its documents slot splits at a separator with marks, not blanks only), its
reading is the context; when both read and differ, neither is, and the request says so with both readings. A
prompt no learnt template fits yet is pending: the caller holds it while its template may still be learnt
(the first prompts of a template, a new version after a deploy), and past that scores it only on a reading
of the rules that found documents.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Final

from ragpulse_core.store import Store

from ragpulse_assembly.learnt.consistency import Evidence
from ragpulse_assembly.learnt.learner import TemplateLearner
from ragpulse_assembly.learnt.storage import stored_templates
from ragpulse_assembly.learnt.template import TemplateReading
from ragpulse_assembly.learnt.turns import TurnEvidence
from ragpulse_assembly.model import Message, Role, Span, normalized
from ragpulse_assembly.prompt_context import PromptReading, current_turn, read_prompt
from ragpulse_assembly.settings import TemplateSettings

_UNDIVIDED: Final = (
    "learnt template: the documents slot holds several documents at times and no separator splits them"
    " exactly (documents joined by a bare line break, with line breaks of their own)"
)
_UNCLEAR_TITLES: Final = (
    "learnt template: each document opens with a line that may be a title the template writes or the"
    " document's own first line (a line that asks, a short heading), or with a field the template writes"
    " for some documents only, and one template cannot tell where the document begins"
)
_MODELS_WORDS: Final = (
    "learnt template: the slot taken for the question holds words the model wrote earlier in this request"
    " ({question}: an argument of its own call, echoed back with the result), never the user's"
)
_ECHOED: Final = 6
"""Characters a question has at least before it is looked for in the model's earlier messages."""
_LEFT_OUT: Final = 80
"""Characters of a documents slot that a reading may leave out in one stretch (a title, a label)."""
_CUE: Final = 24
"""Characters of the template's own cue the rules' question may hold after the template's ("Antwort:")."""
_SHOWN: Final = 60
"""Characters of each document a disagreement quotes."""
_PIECE_ENDS: Final = re.compile(r"(?<=[.!?;:。！？；：])\s|\n|[^\w\s]{3,}")
"""Where a question the rules read is cut to be found in the template's text or its documents: sentence
ends, line breaks and runs of marks (a fence of quotes, a rule)."""
_MOST_PIECES: Final = 64
"""Pieces of a question looked up in the template's text and documents, at most."""
_MOST_OVERLAPS: Final = 64
"""Places in the last document where a rules' question may start that are tried, at most: bounded work on
text that repeats itself."""


@dataclass(frozen=True)
class Readers:
    """How pasted documents are read: the learnt templates (None: not learnt), the structure rules (off:
    the learnt templates alone)."""

    templates: TemplateLearner | None = None
    rules: bool = True
    evidence: Evidence = field(default_factory=Evidence, compare=False)
    """What each place's requests showed, that a reading must agree with."""
    turns: TurnEvidence = field(default_factory=TurnEvidence, compare=False)
    """Per place, its requests' earlier exchanges: documents given as turns, or chat history."""


RULES_ONLY: Final = Readers()


@dataclass(frozen=True)
class PastedReading:
    chunks: tuple[str, ...]
    question: str
    not_separable: bool = False
    disagreement: str = ""
    """Both readings, when they disagree: the request is not scored."""
    pending: bool = False
    """No learnt template fits the prompt yet."""
    version: str = ""
    """The learnt template that read the prompt."""
    turn: tuple[Message, ...] = ()
    """The messages read, where they are not the current turn (documents given as earlier turns)."""


def template_readers(settings: TemplateSettings, store: Store) -> Readers:
    """The readers a worker assembles with: its learnt templates (starting from every version stored, so a
    pinned one is known however old) and the structure rules, as ``[assembly.templates]`` says."""
    if not settings.learn:
        return RULES_ONLY
    stored = stored_templates(store, datetime.fromtimestamp(0, UTC))
    # Oldest first: the places keep the versions read last when they hold more than they may.
    known = [found.template for found in sorted(stored, key=lambda found: found.last_seen)]
    return Readers(TemplateLearner(settings, known), settings.rules)


def read_pasted(
    generator: Span, known_question: str, recorded_question: str, readers: Readers = RULES_ONLY
) -> PastedReading:
    """The documents pasted into ``generator``'s prompt and the question in it. ``known_question`` is never
    a document (the rules' reading); ``recorded_question`` is what a chain span recorded, which names the
    template's question slot."""
    rules = read_prompt(generator.messages, known_question=known_question) if readers.rules else None
    if readers.templates is None:
        return _from_rules(rules)
    head = [message for message in generator.messages if message.role is Role.SYSTEM]
    documents_turn = readers.turns.documents_turn(
        generator.service_name, place(generator.name, head), generator.messages
    )
    if documents_turn is None:
        asked = [message.text for message in generator.messages if message.role is Role.USER]
        turn = current_turn(generator.messages)
        return _read_turn(generator, turn, asked, rules, recorded_question, readers.templates)
    # A document's turn is no words of the user's, whatever role the service sent it under.
    asked = [message.text for message in documents_turn if message.role is Role.USER]
    pasted = _read_turn(generator, documents_turn, asked, rules, recorded_question, readers.templates)
    return replace(pasted, turn=tuple(documents_turn))


def _read_turn(
    generator: Span,
    turn: list[Message],
    asked: list[str],
    rules: PromptReading | None,
    recorded_question: str,
    templates: TemplateLearner,
) -> PastedReading:
    """The learnt template's reading of ``turn`` (the messages it reads; ``asked``: what the user wrote,
    earlier turns included) held against the rules'."""
    lookup = templates.lookup(
        generator.service_name, place(generator.name, turn), turn, recorded_question, asked
    )
    learnt = lookup.reading
    if learnt is None:
        found = _from_rules(rules)
        return PastedReading(found.chunks, found.question, found.not_separable, pending=lookup.unlearnt)
    if _models_words(learnt.question, generator.messages, recorded_question):
        return PastedReading(
            (),
            "",
            disagreement=_MODELS_WORDS.format(question=_quoted(learnt.question)),
            version=learnt.version,
        )
    if learnt.unclear:
        return PastedReading((), learnt.question, disagreement=_UNCLEAR_TITLES, version=learnt.version)
    if rules is None:
        if learnt.undivided:
            return PastedReading(
                (), learnt.question, disagreement=_UNDIVIDED, pending=True, version=learnt.version
            )
        return PastedReading(learnt.chunks, learnt.question, version=learnt.version)
    if not learnt.question and _not_asked(rules.question, learnt):
        # The template found no slot for the user's words and the rules took its own text (an answer cue) or
        # the whole prompt for the question: no question, whatever the documents.
        return PastedReading(learnt.chunks, "", version=learnt.version)
    question = learnt.question or rules.question
    agree = [normalized(c) for c in learnt.chunks] == [normalized(c) for c in rules.chunks]
    mine, theirs = normalized(learnt.question), normalized(rules.question)
    asked_alike = (
        not (learnt.question and rules.question) or mine == theirs or _labelled(learnt, rules.question)
    )
    if agree and (asked_alike or rules.guessed):
        return PastedReading(learnt.chunks, question, version=learnt.version)
    # A template that found no slot for the user's words has not told its own text from the documents (a
    # prompt after a deploy read by the version before, instructions in the documents slot): never sure.
    sure = not learnt.weak and not learnt.undivided and bool(learnt.question)
    if sure and (
        _refines(learnt, rules) or _headers_read(learnt, rules) or _first_lines_dropped(learnt, rules)
    ):
        return PastedReading(learnt.chunks, learnt.question, version=learnt.version)
    # The rules read surely unless they split as documents' own text is laid out, took the template's own
    # text for a document (a few-shot example, the answer cue after the last document), joined two of the
    # template's documents in one, or left a document out. Texts evaluated out of a printed list are sure:
    # unescaped, they lie in no slot as they are.
    outside = any(not any(normalized(c) in region for region in learnt.regions) for c in rules.chunks)
    merged = sure and (_merges(rules.chunks, learnt.chunks) or _between_items(rules.chunks, learnt))
    rules_read = bool(rules.chunks) and (
        rules.printed or (not rules.guessed and not outside and not merged and _covers(rules.chunks, learnt))
    )
    # The rules' question holding the template's (the whole prompt, its tail), held in it (without its
    # label) or pieced from the template's own text and its documents is no other question; any other says
    # the template's question slot may hold other text (a date, a name).
    asked_within = (
        asked_alike or rules.guessed or mine in theirs or theirs in mine or _pieced(theirs, learnt)
    ) and not _asked_in_documents(learnt, theirs)
    if (
        learnt.chunks
        and not learnt.undivided
        and (sure or not rules.chunks)
        and not rules_read
        and asked_within
    ):
        # Only the learnt template reads the prompt surely: the rules found nothing, or split it only as
        # documents' own text is laid out (paragraphs, lines, a list).
        return PastedReading(learnt.chunks, question, version=learnt.version)
    return PastedReading(
        (),
        question if asked_alike else "",
        disagreement=_UNDIVIDED
        if learnt.undivided
        else _both(learnt.version, learnt.chunks, learnt.question, rules),
        pending=learnt.undivided,
        version=learnt.version,
    )


def _models_words(question: str, messages: Sequence[Message], recorded: str) -> bool:
    """The learnt question stands, between word boundaries, in an assistant message before the user's last
    message, and is neither that whole message nor the question a chain span recorded: what the template's
    slot holds there is the model's own words handed back (an agent's tool result turn naming the file it
    asked for), not the user's. A user repeating the model's words writes them as the whole message; a
    model writing the user's question again (a search call) writes it after the user did."""
    asked = normalized(question)
    if len(asked) < _ECHOED or asked == normalized(recorded):
        return False
    users = [at for at, message in enumerate(messages) if message.role is Role.USER]
    if not users or normalized(messages[users[-1]].text) == asked:
        return False
    pattern = re.compile(rf"(?<!\w){re.escape(asked)}(?!\w)")
    return any(
        message.role is Role.ASSISTANT and pattern.search(normalized(message.text))
        for message in messages[: users[-1]]
    )


def _labelled(learnt: TemplateReading, question: str) -> bool:
    """The rules' question is the template's after a label of the template's own text ("प्रश्न: ",
    "Ερώτηση:") or between its quotes (three double quotes, "「…」"): the label and the quotes are the
    skeleton's, in whatever language, so both read the same words."""
    mine, asked = normalized(learnt.question), normalized(question)
    at = asked.find(mine) if mine else -1
    if at < 0:
        return False
    label, closing = asked[:at].strip(), asked[at + len(mine) :].strip()
    return bool(label or closing) and all(
        len(part) <= _CUE and part in learnt.skeleton for part in (label, closing)
    )


def _asked_in_documents(learnt: TemplateReading, asked: str) -> bool:
    """The rules' question (whitespace collapsed) opens with the end of the template's last document, a
    line's worth of it or more, and goes on past it: the template's documents slot ran on over what the
    rules read as the question's label and words, so its own question slot holds other text (a date, a
    name). A rules' question that is the last document's end alone is the rules' misreading, not this."""
    if not learnt.chunks or len(asked) < _CUE:
        return False
    last = normalized(learnt.chunks[-1])
    at = last.find(asked[:_CUE], max(0, len(last) - len(asked)))
    for _ in range(_MOST_OVERLAPS):
        if at < 0:
            return False
        if asked.startswith(last[at:]):
            return len(asked) - (len(last) - at) > _CUE
        at = last.find(asked[:_CUE], at + 1)
    return False


def _not_asked(question: str, learnt: TemplateReading) -> bool:
    """The rules' question is the template's own text or holds its documents: no words of the user's."""
    asked = normalized(question)
    return bool(asked) and (
        asked in learnt.skeleton or any(region and region in asked for region in learnt.regions)
    )


def _pieced(question: str, learnt: TemplateReading) -> bool:
    """Every sentence of ``question`` (whitespace collapsed) is the template's own text or a document's: the
    rules took the prompt's text for a question, not other words of the user's."""
    pieces = [piece.strip() for piece in _PIECE_ENDS.split(question) if piece.strip()]
    if len(pieces) > _MOST_PIECES:
        return False  # bounded work on a question as long as a prompt: not told, so not pieced
    return bool(pieces) and all(
        piece in learnt.skeleton or any(piece in region for region in learnt.regions) for piece in pieces
    )


def _refines(learnt: TemplateReading, rules: PromptReading) -> bool:
    """The template's reading is the rules' with the template's own header text left out: the same
    documents, each of the rules' holding the template's one whole and nothing beyond the loop's item it was
    read from (its header line: "Umzug, Stand 15.11.2024:"), and the same question, or the rules' with a
    short cue after it ("Antwort:")."""
    if (
        not learnt.chunks
        or len(learnt.chunks) != len(rules.chunks)
        or len(learnt.items) != len(learnt.chunks)
    ):
        return False
    for mine, theirs, item in zip(learnt.chunks, rules.chunks, learnt.items, strict=True):
        theirs = normalized(theirs)
        if normalized(mine) not in theirs or theirs not in item:
            return False
    question, asked = normalized(learnt.question), normalized(rules.question)
    return (
        not asked or asked == question or (asked.startswith(question) and len(asked) - len(question) <= _CUE)
    )


def _headers_read(learnt: TemplateReading, rules: PromptReading) -> bool:
    """The rules' documents are the template's, in order, with short ones between them that lie in the
    template's items but in none of its documents: values of the header the template writes before each
    document ("Source: desktop-app.md"), read by the rules as documents of their own."""
    mine = [normalized(chunk) for chunk in learnt.chunks]
    theirs = [normalized(chunk) for chunk in rules.chunks]
    if not mine or len(theirs) <= len(mine) or len(learnt.items) != len(mine):
        return False
    extra = [chunk for chunk in theirs if chunk not in mine]
    return (
        [chunk for chunk in theirs if chunk in mine] == mine
        and len(extra) == len(theirs) - len(mine)
        and all(
            len(chunk) <= _LEFT_OUT
            and any(chunk in item for item in learnt.items)
            and not any(chunk in document for document in mine)
            for chunk in extra
        )
    )


def _first_lines_dropped(learnt: TemplateReading, rules: PromptReading) -> bool:
    """The rules' documents are the template's, in order, some without their first line (a markdown heading
    the rules take for a title): where the template's loop read that line inside the document's own text
    with the marks that open it (between its tags, no title field of the template's), it is the document's,
    and the rules dropped it. A line the template's reading opens with a word is a title the template wrote
    marks before ("## {title}"), which the rules may rightly drop. The question must be the same."""
    if (
        len(learnt.chunks) != len(rules.chunks)
        or normalized(learnt.question) != normalized(rules.question)
        or len(learnt.items) != len(learnt.chunks)
    ):
        return False
    dropped = 0
    for mine, theirs in zip(learnt.chunks, rules.chunks, strict=True):
        if normalized(mine) == normalized(theirs):
            continue
        first, _, rest = mine.strip().partition("\n")
        if (
            not rest.strip()
            or len(first) > _LEFT_OUT
            or first[:1].isalnum()
            or normalized(rest) != normalized(theirs)
        ):
            return False
        dropped += 1
    return dropped > 0


def _merges(chunks: tuple[str, ...], documents: tuple[str, ...]) -> bool:
    """One of the rules' documents holds the ends of two of the template's: the rules missed a boundary the
    template's separator (or the documents' recurrence) shows."""
    endings = [normalized(document)[-_SHOWN:] for document in documents]
    return any(sum(ending in chunk for ending in endings) > 1 for chunk in (normalized(c) for c in chunks))


def _between_items(chunks: tuple[str, ...], learnt: TemplateReading) -> bool:
    """One of the rules' documents lies in none of the template's items, though it holds one's document:
    it runs on over the text the template writes between two documents (a rule line, "Source [2]")."""
    if not learnt.items or len(learnt.items) != len(learnt.chunks):
        return False
    documents = [normalized(document) for document in learnt.chunks]
    for chunk in (normalized(c) for c in chunks):
        if any(document in chunk for document in documents) and not any(
            chunk in item for item in learnt.items
        ):
            return True
    return False


def _covers(chunks: tuple[str, ...], learnt: TemplateReading) -> bool:
    """The rules' documents leave no long stretch of the documents slots out (a whole document missed): what
    they leave is at most a title or a label line."""
    left = " ".join(learnt.regions)
    for chunk in sorted((normalized(c) for c in chunks), key=len, reverse=True):
        left = left.replace(chunk, "\n")
    return all(len(piece.strip()) <= _LEFT_OUT for piece in left.split("\n"))


def place(span_name: str, turn: list[Message]) -> str:
    """Where a prompt is built: the generating call's span name and the roles of its messages in order, a
    run of one role counted once (one message per document is the same place for any number of them), and
    so a run of tool calls each with its result (an assistant turn, a tool turn, again: one document fetched
    per call, where the instrumentation records the calls)."""
    roles: list[str] = []
    called = [Role.ASSISTANT.value, Role.TOOL.value, Role.ASSISTANT.value]
    for message in turn:
        role = message.role.value
        if roles and roles[-1] == role:
            continue
        if role == Role.TOOL.value and roles[-3:] == called:
            roles.pop()
            continue
        roles.append(role)
    return f"{span_name} [{','.join(roles)}]"


def _from_rules(rules: PromptReading | None) -> PastedReading:
    if rules is None:
        return PastedReading((), "")
    return PastedReading(rules.chunks, rules.question, rules.not_separable)


def _both(version: str, chunks: tuple[str, ...], question: str, rules: PromptReading) -> str:
    return (
        f"learnt template {version}: {_documents(chunks)}, question {_quoted(question)}; structure rules: "
        f"{_documents(rules.chunks)}{' (not separable)' if rules.not_separable else ''}, question "
        f"{_quoted(rules.question)}"
    )


def _documents(chunks: tuple[str, ...]) -> str:
    if not chunks:
        return "no documents"
    shown = "; ".join(_quoted(chunk) for chunk in chunks)
    return f"{len(chunks)} document{'s' if len(chunks) > 1 else ''} ({shown})"


def _quoted(text: str) -> str:
    flat = normalized(text)
    return "«" + (flat if len(flat) <= _SHOWN else flat[: _SHOWN - 1] + "…") + "»" if flat else "none"
