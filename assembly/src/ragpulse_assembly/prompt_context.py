"""Documents pasted into a prompt, and the user's own words around them.

Most RAG services retrieve with their own code and paste the documents into the prompt; the prompt is then
the only record of the context. This module reads the layouts seen in the wild, and nothing that merely
looks like a list:

- a context block: a header line that names documents and nothing else ("Context:", "Retrieved documents:",
  "## Sources", "Answer the question using the passages below:", a DSPy ``[[ ## context ## ]]`` section,
  a ``<context>`` tag, a tool's result), whose body is split into numbered (``[1]``, ``1.``, ``(1)``,
  ``Document 1:``), bulleted, ``---``-delimited or «quoted» items, else paragraphs, else lines;
- document labels anywhere ("Document 1: ...", "[1] ...", ``<doc>...</doc>``), numbered from 0 or 1;
- one or many system, user or tool messages of the current turn (demonstrations and history before the last
  assistant message are not the context).

The question is the last user message when it holds no documents; else its "Question: ..." line (or
section), else the one paragraph left once the documents are cut out (or the one of them that asks
something). When that cannot be told, the question is empty: a caller refuses rather than guesses.
Instructions, rules and numbered lists outside a context block are never documents.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ragpulse_assembly.dialects.base import documents_of
from ragpulse_assembly.model import Message, Role, normalized
from ragpulse_assembly.unwrap import parse_json

_CONTEXT_NOUNS: Final = frozenset(
    [
        "context",
        "contexts",
        "document",
        "documents",
        "doc",
        "docs",
        "source",
        "sources",
        "passage",
        "passages",
        "excerpt",
        "excerpts",
        "snippet",
        "snippets",
        "information",
        "info",
        "knowledge",
        "facts",
        "articles",
        "article",
        "evidence",
        "chunks",
        "chunk",
        "references",
        "material",
        "materials",
        "background",
        "records",
    ]
)
_HEADER_FILLER: Final = frozenset(
    [
        "the",
        "a",
        "an",
        "following",
        "below",
        "above",
        "relevant",
        "retrieved",
        "provided",
        "given",
        "some",
        "here",
        "is",
        "are",
        "these",
        "this",
        "those",
        "use",
        "using",
        "of",
        "from",
        "pieces",
        "piece",
        "bits",
        "supporting",
        "additional",
        "available",
        "search",
        "results",
        "top",
        "numbered",
        "set",
        "your",
        "you",
        "can",
        "may",
        "might",
        "to",
        "answer",
        "answering",
        "with",
        "and",
        "for",
        "question",
        "questions",
        "query",
        "user's",
        "user",
        "at",
        "end",
        "in",
        "on",
        "based",
        "only",
        "as",
        "it",
        "that",
        "help",
        "helpful",
        "which",
        "be",
        "useful",
        "retrieval",
        "found",
        "we",
        "have",
        "i",
        "database",
        "corpus",
        "our",
        "reference",
    ]
)
_QUESTION_SECTIONS: Final = frozenset(
    {"question", "query", "q", "input", "user_question", "user_query", "user_input", "question_to_answer"}
)
_QUESTION_LABEL: Final = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*)?(?P<label>(?:the\s+)?(?:user(?:'s)?\s+|current\s+|follow[- ]up\s+)?"
    r"(?:question|query|q|input|user))(?:\*\*)?\s*[:：](?:\*\*)?\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
_QUESTION_SENTENCE: Final = re.compile(
    r"^\s*(?P<label>[^:\n]{0,80}\b(?:question|query))\s*[:：]\s*(?P<rest>.*)$", re.IGNORECASE
)
_ANSWER_CUE: Final = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*)?(?:answer|response|a|final answer|helpful answer|assistant|ai|output)"
    r"(?:\*\*)?\s*[:：]\s*$",
    re.IGNORECASE,
)
"""The prompt's cue for the model ("Answer:" and nothing after it); "Answer: ..." with text is a document's
(a FAQ entry), not the prompt's."""
_STOP_LABEL: Final = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:instructions?|task|guidelines|rules|format|output format|chat history|history|"
    r"conversation|examples?)\s*[:：]?\s*$",
    re.IGNORECASE,
)
_LABEL_LINE: Final = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*)?(?P<label>[^:\n]{1,80}?)(?:\*\*)?\s*[:：]\s*(?P<rest>.*)$"
)
_HEADING: Final = re.compile(r"^\s*#{1,6}\s+(?P<label>[^\n]{1,80}?)\s*#*\s*$")
_DELIMITER: Final = re.compile(r"^\s*(?:-{3,}|={3,}|\*{3,}|_{3,}|~{3,}|#{3,}|`{3,}\w*)\s*$")
_SECTION: Final = re.compile(r"^\s*\[\[ ## (?P<name>[\w ]+?) ## \]\]\s*$")
_ITEM_PATTERNS: Final = (
    # [1] text, [Document 1] text, [doc1] text
    re.compile(
        r"^\s*\[(?:(?:document|doc|source|passage|chunk|context|excerpt|snippet)\s*)?(?P<n>\d+)\]\s*:?\s*"
        r"(?P<rest>.*)$",
        re.I,
    ),
    # Document 1: text, Source [2] (wiki.txt): text, ### Passage 3
    re.compile(
        r"^\s*(?:#{1,6}\s*)?(?:\*\*)?(?:document|doc|source|passage|chunk|context|excerpt|snippet|article|"
        r"result|reference|record)\s*(?:#|no\.?\s*)?\[?(?P<n>\d+)\]?(?:\s*\([^)\n]*\))?(?:\*\*)?\s*"
        r"(?:[:.\-–](?:\*\*)?\s*(?P<rest>.*)|(?P<bare>))$",
        re.I,
    ),
)  # fmt: skip
_LIST_PATTERNS: Final = (
    re.compile(r"^\s*(?P<n>\d+)[.)]\s+(?P<rest>.*)$"),
    re.compile(r"^\s*\((?P<n>\d+)\)\s+(?P<rest>.*)$"),
)
_BULLET: Final = re.compile(r"^\s*[-*•]\s+(?P<rest>.*)$")
_DOC_TAGS: Final = "doc|document|passage|chunk|snippet|excerpt|source|result|article|record"
_CONTAINER_TAGS: Final = (
    "context|documents|sources|passages|search_results|results|knowledge|retrieved_documents|docs"
)
_TAG: Final = re.compile(
    rf"<(?P<tag>{_DOC_TAGS}|{_CONTAINER_TAGS})(?:\s[^>]*)?>(?P<body>.*?)</(?P=tag)>", re.I | re.S
)
_QUESTION_TAG: Final = re.compile(
    r"<(?:question|query|user_question)(?:\s[^>]*)?>(?P<body>.*?)</(?:question|query|user_question)>",
    re.I | re.S,
)
_PLACEHOLDER: Final = re.compile(r"^\{[\w.]+\}$")
_QUOTED: Final = (("«", "»"), ("“", "”"), ('"""', '"""'))
_REFERS_TO_DOCUMENTS: Final = re.compile(
    r"\b(?:the|these|those|above|provided|given)\s+(?:context|documents?|sources?|passages?|excerpts?|"
    r"information)\b|\b(?:context|documents?|sources?|passages?|information)\s+(?:above|provided|given)\b",
    re.IGNORECASE,
)
_TELLS: Final = re.compile(r"\b(?:answer|respond|reply|use|say|cite|do not|don't|only|if)\b", re.IGNORECASE)
_CONTEXT_SECTION: Final = re.compile(
    r"(context|documents|docs|passages|sources|knowledge|evidence|chunks|references)$"
)


