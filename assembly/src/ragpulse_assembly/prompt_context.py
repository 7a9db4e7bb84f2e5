"""Documents pasted into a prompt, and the user's own words around them.

Most RAG services retrieve with their own code and paste the documents into the prompt; the prompt is then
the only record of the context. Documents are read by the structure they sit in, wherever it occurs, and
nothing that merely looks like a list:

- containers (:mod:`ragpulse_assembly.containers`): elements with matching close tags, a message or
  paragraph that is JSON or a Python list's repr holding documents, fenced blocks;
- a context block: a header line that names documents ("Context:", "## Sources", a ``<context>`` tag, a
  DSPy ``[[ ## context ## ]]`` section, a header in a few other languages) or a paragraph announcing them
  ("Use the following pieces of context"), whose body is split into numbered (``[1]``, ``1.``,
  ``Document 1:``, ``ID: 0``), bulleted, headed, delimited or «quoted» items, records, else paragraphs,
  else lines; runs between rules in a prompt that points at documents;
- document labels anywhere ("Document 1: ...", "[1] ..."), numbered from 0 or 1; an example numbering in
  the instructions that starts again further down is not the documents;
- one or many system, user or tool messages of the current turn (demonstrations and history before the last
  assistant message are not the context), one document per message after an instruction that points at them.

Metadata frameworks print before a chunk (``file_name: ...``, ``├── Title: ...``, a title line) is not text.
The question is the last user message when it holds no documents; else its "Question: ..." line (or
section, or tag), else the one paragraph left once the documents are cut out (or the one of them that asks
something). When that cannot be told, the question is empty: a caller refuses rather than guesses.
Instructions, rules and numbered lists outside a context block are never documents. A prompt that points at
documents no reading separates, whose documents sit on both sides of the question with nothing marking an
example, or whose documents keep part of their container's markup gives no documents and says so
(:attr:`PromptReading.not_separable`).
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Final

from ragpulse_assembly.containers import (
    CONTAINER_TAGS,
    QUESTION_TAGS,
    JsonReading,
    element_documents,
    elements,
    fenced_blocks,
    is_metadata_only,
    json_reading,
    python_list,
    strip_metadata,
)
from ragpulse_assembly.dialects.base import documents_of
from ragpulse_assembly.model import Message, Role, normalized
from ragpulse_assembly.pyrepr import literal_end
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
        "notes",
        "results",
    ]
)
_FOREIGN_NOUNS: Final = frozenset(
    [
        "contexto", "documentos", "fuentes", "conocimientos", "pasajes", "contexte", "connaissances",
        "kontext", "dokumente", "quellen", "wissensbasis", "contesto", "documenti", "fonti", "conoscenza",
        "上下文", "知识库", "参考资料", "文档", "资料", "コンテキスト", "文書", "참고"
    ]
)  # fmt: skip
"""Words for documents in a few other languages: a short header line holding one names documents."""
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
        "base",
    ]
)
_QUESTION_SECTIONS: Final = frozenset(
    {"question", "query", "q", "input", "user_question", "user_query", "user_input", "question_to_answer"}
)
_QUESTION_LABEL: Final = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*)?(?P<label>(?:the\s+)?(?:user(?:'s)?\s+|current\s+|follow[- ]up\s+)?"
    r"(?:question|query|q|input|user|frage|pregunta|domanda|pergunta|vraag|вопрос|问题|問題|質問|提问|질문|"
    r"السؤال|سؤال))(?:\*\*)?\s*[:：](?:\*\*)?\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
_QUESTION_SENTENCE: Final = re.compile(
    r"^\s*(?P<label>[^:\n]{0,80}\b(?:question|query))\s*[:：]\s*(?P<rest>.*)$", re.IGNORECASE
)
_QUESTION_INLINE: Final = re.compile(
    r"^\s*(?P<label>[^:\n]{0,60}\b(?:question|query)\b[^:\n]{0,30})\s*[:：]\s*(?P<rest>[^\n]*\?)\s*$",
    re.IGNORECASE,
)
"""A sentence naming the question with the question after it on its line ("The original query is as
follows: ...?")."""
_ANSWER_CUE: Final = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*)?(?:answer|response|a|final answer|helpful answer|assistant|ai|output)"
    r"(?:\*\*)?\s*[:：]\s*$",
    re.IGNORECASE,
)
"""The prompt's cue for the model ("Answer:" and nothing after it); "Answer: ..." with text is a document's
(a FAQ entry), not the prompt's."""
_ANSWERED: Final = re.compile(r"^\s*(?:final answer|helpful answer)\s*[:：]\s*\S", re.IGNORECASE)
"""An example's answer in the instructions."""
_STOP_LABEL: Final = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:instructions?|task|guidelines|rules|format|output format|chat history|history|"
    r"conversation|examples?)\s*[:：]?\s*$",
    re.IGNORECASE,
)
_CLOSING_LABEL: Final = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*)?[^\W\d_](?:[^\W\d_]|[ '’-]){0,40}(?:\*\*)?\s*[:：]\s*$"
)
"""A label of words with nothing after it: the asking message's last line, it names what the model writes
next ("RELEVANCE: ", "Antwort:"), whatever the word; never a document's line."""
_LABEL_LINE: Final = re.compile(
    r"^\s*+(?:#{1,6}\s*+)?(?:\*\*)?(?P<label>[^:\n]{1,80}?)(?:\*\*)?\s*+[:：]\s*(?P<rest>.*)$"
)
_HEADING: Final = re.compile(r"^\s*#{1,6}\s+(?P<label>[^\n]{1,80}?)\s*#*\s*$")
_DELIMITER: Final = re.compile(r"^\s*(?:-{3,}|={3,}|\*{3,}|_{3,}|~{3,}|#{3,}|`{3,}\w*)\s*$")
_CODE_FENCE: Final = re.compile(r"^\s*(?P<fence>```|~~~)(?P<language>[\w+#.-]*)\s*$")
_WRAPPER_LANGUAGES: Final = frozenset(
    ["", "text", "txt", "plain", "plaintext", "markdown", "md", "json", "jsonl", "yaml", "yml", "xml"]
)
"""What a template's own fences are tagged with (plain text, or a data format holding the documents); a fence
tagged with a programming language ("```bash") opens code inside a document."""
_SECTION: Final = re.compile(r"^\s*\[\[ ## (?P<name>[\w ]+?) ## \]\]\s*$")
_ITEM_PATTERNS: Final = (
    # [1] text, [Document 1] text, [doc1] text, 【1】 text, <<1>> text
    re.compile(
        r"^\s*(?:\[|【|<<)(?:(?:document|doc|source|passage|chunk|context|excerpt|snippet)\s*)?(?P<n>\d+)"
        r"(?:\]|】|>>)\s*[:：]?\s*(?P<rest>.*)$",
        re.I,
    ),
    # [Source 1: handbook.pdf] text, [Document 2 - title]: the label's words after the number are metadata
    re.compile(
        r"^\s*\[(?:document|doc|source|passage|chunk|context|excerpt|snippet|article|result|reference|record)"
        r"\s*#?(?P<n>\d+)\s*[:,\-–|][^\]\n]{0,120}\]\s*:?\s*(?P<rest>.*)$",
        re.I,
    ),
    # ID: 0, Document: 0 (a record's id line alone: RAGFlow's knowledge, Command R's results)
    re.compile(
        r"^\s*(?:id|doc(?:ument)?(?:[ _]?id)?|chunk(?:[ _]?id)?|source|passage|result)\s*[:=]\s*(?P<n>\d+)\s*"
        r"(?P<rest>)$",
        re.I,
    ),
    # Document 1: text, Source [2] (wiki.txt): text, ### Passage 3, Dokument 2:, 文書1：
    re.compile(
        r"^\s*(?:#{1,6}\s*)?(?:\*\*)?(?:document|doc|source|passage|chunk|context|excerpt|snippet|article|"
        r"result|reference|record|dokument|quelle|documento|fuente|fonte|extrait|文書|文档|文件|资料|資料|"
        r"出典|来源|ドキュメント)\s*(?:#|no\.?\s*)?\[?(?P<n>\d+)\]?(?:\s*\([^)\n]*\))?(?:\*\*)?\s*"
        r"(?:[:：.\-–](?:\*\*)?\s*(?P<rest>.*)|(?P<bare>))$",
        re.I,
    ),
)  # fmt: skip
_LIST_PATTERNS: Final = (
    re.compile(r"^\s*(?P<n>\d+)[.)]\s+(?P<rest>.*)$"),
    re.compile(r"^\s*\((?P<n>\d+)\)\s+(?P<rest>.*)$"),
)
_BULLET: Final = re.compile(r"^\s*[-*•]\s+(?P<rest>.*)$")
_PLACEHOLDER: Final = re.compile(r"^\{[\w.]+\}$")
_QUOTED: Final = (("«", "»"), ("“", "”"), ('"""', '"""'))
_REFERS_TO_DOCUMENTS: Final = re.compile(
    r"\b(?:the|these|those|above|provided|given)\s+(?:context|documents?|sources?|passages?|excerpts?|"
    r"information|notes|snippets|search results|results|articles|records|facts)\b|"
    r"\b(?:context|documents?|sources?|passages?|information)\s+(?:above|provided|given)\b",
    re.IGNORECASE,
)
# Words that point forward and words for documents, in English and the languages RAG prompts are most often
# written in (German, French, Spanish, Italian, Portuguese, Dutch): either order, within a clause.
_AHEAD: Final = (
    r"following|below|folgenden?|folgendes|nachfolgenden?|unten|untenstehenden?|suivante?s?|ci-dessous|"
    r"ci-après|siguientes?|continuación|seguenti|seguente|di seguito|seguintes?|abaixo|volgende|hieronder"
)
_DOCUMENT_WORDS: Final = (
    r"context|contexts|documents?|sources?|passages?|excerpts?|articles?|information|notes|knowledge|"
    r"results|snippets?|chunks?|pieces|kontexte?s?|dokumente?n?|quellen|auszüge?n?|abschnitte?n?|texte?n?|"
    r"informationen|passagen|contextes?|extraits?|informations|fragmentos?|documentos?|fuentes|pasajes|"
    r"contexto|informaci[oó]n|documenti|fonti|estratti|passaggi|contesto|trechos|fontes|informações|"
    r"documenten|bronnen|fragmenten"
)
_FORWARD: Final = re.compile(
    rf"\b(?:{_AHEAD})\b[^.?!\n]{{0,60}}\b(?:{_DOCUMENT_WORDS})\b|"
    rf"\b(?:{_DOCUMENT_WORDS})\b[^.?!\n]{{0,30}}\b(?:{_AHEAD}|follow)\b",
    re.IGNORECASE,
)
"""Words that announce documents coming next ("Use the following pieces of context")."""
_LEFTOVER: Final = re.compile(
    rf"</?(?:{'|'.join(sorted(CONTAINER_TAGS))}|doc|document|document_content|passage)\b[^>]*>|"
    r"^[^\S\n]*+</?[A-Za-z][\w.:-]*(?:\s[^<>\n]*)?/?>|"
    r"^[^\S\n]*+(?:\"\"\"|\[\[ ##)|^[^\S\n]*+[├└]|^[^\S\n]*+[\w-]{1,40}\s*:\s*[|>][+-]?\s*$|"
    r"^[^\S\n]*+(?:[=~]{3,}\s*\S.*|#{3,}(?:[^#\s].*|\s*\[.*))$|"
    r"^[^\S\n]*+\[[^\]\n]{1,40}\]\s*:?\s*$",
    re.IGNORECASE | re.MULTILINE,
)
"""Container syntax left in a recovered document: a tag, a fence, a tree branch, a labelled rule
("==== [File:a.md]:"), a label alone on its line ("[END CONTEXT 1]"), a YAML key opening a block of text
("content: |"). The document was read half-way. (A code fence is left over only when it is not closed: a
document may hold code.)"""
_BARE: Final = re.compile(r"^\s*(?:\d+|[A-Za-z_][\w.-]{0,30}\s*[:：]\s*\S+)\s*$")
"""A "document" that is a number or one ``key: value`` pair: a label or metadata split off its text."""
_TELLS: Final = re.compile(r"\b(?:answer|respond|reply|use|say|cite|do not|don't|only|if)\b", re.IGNORECASE)
_COMMAND: Final = re.compile(
    r"^\s*(?:please\s+)?(?:be|answer|respond|reply|keep|cite|write|provide|give|do not|don't|never|always|"
    r"think|format|avoid|explain|summari[sz]e|use|only)\b",
    re.IGNORECASE,
)
"""How the prompt's own sentences to the model open."""
_TABLE_ROW: Final = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE: Final = re.compile(r"^\s*+\|?\s*+:?-{3,}:?\s*+(?:\|\s*+:?-{3,}:?\s*+)*\|?\s*+$")
_TEXT_COLUMNS: Final = frozenset(
    [
        "passage",
        "text",
        "content",
        "snippet",
        "chunk",
        "document",
        "excerpt",
        "context",
        "body",
        "page_content",
    ]
)
_CONTEXT_SECTION: Final = re.compile(
    r"(context|documents|docs|passages|sources|knowledge|evidence|chunks|references)$"
)


class _NotSeparable(Exception):
    """A reading found documents whose extent it cannot tell (a document may run on past where the reading
    would end it, or was cut where a document's own heading or colon says it goes on)."""


@dataclass(frozen=True)
class PromptReading:
    chunks: tuple[str, ...]
    """The documents pasted into the prompt, in prompt order."""
    question: str
    """The user's own words; empty when they cannot be told apart from the rest of the prompt."""
    not_separable: bool = False
    """The prompt refers to documents that could not be told apart from the rest, or a document came out
    with part of its container's markup: no chunks are given rather than wrong ones."""
    guessed: bool = False
    """Some documents were told apart only by a layout their own text uses too (blank lines, lines, a
    bulleted or numbered list): a reading to check against another, not to trust alone."""
    printed: bool = False
    """Some documents were evaluated out of a list Python printed: exact texts, though the prompt holds them
    quoted and escaped, so no slot of a learnt template holds them as they are."""


_GUESSED: Final[ContextVar[bool]] = ContextVar("guessed", default=False)
"""Set while a prompt is read, when a context block is split the way documents' own text is laid out."""
_PRINTED: Final[ContextVar[bool]] = ContextVar("printed", default=False)
"""Set while a prompt is read, when documents are evaluated out of a printed Python list."""


@dataclass
class _Parsed:
    chunks: list[str]
    remainder: list[str]
    """Lines outside every document, header and label: what the user may have written."""
    question: str | None
    """A labelled question ("Question: ...", a question section or tag), when there is one."""
    ambiguous: bool = False
    """Two readings disagree: documents on both sides of the question, and nothing says which are an
    example."""


def read_prompt(messages: Sequence[Message], known_question: str = "") -> PromptReading:
    """The documents pasted into ``messages`` and the user's question.

    ``known_question`` (the question a chain span recorded) is never taken for a document.
    """
    token, printed = _GUESSED.set(False), _PRINTED.set(False)
    try:
        reading = _read_prompt(messages, known_question)
        if not reading.chunks:
            return reading
        return replace(reading, guessed=_GUESSED.get(), printed=_PRINTED.get())
    finally:
        _GUESSED.reset(token)
        _PRINTED.reset(printed)


def _read_prompt(messages: Sequence[Message], known_question: str) -> PromptReading:
    turn = current_turn(messages)
    users = [index for index, message in enumerate(turn) if message.role is Role.USER]
    asking = users[-1] if users else None
    chunks: list[str] = []
    question = ""
    asked: dict[int, str] = {}
    per_message = _one_document_per_message(turn, asking)
    ambiguous = False
    for index, message in enumerate(turn):
        if message.role is Role.ASSISTANT or (message.role is Role.OTHER and index != asking):
            continue
        if index in per_message:
            chunks.append(message.text.strip())
            continue
        try:
            parsed = _parse(message.text, whole_block=message.role is Role.TOOL, asking=index == asking)
        except _NotSeparable:
            labelled = [_asked(line) for line in message.text.splitlines()]
            asked_here = [rest for rest in labelled if rest] if index == asking else []
            parsed = _Parsed([], [], asked_here[-1] if asked_here else "", ambiguous=True)
        ambiguous = ambiguous or parsed.ambiguous
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
    for chunk in _json_expanded(chunks):
        key = normalized(chunk)
        if key and key not in dropped and not _PLACEHOLDER.match(key) and chunk not in kept:
            kept.append(chunk)
    if ambiguous or any(_half_read(chunk) for chunk in kept):
        return PromptReading((), question, not_separable=True)
    if not kept:
        prompts = [m.text for m in turn if m.role in (Role.SYSTEM, Role.USER)]
        refers = any(_refers_to_documents(text) for text in prompts)
        empty = any(_shows_no_documents(text) for text in prompts)
        return PromptReading((), question, not_separable=refers and not empty)
    return PromptReading(tuple(kept), question)


def _shows_no_documents(text: str) -> bool:
    """The prompt's place for documents is there and empty: a container element with nothing in it, or a
    context header with nothing under it before the question (the search found nothing)."""
    if any(element.tag in CONTAINER_TAGS and not element.body(text).strip() for element in elements(text)):
        return True
    lines = text.splitlines()
    for index in range(len(lines)):
        if _asked(lines[index]) is None and _context_header(lines, index) == "":
            following = next((line for line in lines[index + 1 :] if line.strip()), None)
            if following is None or _asked(following) is not None or _ANSWER_CUE.match(following):
                return True
    return False


def _half_read(chunk: str) -> bool:
    return bool(_LEFTOVER.search(chunk) or _BARE.match(chunk) or _torn(chunk)) or _open_fence(chunk)


def _open_fence(chunk: str) -> bool:
    """A chunk with a code fence it never closes: a fence of the template's, or a document cut inside its
    code."""
    fences = [line for line in chunk.splitlines() if _CODE_FENCE.match(line) or line.strip() == '"""']
    return len(fences) % 2 == 1


def _code_lines(lines: list[str]) -> set[int]:
    """The lines of code blocks inside documents (fences tagged with a language, and every line up to the
    closing fence): nothing in them is a rule, a label or a break between documents."""
    code: set[int] = set()
    index = 0
    while index < len(lines):
        match = _CODE_FENCE.match(lines[index])
        if match is None or match.group("language").lower() in _WRAPPER_LANGUAGES:
            index += 1
            continue
        fence = match.group("fence")
        closing = next((j for j in range(index + 1, len(lines)) if lines[j].strip() == fence), None)
        if closing is None:
            return code
        code.update(range(index, closing + 1))
        index = closing + 1
    return code


def _torn(chunk: str) -> bool:
    """A chunk that ends a bracket it never opened, or opens one it never closes: a label torn in two
    ("handbook.pdf]" after "[Source 1: " was read as an item's number)."""
    stripped = chunk.strip()
    return (stripped.endswith("]") and "[" not in stripped) or (
        stripped.startswith("[") and "]" not in stripped
    )


def _json_expanded(chunks: list[str]) -> list[str]:
    """Chunks that are JSON holding documents (a line of JSON Lines under a heading, an object per list
    item) read as the documents' texts; any other chunk as it is."""
    expanded: list[str] = []
    for chunk in chunks:
        stripped = chunk.strip()
        read = json_reading(stripped)
        if read is None and stripped.startswith("{") and stripped.endswith("}"):
            read = json_reading(f"[{stripped}]")
        expanded.extend(read.documents if read is not None and read.documents else [chunk])
    return expanded


def _one_document_per_message(turn: list[Message], asking: int | None) -> set[int]:
    """System or tool messages that are one document each: after an instruction message that refers to
    documents, every further system message with no structure of its own, up to the question."""
    end = asking if asking is not None else len(turn)
    systems = [i for i in range(end) if turn[i].role is Role.SYSTEM]
    if len(systems) < 3:
        return set()
    first = turn[systems[0]].text
    if not _refers_to_documents(first):
        return set()
    rest = systems[1:]
    try:
        if any(_parse(turn[i].text, asking=False).chunks for i in rest):
            return set()
    except _NotSeparable:
        return set()
    return set(rest)


def _refers_to_documents(text: str) -> bool:
    """The text points at documents ("the context", "the passages between the lines", "the following
    sources"): a word for documents alone ("information") is not enough."""
    return bool(_REFERS_TO_DOCUMENTS.search(text) or _FORWARD.search(text))


def current_turn(messages: Sequence[Message]) -> list[Message]:
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
        return _without_commands(paragraphs[0])
    asking = [paragraph for paragraph in paragraphs if paragraph.rstrip().endswith("?")]
    return asking[0] if len(asking) == 1 else ""


def _without_commands(paragraph: str) -> str:
    """A paragraph of the prompt's sentences to the model and one line that asks ("Be concise.\nHow long
    ...?"): the line that asks. Any other paragraph as it is."""
    lines = [line.strip() for line in paragraph.splitlines() if line.strip()]
    asking = [line for line in lines if line.endswith("?")]
    if len(lines) > 1 and len(asking) == 1 and all(_commands(line) for line in lines if line != asking[0]):
        return asking[0]
    return paragraph


def _parse(text: str, whole_block: bool = False, asking: bool = True) -> _Parsed:
    encoded = parse_json(text)
    if isinstance(encoded, str) and encoded.lstrip().startswith(("{", "[")):
        # JSON encoded twice (a tool's result serialized again as a string): read what it encodes.
        return _parse(encoded, whole_block, asking)
    lines = text.splitlines()
    if any(_SECTION.match(line) for line in lines):
        return _parse_sections(lines)
    read = json_reading(text)
    if read is not None:
        return _Parsed(read.documents, [], read.question)
    if whole_block:
        # A tool's result is documents only; an announced block inside it says which part.
        inner = _parse(text, asking=False)
        return _Parsed(inner.chunks or _items(lines), [], None, inner.ambiguous)
    chunks: list[str] = []
    question: str | None = None
    pieces: list[str] = []
    last = 0
    for element in elements(text):
        body = element.body(text)
        if not body.strip():
            continue
        if element.tag in QUESTION_TAGS:
            found: list[str] | None = []
            question = body.strip()
        else:
            found = element_documents(element, text)
            if found is None and element.tag in CONTAINER_TAGS:
                inner = _parse(body, asking=False)
                found = inner.chunks or _items(body.splitlines())
        if found is None:
            continue
        pieces.append(text[last : element.start])
        chunks.extend(_unquoted(chunk) for chunk in found if chunk.strip())
        last = element.end
    pieces.append(text[last:])
    rest, fenced = _fenced_documents("\n".join(pieces))
    chunks.extend(fenced)
    rest, tabled = _table_documents(rest)
    chunks.extend(tabled)
    rest, listed = _json_paragraphs(rest)
    chunks.extend(listed)
    parsed = _parse_lines(rest.splitlines(), asking, announced=not chunks)
    chunks.extend(parsed.chunks)
    asked = question if question is not None else parsed.question
    return _Parsed(chunks, parsed.remainder, asked, parsed.ambiguous)


def _json_paragraphs(text: str) -> tuple[str, list[str]]:
    """Documents in a paragraph that is one JSON value holding them; and the text without it."""
    kept: list[str] = []
    documents: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        read = json_reading(paragraph.strip()) or _json_lines(paragraph)
        listed = read.documents if read is not None else python_list(paragraph)
        if not listed:
            around, listed = _embedded_json(paragraph)
            if not listed or any(_asked(line) is not None for line in around.splitlines()):
                # The words around documents in a sentence are the prompt's, unless a label asks.
                kept.append(around)
        documents.extend(listed)
    return ("\n\n".join(kept), documents) if documents else (text, [])


_JSON_OPENING: Final = re.compile(r"[\[{]\s*[{\[\"]")
_JSON_TRIES: Final = 50
"""Openings tried in one paragraph: a document's own brackets must not make a paragraph cost quadratic."""


def _embedded_json(paragraph: str) -> tuple[str, list[str]]:
    """Documents in a JSON value written inside a sentence ("The search returned [{...}] - answer from it"):
    the paragraph with the value cut out, and the documents; the paragraph as it is when there is none."""
    decoder = json.JSONDecoder()
    for tries, opening in enumerate(_JSON_OPENING.finditer(paragraph)):
        if tries >= _JSON_TRIES:
            break
        try:
            _, end = decoder.raw_decode(paragraph, opening.start())
        except (json.JSONDecodeError, RecursionError):
            continue
        read = json_reading(paragraph[opening.start() : end])
        if read is not None and read.documents:
            return paragraph[: opening.start()] + paragraph[end:], read.documents
    return _embedded_list(paragraph)


_RECORDS_OPENING: Final = re.compile(r"(?:^|[:=])[ \t]*(?P<list>\[\s*\{)", re.MULTILINE)
"""A list of records that opens a line or follows a label's colon ("TOP_RESULTS: [{")."""


def _embedded_list(paragraph: str) -> tuple[str, list[str]]:
    """Documents in a list of records Python printed on a line of their own or after a label
    ("Results: [{'title': …, 'description': …}]", ``str(results)`` pasted in): Python quotes each string with
    ' or " as its text needs, so no JSON parser reads it. The list must end its line (a list inside a JSON
    object or a sentence is none). The paragraph with the list cut out, and the documents; the paragraph as
    it is when there is none."""
    for tries, opening in enumerate(_RECORDS_OPENING.finditer(paragraph)):
        if tries >= _JSON_TRIES:
            break
        start = opening.start("list")
        end = literal_end(paragraph, start)
        if end is None or paragraph[end:].split("\n", 1)[0].strip():
            continue
        listed = python_list(paragraph[start:end])
        if listed:
            _PRINTED.set(True)
            return paragraph[:start] + paragraph[end:], listed
    return paragraph, []


def _json_lines(paragraph: str) -> JsonReading | None:
    """A paragraph of two or more lines that are each one JSON object (JSON Lines): read as their list."""
    lines = [line.strip() for line in paragraph.splitlines() if line.strip()]
    if len(lines) < 2 or not all(line.startswith("{") and line.endswith("}") for line in lines):
        return None
    return json_reading("[" + ",".join(lines) + "]")


def _table_documents(text: str) -> tuple[str, list[str]]:
    """Documents as the rows of a markdown table whose header names a text column ("passage", "content") or
    that the lines before it announce: one document per row, its text the text column's cell (else the row's
    longest cell, the others being metadata); and the text without the table."""
    lines = text.splitlines()
    documents: list[str] = []
    taken: set[int] = set()
    index = 0
    while index + 2 < len(lines):
        if not (_TABLE_ROW.match(lines[index]) and _TABLE_RULE.match(lines[index + 1])):
            index += 1
            continue
        end = index + 2
        while end < len(lines) and _TABLE_ROW.match(lines[end]):
            end += 1
        header = _cells(lines[index])
        rows = [_cells(line) for line in lines[index + 2 : end]]
        before = "\n".join(lines[max(0, index - 3) : index])
        named = [n for n, cell in enumerate(header) if cell.lower() in _TEXT_COLUMNS]
        if len(rows) >= 2 and (named or _refers_to_documents(before)):
            column = (
                named[0]
                if named
                else max(range(len(header)), key=lambda n: sum(len(row[n]) for row in rows if n < len(row)))
            )
            documents.extend(row[column] for row in rows if column < len(row) and row[column])
            taken.update(range(index, end))
        index = end
    return "\n".join(line for n, line in enumerate(lines) if n not in taken), documents


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _fenced_documents(text: str) -> tuple[str, list[str]]:
    """Documents in fenced blocks (``\"\"\"`` or code fences) each after a label line ("Source: a.md",
    "Wikipedia article section:"), or in two or more such blocks; and the text without them."""
    lines = text.splitlines()
    code = _code_lines(lines)
    blocks = [_spaced_label(lines, block) for block in fenced_blocks(text) if block[1] not in code]
    labelled = [block for block in blocks if (block[0] < block[1] and _labels(lines[block[0]]))
                or (block[0] < block[1] and _item_start(lines[block[0]]) is not None)]  # fmt: skip
    if not blocks or (len(blocks) < 2 and not labelled):
        return text, []
    taken: set[int] = set()
    for label, _, closing, _ in blocks:
        taken.update(range(label, closing + 1))
    documents = [body.strip() for _, _, _, body in blocks if body.strip()]
    return "\n".join(line for index, line in enumerate(lines) if index not in taken), documents


def _spaced_label(lines: list[str], block: tuple[int, int, int, str]) -> tuple[int, int, int, str]:
    """A fenced block whose label line stands a blank line above its opening fence ("## From a.md:", blank,
    fence): the label is the block's, so it is neither lost nor read as a document of its own."""
    label, opening, closing, body = block
    above = opening - 2
    if label == opening and above >= 0 and not lines[opening - 1].strip() and _labels(lines[above]):
        return above, opening, closing, body
    return block


def _labels(line: str) -> bool:
    """A line that labels what follows: it ends with a colon (any script's) or is a heading."""
    return line.rstrip().endswith((":", "：")) or _HEADING.match(line) is not None


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


def _parse_lines(lines: list[str], asking: bool, announced: bool = True) -> _Parsed:
    """``announced``: a paragraph announcing documents ("Use the following context") opens a context
    block; not once the documents were found in a container elsewhere in the message."""
    if asking:
        lines = _without_closing_label(lines)
    chunks: list[str] = []
    remainder: list[str] = []
    question: str | None = None
    # Only the last question label of the user's message is the prompt's: others belong to pasted FAQ entries.
    labels = [i for i, line in enumerate(lines) if _asked(line) is not None]
    asked_at = labels[-1] if asking and labels else -1
    # Computed once: asking at every line whether a line before holds text is quadratic on blank lines.
    first_text = next((at for at, line in enumerate(lines) if line.strip()), len(lines))
    delimiters = _Delimiters(lines)
    index = 0
    before = 0
    while index < len(lines):
        line = lines[index]
        if not line.strip():
            remainder.append(line)  # no header, label, rule or item: asked first, as blank lines may be most
            index += 1
            continue
        if _ANSWER_CUE.match(line) or _STOP_LABEL.match(line):
            index += 1
            continue
        header = _context_header(lines, index, announced) if index != asked_at else None
        if header is not None:
            body, index = _block(lines, index + 1, header, asked_at)
            chunks.extend(_items(body))
            continue
        if index == asked_at:
            rest = _asked(line) or ""
            if rest.rstrip().endswith("?"):
                # The question ends on its label's line; the next line is the prompt's again.
                taken, index = [rest], index + 1
            else:
                taken, index = _until_break(lines, index + 1, [rest] if rest else [])
            question = "\n".join(taken).strip()
            before = len(chunks)
            continue
        run = delimiters.run(index, asked_at)
        if run is not None:
            chunks.extend(_items(_run_body(lines, index, run)))
            index = run
            continue
        number = _item_start(line)
        opens_message = index <= first_text
        if number is not None and _restarts_later(lines, index, number):
            # The same numbering starts again further down: this run is the instructions' example.
            remainder.append(line)
            index += 1
            continue
        if number is not None and (number in (0, 1) or opens_message):
            body, index = _labelled_run(lines, index, asked_at)
            chunks.extend(_items(body, settled=True))
            continue
        remainder.append(line)
        index += 1
    if 0 < before < len(chunks):
        if not any(_ANSWERED.match(line) for line in lines[:asked_at]):
            return _Parsed(chunks, remainder, question, ambiguous=True)
        # An answer written before the question: what came before it was the instructions' example.
        chunks = chunks[before:]
    return _Parsed(chunks, remainder, question)


def _without_closing_label(lines: list[str]) -> list[str]:
    last = next((at for at in range(len(lines) - 1, -1, -1) if lines[at].strip()), None)
    return lines[:last] if last is not None and _CLOSING_LABEL.match(lines[last]) else lines


def _restarts_later(lines: list[str], index: int, number: int) -> bool:
    label = _label_word(lines[index])
    return any(_item_start(line) == number and _label_word(line) == label for line in lines[index + 1 :])


def _label_word(line: str) -> str:
    return re.sub(r"[^a-z]", "", line.lower().split(":")[0].split("]")[0])[:12]


class _Delimiters:
    """A message's delimiter lines, found once: asking at each one where its run ends and whether the text
    before it names documents would read the message again per line (minutes on thousands of rules)."""

    def __init__(self, lines: list[str]) -> None:
        self._lines = lines
        self._at: dict[str, list[int]] = {}
        for index, line in enumerate(lines):
            if _DELIMITER.match(line):
                self._at.setdefault(line.strip(), []).append(index)
        self._named_from: int | None = None

    def run(self, index: int, asked_at: int) -> int | None:
        """The end of passages fenced by two or more identical delimiter lines from ``index`` on, in a
        message that names documents before them; None when ``index`` opens no such run. A run around the
        question is no run: what comes before the question is an example."""
        same = self._at.get(self._lines[index].strip())  # only delimiter lines are kept
        if same is None:
            return None
        last = same[-1]
        if len(same) - bisect.bisect_left(same, index) < 2 or index < asked_at < last:
            return None
        return last + 1 if index >= self._named() else None

    def _named(self) -> int:
        """The fewest lines whose text names documents (more lines only add text that may name them too):
        found by halving, each look a search of one prefix."""
        if self._named_from is None:
            low, high = 0, len(self._lines) + 1
            while low < high:
                middle = (low + high) // 2
                if _refers_to_documents("\n".join(self._lines[:middle])):
                    high = middle
                else:
                    low = middle + 1
            self._named_from = low
        return self._named_from


def _run_body(lines: list[str], start: int, end: int) -> list[str]:
    """A delimited run's lines: two rules only wrap the documents, more separate them."""
    rules = [i for i in range(start, end) if lines[i].strip() == lines[start].strip()]
    return lines[start + 1 : end - 1] if len(rules) == 2 else lines[start:end]


def _paragraph_start(lines: list[str], index: int) -> int:
    start = index
    while start > 0 and lines[start - 1].strip() and not _DELIMITER.match(lines[start - 1]):
        start -= 1
    return start


def _asked(line: str) -> str | None:
    """The rest of a question label line ("Question: ..."), or None when the line is no such label."""
    label, colon, rest = line.partition(":")
    # A label written as one identifier ("USER_QUESTION:") names what its words name.
    spaced = label.replace("_", " ") + colon + rest
    for pattern in (_QUESTION_LABEL, _QUESTION_SENTENCE, _QUESTION_INLINE):
        match = pattern.match(spaced)
        if match and len(match.group("label").split()) <= 8:
            return match.group("rest").strip()
    return None


def _context_header(lines: list[str], index: int, announced: bool = True) -> str | None:
    """The inline rest of a context header line ("Context: <doc>"), "" when it has none, None when the line
    is no context header."""
    line = lines[index]
    if not line.strip():
        return None  # Asked first: a blank line is none, and a prompt may hold a hundred thousand of them.
    if parse_json(line) is not None:
        # {"source": "a.md", "text": ...}: a JSON record whose first key names documents is no header.
        return None
    fenced = index + 1 < len(lines) and _DELIMITER.match(lines[index + 1]) is not None
    heading = _HEADING.match(line)
    if heading and _names_documents(heading.group("label")):
        return ""
    labelled = _LABEL_LINE.match(line)
    if labelled and _names_documents(labelled.group("label")) and _item_start(line) is None:
        return labelled.group("rest")
    if fenced and _names_documents(line.strip().rstrip(".:")):
        return ""
    ends_paragraph = index + 1 < len(lines) and (not lines[index + 1].strip() or fenced)
    paragraph = "\n".join(lines[_paragraph_start(lines, index) : index + 1])
    # "Use the following context" announces what comes next; so does "...only these notes:" ending on a colon.
    announces = _FORWARD.search(paragraph) or (
        line.rstrip().endswith(":") and _REFERS_TO_DOCUMENTS.search(paragraph)
    )
    if announced and ends_paragraph and line.strip() and announces:
        return ""
    return None


def _names_documents(label: str) -> bool:
    """A label made of a word for documents and filler only: "Context", "Retrieved documents", "Use the
    following pieces of context to answer the question". "Follow these rules about sources" is not one."""
    if any(noun in label.lower() for noun in _FOREIGN_NOUNS) and len(label.split()) <= 8:
        return True
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
    opened = next((line for line in lines[start:] if line.strip()), "")
    level = _heading_level(lines[start - 1]) if start > 0 else 0
    code = _code_lines(lines)
    while index < len(lines):
        line = lines[index]
        if index in code:
            body.append(line)
            index += 1
            continue
        if _DELIMITER.match(line) and not _DELIMITER.match(opened) and any(text.strip() for text in body):
            # A rule after the documents, in a block that did not open with one, closes it.
            if _caption_over_run(body, lines, index):
                raise _NotSeparable
            break
        if level and 0 < _heading_level(line) <= level:
            # The next section under a heading of the same rank.
            break
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
        # The rule that closes is written as the one that opened ("=====" under a title closes nothing).
        closing = max(i for i, line in enumerate(body) if line.strip() == body[opening].strip())
        if closing > opening:
            return body[opening + 1 : closing], start + closing + 1
        # One rule under the header: the documents run from it to the block's end.
        return body[opening + 1 :], index
    last = next((i for i in range(len(body) - 1, -1, -1) if body[i].strip()), None)
    if last is not None and last > 0 and not inline.strip() and _closes(lines[start - 1], body[last]):
        return body[:last], index
    return body, index


def _caption_over_run(body: list[str], lines: list[str], rule: int) -> bool:
    """A block of one line, no question's label, closed by a rule that fences one passage after it (the
    same rule once more further down): the line is a document the rules end, or the template's caption
    over the fenced passage ("Excerpt from Li X, … 2025;612:234-251."), and nothing in the layout tells
    which. Rules fencing several passages (a few-shot example's, then the documents) caption none."""
    written = [text for text in body if text.strip()]
    fence = lines[rule].strip()
    fenced = sum(line.strip() == fence for line in lines[rule + 1 :])
    return len(written) == 1 and _asked(written[0]) is None and fenced == 1


def _heading_level(line: str) -> int:
    """The rank of a markdown heading line (1 for ``#``), 0 for any other line."""
    match = _HEADING.match(line)
    return len(line.strip()) - len(line.strip().lstrip("#")) if match else 0


def _labelled_run(lines: list[str], start: int, asked_at: int) -> tuple[list[str], int]:
    """Documents labelled outside a context block ("Document 1: ...", "[1] ..."): the run of items numbered
    on from the first. Where the last one ends is read from the others: at its first blank line when they
    are one paragraph each; at the run's end (less the prompt's closing instructions) when they run over
    blank lines, or when the label opened a message the document fills. When they are one paragraph each and
    more text follows, it cannot be told."""
    expected = _item_start(lines[start])
    index = start
    last_item = start
    labels = {start}
    while index < len(lines):
        line = lines[index]
        number = _item_start(line)
        next_label = number is not None and expected is not None and number == expected + 1
        if index > start and next_label and _label_kind(line) == _label_kind(lines[start]):
            expected = number
            last_item = index
            labels.add(index)
        elif index > start and (index == asked_at or _ANSWER_CUE.match(line) or _STOP_LABEL.match(line)):
            break
        index += 1
    header = next((lines[i] for i in range(start - 1, -1, -1) if lines[i].strip()), "")
    end = next((i for i in range(last_item + 1, index) if not lines[i].strip()), index)
    tail = _without_closing_words(lines[end:index], header)
    if any(line.strip() for line in tail):
        paragraphs = any(
            not lines[i].strip() and lines[i + 1].strip() and i + 1 not in labels
            for i in range(start, last_item - 1)
        )
        fills_message = index == len(lines) and not any(line.strip() for line in lines[:start])
        if paragraphs or fills_message:
            return lines[start:end] + tail, index
        # The last document may go on past its blank line, or the prompt's words follow it: no telling.
        raise _NotSeparable
    if end - 1 > last_item and _closes(header, lines[end - 1]):
        # "Here is the knowledge base: ... The above is the knowledge base.": the prompt's, not a document's.
        return lines[start : end - 1], end
    return lines[start:end], end


def _without_closing_words(lines: list[str], header: str) -> list[str]:
    """Lines after a document less the prompt's own last paragraphs: instructions about the documents, a
    line echoing their header, a cue for the answer."""
    paragraphs = re.split(r"\n\s*\n", "\n".join(lines))
    while paragraphs and (
        not paragraphs[-1].strip()
        or _instructs(paragraphs[-1])
        or _closes(header, paragraphs[-1].strip())
        or _ANSWER_CUE.match(paragraphs[-1])
    ):
        paragraphs.pop()
    return "\n\n".join(paragraphs).splitlines()


def _closes(header: str, line: str) -> bool:
    """A short line after the documents that repeats the words of the line that announced them (in
    scripts written without spaces, four characters in a row)."""
    if len(line.split()) > 12:
        return False
    words = set(re.findall(r"\w{4,}", line.lower())) & set(re.findall(r"\w{4,}", header.lower()))
    if len(words) >= 2:
        return True
    unspaced = re.findall(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{4,}", line)
    return any(run[i : i + 4] in header for run in unspaced for i in range(len(run) - 3))


def _label_kind(line: str, patterns: tuple[re.Pattern[str], ...] = _ITEM_PATTERNS) -> tuple[int, str]:
    """How a label is written (its pattern and word): "Document 2:" goes on from "Document 1:", a "[2]" in a
    document's text does not."""
    shape = next((n for n, pattern in enumerate(patterns) if pattern.match(line)), -1)
    before_number = re.match(r"\D*", line)
    return shape, re.sub(r"[^\w]|\d", "", before_number.group().lower() if before_number else "")


def _item_start(line: str) -> int | None:
    """The number of a strong document label ("[1] ...", "Document 1: ..."), or None."""
    for pattern in _ITEM_PATTERNS:
        match = pattern.match(line)
        if match:
            return int(match.group("n"))
    return None


def _items(lines: list[str], settled: bool = False) -> list[str]:
    """A context block's body split into its documents, each without the metadata lines printed before it."""
    return [text for text in (strip_metadata(item) for item in _split_items(lines, settled)) if text]


def _split_items(lines: list[str], settled: bool = False) -> list[str]:
    """``settled``: where the last item ends was already read (a labelled run's), not to be read again."""
    while lines and not lines[0].strip():
        lines = lines[1:]
    if not lines:
        return []
    for patterns in (_ITEM_PATTERNS, _LIST_PATTERNS):
        if _numbered(lines[0], patterns) is not None:
            _GUESSED.set(_GUESSED.get() or patterns is _LIST_PATTERNS)
            return _numbered_items(lines, patterns, settled)
    if _BULLET.match(lines[0]):
        _GUESSED.set(True)
        return _bulleted_items(lines, settled)
    code = _code_lines(lines)
    rules = [n for n, line in enumerate(lines) if _DELIMITER.match(line) and n not in code]
    if rules:
        if len({_rule_shape(lines, n) for n in rules if 0 < n < len(lines) - 1}) > 1:
            # A template writes its separator one way; a rule written otherwise is a document's own.
            raise _NotSeparable
        pieces: list[str] = []
        current: list[str] = []
        for n, line in enumerate(lines):
            if _DELIMITER.match(line) and n not in code:
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
    read = json_reading(text) or _json_lines(text)
    if read is not None:
        return read.documents
    listed = python_list(text)
    if listed is not None:
        return listed
    records = _records(lines)
    if records:
        return records
    quoted = re.findall(r"«(.*?)»", text, re.S)
    if quoted and not re.sub(r"«.*?»", "", text, flags=re.S).strip(" \n,;"):
        return [piece.strip() for piece in quoted if piece.strip()]
    paragraphs = _with_metadata_joined(_paragraphs(text))
    headed = _headed_sections(text)
    if headed:
        return headed
    _GUESSED.set(True)
    while len(paragraphs) > 1 and _instructs(paragraphs[-1]):
        paragraphs.pop()
    if any(_goes_on(paragraph) for paragraph in paragraphs[:-1]) or (
        len(paragraphs) > 1 and _commands(paragraphs[-1])
    ):
        raise _NotSeparable
    if len(paragraphs) > 1 or (paragraphs and "\n\n" in paragraphs[0]):
        # (One paragraph holding a blank line: metadata lines joined to the text they describe.)
        return [_unquoted(p) for p in paragraphs]
    return [_unquoted(line.strip()) for line in "\n".join(paragraphs).splitlines() if line.strip()]


def _rule_shape(lines: list[str], index: int) -> tuple[str, bool, bool]:
    """A rule line as written: its characters, and whether a blank line comes before and after it."""
    return lines[index].strip(), not lines[index - 1].strip(), not lines[index + 1].strip()


def _commands(paragraph: str) -> bool:
    """A short paragraph that tells the model how to answer ("Be concise.", "Answer in English."): after
    documents at blank lines it may be the prompt's or a document's own sentence."""
    words = paragraph.split()
    return len(words) <= 15 and bool(_COMMAND.match(paragraph))


def _goes_on(paragraph: str) -> bool:
    """A paragraph that cannot end a document: it introduces what follows (ends on a colon or a heading),
    or opens a code block it does not close. Documents split at blank lines would be cut."""
    last = paragraph.rstrip().splitlines()[-1] if paragraph.strip() else ""
    return last.rstrip().endswith((":", "：")) or bool(_HEADING.match(last)) or _open_fence(paragraph)


def _records(lines: list[str]) -> list[str]:
    """Records that each open with the same label line: a rule with a label ("==== [File:a.md]:") or a
    text field ("Content: ..."). The rule's label is metadata; a text field's value opens the text."""
    first = lines[0].strip()
    rule = re.match(r"^([=\-#~*_]{3,})\s*\S", first)
    field = re.match(r"^(content|text|passage|snippet|chunk|page_content)\s*:\s*", first, re.IGNORECASE)
    if rule is None and field is None:
        return []
    opener = rule.group(1) if rule is not None else field.group(1) if field is not None else ""
    starts = [i for i, line in enumerate(lines) if line.strip().lower().startswith(opener.lower())]
    if len(starts) < 2:
        return []
    records = []
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        head = lines[start].strip()
        rest = lines[start + 1 : end]
        opening = [] if rule is not None else [head[len(opener) :].lstrip(" :")]
        records.append("\n".join([*opening, *rest]).strip())
    return records


def _with_metadata_joined(paragraphs: list[str]) -> list[str]:
    """A paragraph of metadata lines ("file_name: a.pdf") belongs to the text paragraph after it."""
    joined: list[str] = []
    for paragraph in paragraphs:
        if joined and is_metadata_only(joined[-1]):
            joined[-1] = joined[-1] + "\n\n" + paragraph
        else:
            joined.append(paragraph)
    return joined


def _headed_sections(text: str) -> list[str]:
    """Sections under markdown headings of one level, the first opening the block: one document each."""
    lines = text.splitlines()
    first = _HEADING.match(lines[0]) if lines else None
    if first is None:
        return []
    level = len(lines[0].strip()) - len(lines[0].strip().lstrip("#"))
    starts = [i for i, line in enumerate(lines) if _HEADING.match(line)
              and len(line.strip()) - len(line.strip().lstrip("#")) == level]  # fmt: skip
    if len(starts) < 2 and len(lines) < 2:
        return []
    ends = [*starts[1:], len(lines)]
    return ["\n".join(lines[s:e]).strip() for s, e in zip(starts, ends, strict=True)]


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


def _numbered_items(
    lines: list[str], patterns: tuple[re.Pattern[str], ...], settled: bool = False
) -> list[str]:
    """Items numbered on from the first label: a line with the next number opens the next item; any other
    line continues the current one."""
    expected = _numbered(lines[0], patterns)
    starts = [0]
    for index, line in enumerate(lines[1:], 1):
        number = _numbered(line, patterns)
        next_label = number is not None and expected is not None and number == expected + 1
        if next_label and _label_kind(line, patterns) == _label_kind(lines[0], patterns):
            starts.append(index)
            expected = number
    kind = _label_kind(lines[0], patterns)
    stray = [i for i, line in enumerate(lines) if i not in starts and _numbered(line, patterns) is not None]
    if any(_label_kind(lines[i], patterns) == kind for i in stray):
        # A label of the same kind out of sequence ("1." again inside item 1): a document's own list.
        raise _NotSeparable
    items = []
    for position, start in enumerate(starts):
        end = starts[position + 1] if position + 1 < len(starts) else len(lines)
        body = "\n".join([_label_rest(lines[start], patterns), *lines[start + 1 : end]]).strip()
        if body:
            items.append(_unquoted(body))
    if any(_goes_on(item) for item in items[:-1]):
        raise _NotSeparable
    return items if settled else _last_item_settled(items)


def _last_item_settled(texts: list[str]) -> list[str]:
    """Items less the prompt's closing words after the last one. What follows the last item's first paragraph
    is the document's when its first paragraph goes on, or when the other items run over blank lines too; the
    prompt's instructions about the documents are cut off; anything else may be either: refused."""
    if not texts:
        return texts
    first, *more = re.split(r"\n\s*\n", texts[-1], maxsplit=1)
    if not more or not more[0].strip():
        return texts
    kept = "\n".join(_without_closing_words(more[0].splitlines(), "")).strip()
    if not kept:
        return [*texts[:-1], first.strip()]
    if _goes_on(first) or any(re.search(r"\n\s*\n", text) for text in texts[:-1]):
        return [*texts[:-1], f"{first.strip()}\n\n{kept}"]
    raise _NotSeparable


def _label_rest(line: str, patterns: tuple[re.Pattern[str], ...]) -> str:
    """What follows an item's label on its line."""
    for pattern in patterns:
        match = pattern.match(line)
        if match:
            return match.group("rest") or ""
    return line


def _bulleted_items(lines: list[str], settled: bool = False) -> list[str]:
    items: list[list[str]] = []
    for line in lines:
        match = _BULLET.match(line)
        if match:
            items.append([match.group("rest")])
        elif items:
            items[-1].append(line)
    texts = [_unquoted("\n".join(item).strip()) for item in items if "\n".join(item).strip()]
    if any(_goes_on(text) for text in texts[:-1]):
        # "Limits per plan:" then bullets: the bullets are that document's list, not documents.
        raise _NotSeparable
    return texts if settled else _last_item_settled(texts)


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
        if (
            _ANSWER_CUE.match(line)
            or _STOP_LABEL.match(line)
            or _DELIMITER.match(line)
            or _context_header(lines, index) is not None
        ):
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