@dataclass(frozen=True)
class PromptReading:
    chunks: tuple[str, ...]
    """The documents pasted into the prompt, in prompt order."""
    question: str
    """The user's own words; empty when they cannot be told apart from the rest of the prompt."""


@dataclass
class _Parsed:
    chunks: list[str]
    remainder: list[str]
    """Lines outside every document, header and label: what the user may have written."""
    question: str | None
    """A labelled question ("Question: ...", a question section or tag), when there is one."""


def read_prompt(messages: Sequence[Message], known_question: str = "") -> PromptReading:
    """The documents pasted into ``messages`` and the user's question.

    ``known_question`` (the question a chain span recorded) is never taken for a document.
    """
    turn = _current_turn(messages)
    users = [index for index, message in enumerate(turn) if message.role is Role.USER]
    asking = users[-1] if users else None
    chunks: list[str] = []
    question = ""
    asked: dict[int, str] = {}
    for index, message in enumerate(turn):
        if message.role is Role.ASSISTANT or (message.role is Role.OTHER and index != asking):
            continue
        parsed = _parse(message.text, whole_block=message.role is Role.TOOL, asking=index == asking)
        chunks.extend(parsed.chunks)
        if message.role is Role.USER and not parsed.chunks:
            asked[index] = message.text.strip()
        if index == asking:
            question = _question(message.text, parsed)
            if not question and not "".join(parsed.remainder).strip() and parsed.question is None:
                # The last user message is documents only: the user asked in the one before it.
                question = asked[max(asked)] if asked else ""
    dropped = {normalized(text) for text in (question, known_question) if text}
    kept: list[str] = []
    for chunk in chunks:
        key = normalized(chunk)
        if key and key not in dropped and not _PLACEHOLDER.match(key) and chunk not in kept:
            kept.append(chunk)
    return PromptReading(tuple(kept), question)


def _current_turn(messages: Sequence[Message]) -> list[Message]:
    """System messages, and what follows the last assistant message before the last user message: earlier
    turns (and few-shot demonstrations) are history, not this answer's context."""
    users = [i for i, message in enumerate(messages) if message.role is Role.USER]
    last_user = users[-1] if users else len(messages) - 1
    answered = [i for i, message in enumerate(messages[:last_user]) if message.role is Role.ASSISTANT]
    start = answered[-1] + 1 if answered else 0
    history_system = [message for message in messages[:start] if message.role is Role.SYSTEM]
    return history_system + list(messages[start:])


def _question(text: str, parsed: _Parsed) -> str:
    if parsed.question is not None:
        return parsed.question
    if not parsed.chunks:
        return text.strip()
    paragraphs = _paragraphs("\n".join(parsed.remainder))
    if len(paragraphs) == 1:
        return paragraphs[0]
    asking = [paragraph for paragraph in paragraphs if paragraph.rstrip().endswith("?")]
    return asking[0] if len(asking) == 1 else ""


def _parse(text: str, whole_block: bool = False, asking: bool = True) -> _Parsed:
    lines = text.splitlines()
    if any(_SECTION.match(line) for line in lines):
        return _parse_sections(lines)
    if whole_block:
        return _Parsed(_items(lines), [], None)
    chunks: list[str] = []
    question: str | None = None
    tagged = _QUESTION_TAG.search(text)
    if tagged:
        question = tagged.group("body").strip()
        text = text[: tagged.start()] + "\n" + text[tagged.end() :]
    pieces: list[str] = []
    last = 0
    for match in _TAG.finditer(text):
        pieces.append(text[last : match.start()])
        body = match.group("body")
        if match.group("tag").lower() in _DOC_TAGS.split("|"):
            chunks.append(_unquoted(body.strip()))
        else:
            inner = _parse(body, asking=False)
            chunks.extend(inner.chunks or _items(body.splitlines()))
        last = match.end()
    pieces.append(text[last:])
    parsed = _parse_lines("\n".join(pieces).splitlines(), asking)
    chunks.extend(parsed.chunks)
    return _Parsed(chunks, parsed.remainder, question if question is not None else parsed.question)


def _parse_sections(lines: list[str]) -> _Parsed:
    """A prompt in DSPy's ChatAdapter layout: ``[[ ## name ## ]]`` lines, each opening a field."""
    chunks: list[str] = []
    question: str | None = None
    name = ""
    body: list[str] = []
    for line in [*lines, "[[ ## end ## ]]"]:
        match = _SECTION.match(line)
        if not match:
            body.append(line)
            continue
        content = [p for p in _paragraphs("\n".join(body), keep_lines=True) if "[[ ##" not in p]
        if _CONTEXT_SECTION.search(name.lower()):
            chunks.extend(_items("\n\n".join(content).splitlines()))
        elif name.lower().replace(" ", "_") in _QUESTION_SECTIONS and content:
            question = "\n\n".join(content).strip()
        name, body = match.group("name").strip(), []
    return _Parsed(chunks, [], question)


def _parse_lines(lines: list[str], asking: bool) -> _Parsed:
    chunks: list[str] = []
    remainder: list[str] = []
    question: str | None = None
    # Only the last question label of the user's message is the prompt's: others belong to pasted FAQ entries.
    labels = [i for i, line in enumerate(lines) if _asked(line) is not None]
    asked_at = labels[-1] if asking and labels else -1
    index = 0
    while index < len(lines):
        line = lines[index]
        if _ANSWER_CUE.match(line) or _STOP_LABEL.match(line):
            index += 1
            continue
        header = _context_header(lines, index) if index != asked_at else None
        if header is not None:
            body, index = _block(lines, index + 1, header, asked_at)
            chunks.extend(_items(body))
            continue
        if index == asked_at:
            rest = _asked(line) or ""
            taken, index = _until_break(lines, index + 1, [rest] if rest else [])
            question = "\n".join(taken).strip()
            continue
        number = _item_start(line)
        opens_message = not any(earlier.strip() for earlier in lines[:index])
        if number is not None and (number in (0, 1) or opens_message):
            body, index = _labelled_run(lines, index, asked_at)
            chunks.extend(_items(body))
            continue
        remainder.append(line)
        index += 1
    return _Parsed(chunks, remainder, question)


def _asked(line: str) -> str | None:
    """The rest of a question label line ("Question: ..."), or None when the line is no such label."""
    for pattern in (_QUESTION_LABEL, _QUESTION_SENTENCE):
        match = pattern.match(line)
        if match and len(match.group("label").split()) <= 8:
            return match.group("rest").strip()
    return None


def _context_header(lines: list[str], index: int) -> str | None:
    """The inline rest of a context header line ("Context: <doc>"), "" when it has none, None when the line
    is no context header."""
    line = lines[index]
    fenced = index + 1 < len(lines) and _DELIMITER.match(lines[index + 1]) is not None
    heading = _HEADING.match(line)
    if heading and _names_documents(heading.group("label")):
        return ""
    labelled = _LABEL_LINE.match(line)
    if labelled and _names_documents(labelled.group("label")) and _item_start(line) is None:
        return labelled.group("rest")
    if fenced and _names_documents(line.strip().rstrip(".:")):
        return ""
    return None


def _names_documents(label: str) -> bool:
    """A label made of a word for documents and filler only: "Context", "Retrieved documents", "Use the
    following pieces of context to answer the question". "Follow these rules about sources" is not one."""
    words = re.findall(r"[a-z']+", label.lower())
    if not words or len(words) > 16:
        return False
    return any(word in _CONTEXT_NOUNS for word in words) and all(
        word in _CONTEXT_NOUNS or word in _HEADER_FILLER for word in words
    )


def _block(lines: list[str], start: int, inline: str, asked_at: int) -> tuple[list[str], int]:
    """A context block's lines: up to a label that ends it (a question, an answer, instructions, another
    header) or the end of the message. A block that opens with a delimiter line ends at its last delimiter
    line: what follows the closing fence is the prompt's own text."""
    body = [inline] if inline.strip() else []
    index = start
    while index < len(lines):
        line = lines[index]
        ended = (
            index == asked_at
            or _ANSWER_CUE.match(line)
            or _STOP_LABEL.match(line)
            or (index > start and _context_header(lines, index) is not None)
        )
        if ended:
            break
        body.append(line)
        index += 1
    opening = next((i for i, line in enumerate(body) if line.strip()), None)
    if not inline.strip() and opening is not None and _DELIMITER.match(body[opening]):
        closing = max(i for i, line in enumerate(body) if _DELIMITER.match(line))
        if closing > opening:
            return body[opening + 1 : closing], start + closing + 1
    return body, index


def _labelled_run(lines: list[str], start: int, asked_at: int) -> tuple[list[str], int]:
    """Documents labelled outside a context block ("Document 1: ...", "[1] ..."): the run of items numbered
    on from the first, the last one ending at its first blank line."""
    expected = _item_start(lines[start])
    index = start
    last_item = start
    while index < len(lines):
        line = lines[index]
        number = _item_start(line)
        if index > start and number is not None and expected is not None and number == expected + 1:
            expected = number
            last_item = index
        elif index > start and (index == asked_at or _ANSWER_CUE.match(line) or _STOP_LABEL.match(line)):
            break
        index += 1
    end = next((i for i in range(last_item + 1, index) if not lines[i].strip()), index)
    return lines[start:end], end


def _item_start(line: str) -> int | None:
    """The number of a strong document label ("[1] ...", "Document 1: ..."), or None."""
    for pattern in _ITEM_PATTERNS:
        match = pattern.match(line)
        if match:
            return int(match.group("n"))
    return None


def _items(lines: list[str]) -> list[str]:
    """A context block's body split into its documents."""
    while lines and not lines[0].strip():
        lines = lines[1:]
    if not lines:
        return []
    for patterns in (_ITEM_PATTERNS, _LIST_PATTERNS):
        if _numbered(lines[0], patterns) is not None:
            return _numbered_items(lines, patterns)
    if _BULLET.match(lines[0]):
        return _bulleted_items(lines)
    if any(_DELIMITER.match(line) for line in lines):
        pieces: list[str] = []
        current: list[str] = []
        for line in lines:
            if _DELIMITER.match(line):
                pieces.append("\n".join(current))
                current = []
            else:
                current.append(line)
        pieces.append("\n".join(current))
        return [_unquoted(piece.strip()) for piece in pieces if piece.strip()]
    text = "\n".join(lines)
    listed = _json_documents(text)
    if listed is not None:
        return listed
    quoted = re.findall(r"«(.*?)»", text, re.S)
    if quoted and not re.sub(r"«.*?»", "", text, flags=re.S).strip(" \n,;"):
        return [piece.strip() for piece in quoted if piece.strip()]
    paragraphs = _paragraphs(text)
    while len(paragraphs) > 1 and _instructs(paragraphs[-1]):
        paragraphs.pop()
    if len(paragraphs) > 1:
        return [_unquoted(p) for p in paragraphs]
    return [_unquoted(line.strip()) for line in "\n".join(paragraphs).splitlines() if line.strip()]


def _json_documents(text: str) -> list[str] | None:
    """A block that is a JSON list of documents (dicts with a text field) or of strings: their texts."""
    parsed = parse_json(text)
    if not isinstance(parsed, list) or not parsed:
        return None
    if all(isinstance(item, str) for item in parsed):
        return [item for item in parsed if item.strip()]
    found = documents_of(parsed)
    return [document.text for document in found if document.text] if found else None


def _instructs(paragraph: str) -> bool:
    """A short paragraph after the documents that tells the model what to do with them ("If the answer is
    not in the context above, say you don't know."): the prompt's own words, not a document."""
    words = re.findall(r"[a-z']+", paragraph.lower())
    return (
        len(words) <= 40 and bool(_REFERS_TO_DOCUMENTS.search(paragraph)) and bool(_TELLS.search(paragraph))
    )


def _numbered(line: str, patterns: tuple[re.Pattern[str], ...]) -> int | None:
    for pattern in patterns:
        match = pattern.match(line)
        if match:
            return int(match.group("n"))
    return None


def _numbered_items(lines: list[str], patterns: tuple[re.Pattern[str], ...]) -> list[str]:
    """Items numbered on from the first label: a line with the next number opens the next item; any other
    line continues the current one."""
    expected = _numbered(lines[0], patterns)
    starts = [0]
    for index, line in enumerate(lines[1:], 1):
        number = _numbered(line, patterns)
        if number is not None and expected is not None and number == expected + 1:
            starts.append(index)
            expected = number
    items = []
    for position, start in enumerate(starts):
        end = starts[position + 1] if position + 1 < len(starts) else len(lines)
        body = "\n".join([_label_rest(lines[start], patterns), *lines[start + 1 : end]]).strip()
        if body:
            items.append(_unquoted(body))
    return items


def _label_rest(line: str, patterns: tuple[re.Pattern[str], ...]) -> str:
    """What follows an item's label on its line."""
    for pattern in patterns:
        match = pattern.match(line)
        if match:
            return match.group("rest") or ""
    return line


def _bulleted_items(lines: list[str]) -> list[str]:
    items: list[list[str]] = []
    for line in lines:
        match = _BULLET.match(line)
        if match:
            items.append([match.group("rest")])
        elif items:
            items[-1].append(line)
    return [_unquoted("\n".join(item).strip()) for item in items if "\n".join(item).strip()]


def _until_break(lines: list[str], start: int, taken: list[str]) -> tuple[list[str], int]:
    """Lines from ``start`` up to a blank line (once something was taken) or a label."""
    index = start
    while index < len(lines):
        line = lines[index]
        if not line.strip():
            if taken:
                break
            index += 1
            continue
        if _ANSWER_CUE.match(line) or _STOP_LABEL.match(line) or _context_header(lines, index) is not None:
            break
        taken.append(line)
        index += 1
    return taken, index


def _paragraphs(text: str, keep_lines: bool = False) -> list[str]:
    pieces = re.split(r"\n\s*\n", text)
    return [piece if keep_lines else piece.strip() for piece in pieces if piece.strip()]


def _unquoted(text: str) -> str:
    for opening, closing in _QUOTED:
        if text.startswith(opening) and text.endswith(closing) and len(text) > len(opening) + len(closing):
            inner = text[len(opening) : -len(closing)]
            if opening not in inner and closing not in inner:
                return inner.strip()
    return text


_ANSWER_SECTIONS: Final = ("answer", "response", "output", "final_answer")


def answer_of(text: str) -> str | None:
    """An answer as a generator wrote it: the text itself, or, in DSPy's sectioned layout
    (``[[ ## answer ## ]]\\n...\\n\\n[[ ## completed ## ]]``), its answer field; None when a sectioned
    answer has several fields and none is named like an answer."""
    lines = text.splitlines()
    if not any(_SECTION.match(line) for line in lines):
        return text
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines:
        match = _SECTION.match(line)
        if match:
            current = sections.setdefault(match.group("name").strip().lower(), [])
        elif current is not None:
            current.append(line)
    fields = {name: "\n".join(body).strip() for name, body in sections.items() if name != "completed"}
    for name in _ANSWER_SECTIONS:
        if fields.get(name):
            return fields[name]
    return next(iter(fields.values())) if len(fields) == 1 else None
