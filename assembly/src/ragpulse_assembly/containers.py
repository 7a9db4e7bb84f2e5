"""The containers documents sit in inside a prompt, read by their structure wherever they occur: XML/HTML-like
elements (matched open and close tags, nested or not), a message that is one JSON value, fenced blocks
(``\"\"\"`` or code fences), and the metadata lines frameworks print before a chunk's text.

A tag that is never closed (an example quoted in the instructions, ``(e.g., <source id="1">)``) is no
element. Inside a document element, the content-like child is the text and siblings such as ``<source>`` or
``<title>`` are metadata.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any, Final

from ragpulse_assembly.dialects.base import documents_of
from ragpulse_assembly.pyrepr import list_items
from ragpulse_assembly.unwrap import parse_json

DOCUMENT_TAGS: Final = frozenset(
    [
        "doc", "document", "passage", "chunk", "snippet", "excerpt", "source", "result", "article", "record",
        "item", "node", "entry"
    ]
)  # fmt: skip
CONTAINER_TAGS: Final = frozenset(
    [
        "context", "contexts", "documents", "sources", "passages", "search_results", "results", "knowledge",
        "retrieved_documents", "docs", "chunks", "references", "snippets", "excerpts", "articles", "records",
        "retrieved_context", "information"
    ]
)  # fmt: skip
NOT_DOCUMENT_TAGS: Final = frozenset(
    [
        "example", "examples", "instruction", "instructions", "rule", "rules", "guideline", "guidelines",
        "format", "output_format", "sample", "samples", "demo", "demos", "history", "conversation", "message",
        "messages", "turn", "turns", "chat", "persona", "system", "tool", "tools", "function", "functions",
        "schema", "thinking", "scratchpad", "answer", "response", "output", "constraints", "task", "role"
    ]
)  # fmt: skip
"""Elements that hold what documents are not: repeated, they are still no documents."""
QUESTION_TAGS: Final = frozenset(["question", "query", "user_question", "user_query", "user_input"])
_TEXT_TAGS: Final = (
    "document_content", "content", "text", "page_content", "body", "snippet", "passage", "chunk", "excerpt",
)  # fmt: skip
_TAG: Final = re.compile(r"<(?P<close>/)?(?P<tag>[A-Za-z][\w.-]*)(?P<attributes>\s[^<>]*?)?\s*(?P<empty>/)?>")
_METADATA_LINE: Final = re.compile(
    r"^\s*(?P<tree>[├└│─┬┼]+[─\s]*)?(?P<key>[A-Za-z][\w .-]{0,30}?)\s*[:：]\s*"
    r"(?P<value>\S[^\n]{0,300})?\s*$"
)
_METADATA_KEYS: Final = frozenset(
    [
        "id", "title", "source", "url", "uri", "link", "file", "filename", "name", "path", "page", "author",
        "date", "category", "section", "document", "heading", "score", "type", "language", "created",
        "updated", "modified"
    ]
)  # fmt: skip
_TEXT_KEYS: Final = frozenset(
    ["content", "text", "body", "passage", "chunk", "snippet", "excerpt", "page_content"]
)
_HEADING: Final = re.compile(r"^\s*#{1,6}\s+\S.*$")
_CLOSING_LABEL: Final = re.compile(r"^\s*\[\s*(?:end|/)[\w\s-]{0,30}\]\s*$", re.IGNORECASE)
"""A label that closes a document ("[END CONTEXT 0]")."""
_NAMED_LINE: Final = re.compile(
    r"^\s*(?P<name>(?:https?://\S+|[\w./\\-]+\.[A-Za-z]\w{0,4}(?:#[\w=&-]+)?))\s*:\s+(?P<text>\S.*)$"
)
"""A line opening with a file name or URL and a colon."""
_TITLE_LINE: Final = re.compile(
    r"^\s*(?:(?:(?![.!?]\s).){0,120}\(https?://[^\s)]+\)|<?https?://\S+>?|[\w./-]+\.[A-Za-z]\w{0,4})\s*$"
)
_ANY_WORD: Final = re.compile(r"\w")
_MENTION_WORDS: Final = 3
"""Words a tag pair named in a sentence encloses at most ("and", "…")."""
_NEAR: Final = 80
"""Characters looked at on each side of a tag pair for the sentence naming it (bounded: a line of many
tags costs each of them as much, not the whole line)."""
_CDATA: Final = re.compile(r"<!\[CDATA\[(?P<text>.*?)\]\]>", re.DOTALL)
_FENCE: Final = re.compile(r'^\s*(?P<fence>```|~~~|""")\w*\s*$')


@dataclass(frozen=True)
class Element:
    tag: str
    start: int
    end: int
    body_start: int
    body_end: int
    children: tuple[Element, ...]

    def body(self, text: str) -> str:
        return text[self.body_start : self.body_end]


def elements(text: str) -> list[Element]:
    """The outermost elements of ``text`` whose open tag has a matching close tag; an open tag closed by
    none (an example quoted in prose) is skipped, and so is everything it would have enclosed."""
    stack: list[tuple[str, int, int, list[Element]]] = [("", 0, 0, [])]
    for match in _TAG.finditer(text):
        tag = match.group("tag").lower()
        if match.group("empty"):
            continue
        if not match.group("close"):
            stack.append((tag, match.start(), match.end(), []))
            continue
        depth = next((d for d in range(len(stack) - 1, 0, -1) if stack[d][0] == tag), None)
        if depth is None:
            continue
        # Unclosed tags opened inside this element are no elements; what they enclosed belongs to it.
        for _, _, _, orphans in stack[depth + 1 :]:
            stack[depth][3].extend(orphans)
        name, start, body_start, children = stack[depth]
        del stack[depth:]
        element = Element(name, start, match.end(), body_start, match.start(), tuple(children))
        if _mentioned(element, text):
            stack[-1][3].extend(children)
        else:
            stack[-1][3].append(element)
    found: list[Element] = []
    for _, _, _, children in stack:
        found.extend(children)
    return sorted(found, key=lambda element: element.start)


def _mentioned(element: Element, text: str) -> bool:
    """The element is a tag pair named in a sentence ("the CONTEXT between <context> and </context>
    tags"): on one line, with words (not other tags) before its open tag and after its close tag, and a few
    words at most inside. Instructions name the tags the template fills further on; what they enclose is
    no document."""
    body = text[element.body_start : min(element.body_end, element.body_start + _NEAR)]
    if element.body_end - element.body_start > _NEAR or "\n" in body or len(body.split()) > _MENTION_WORDS:
        return False
    before = _TAG.sub("", text[max(0, element.start - _NEAR) : element.start].rsplit("\n", 1)[-1])
    after = _TAG.sub("", text[element.end : element.end + _NEAR].split("\n", 1)[0])
    return _ANY_WORD.search(before) is not None and _ANY_WORD.search(after) is not None


def element_documents(element: Element, text: str) -> list[str] | None:
    """The documents a container or document element holds, or None when it is neither.

    Structure decides before names: an element whose children repeat one tag (two or more ``<result>``,
    ``<search_result>``, ``<item>``...) holds one document per repeated child, whatever the tags are called,
    unless the tags name what documents are not (examples, instructions, messages).
    """
    if element.tag in NOT_DOCUMENT_TAGS:
        return None
    if element.tag in DOCUMENT_TAGS:
        return [document_text(element, text)]
    repeated = _repeated_children(element)
    if repeated:
        return [document_text(child, text) for child in repeated]
    if element.tag not in CONTAINER_TAGS:
        return None
    if element.children:
        inner = [found for child in element.children for found in element_documents(child, text) or []]
        if inner:
            return inner
    return None


def _repeated_children(element: Element) -> list[Element]:
    """The children that share one tag, when two or more do and that tag is no non-document's."""
    counts: dict[str, int] = {}
    for child in element.children:
        counts[child.tag] = counts.get(child.tag, 0) + 1
    tags = [tag for tag, count in counts.items() if count >= 2 and tag not in NOT_DOCUMENT_TAGS]
    if len(tags) != 1 or tags[0] in _TEXT_TAGS:
        return []
    return [child for child in element.children if child.tag == tags[0]]


def document_text(element: Element, text: str) -> str:
    """A document element's text: its content-like child's, else its body without metadata children."""
    children = {child.tag: child for child in element.children}
    for tag in _TEXT_TAGS:
        if tag in children:
            return document_text(children[tag], text)
    body = element.body(text)
    cdata = _CDATA.fullmatch(body.strip())
    if cdata is not None:
        # Character data is the text as written: nothing in it is markup or metadata.
        return cdata.group("text").strip()
    for child in sorted(element.children, key=lambda c: c.start, reverse=True):
        at, end = child.start - element.body_start, child.end - element.body_start
        body = body[:at] + body[end:]
    if not body.strip() and element.children:
        # Only child elements, none named for text (<passage_text>, <summary>): the longest is the text and
        # the others (<url>, <title>, <date>) its metadata.
        return document_text(max(element.children, key=lambda c: len(c.body(text).strip())), text)
    return strip_metadata(body.strip())


def strip_metadata(text: str) -> str:
    """A chunk without the metadata lines a framework printed before its text: a run of ``key: value``
    lines (LlamaIndex's ``file_name: ...``, RAGFlow's ``├── Title: ...``) ended by a blank line or by a
    key with no value (``└── Content:``), or a heading line, or a label line before a fenced block. A chunk
    that is all ``key: value`` lines is text (a record, a FAQ entry)."""
    lines = text.strip().splitlines()
    while len(lines) > 1 and (_CLOSING_LABEL.match(lines[-1]) or _trailing_metadata(lines[-1])):
        lines = lines[:-1]
        text = "\n".join(lines)
    if len(lines) > 1 and _TITLE_LINE.match(lines[0]):
        # "plans.html (https://...)", a bare URL: a search result's title line.
        lines = lines[1:]
        text = "\n".join(lines)
    if not lines:
        return ""
    named = _NAMED_LINE.match(lines[0])
    if named is not None:
        # "info1.txt: text", "https://a.b/c: text": a source's name before its text.
        return "\n".join([named.group("text"), *lines[1:]]).strip()
    if _HEADING.match(lines[0]) and len(lines) > 1:
        return strip_metadata("\n".join(lines[1:]))
    fenced = fenced_blocks("\n".join(lines))
    if len(fenced) == 1 and fenced[0][0] <= 1 and fenced[0][2] == len(lines) - 1:
        return fenced[0][3].strip()
    for index, line in enumerate(lines):
        match = _METADATA_LINE.match(line)
        if match is None or not _metadata_key(match):
            if index and not line.strip():
                return "\n".join(lines[index + 1 :]).strip() or text.strip()
            return text.strip()
        if match.group("value") is not None and match.group("key").strip().lower() in _TEXT_KEYS and index:
            # "title: a.md" then "text: ...": the text field's value is the text.
            return "\n".join([match.group("value"), *lines[index + 1 :]]).strip()
        if match.group("value") is None:
            if match.group("key").strip().lower() in _TEXT_KEYS and index + 1 < len(lines):
                # "Content:" (or "└── Content:"): the text follows.
                return "\n".join(lines[index + 1 :]).strip()
            return text.strip()
    return text.strip()


def _trailing_metadata(line: str) -> bool:
    """A last line naming the chunk's source ("Source: 28-pl"): one known key, one short token."""
    match = _METADATA_LINE.match(line)
    if match is None or match.group("value") is None:
        return False
    return match.group("key").strip().lower() in _METADATA_KEYS and len(match.group("value").split()) == 1


def _metadata_key(match: re.Match[str]) -> bool:
    """A key frameworks print as a chunk's metadata: a tree-drawn one, a snake_case one, or a known name."""
    key = match.group("key").strip().lower()
    return bool(match.group("tree")) or ("_" in key and " " not in key) or key in _METADATA_KEYS | _TEXT_KEYS


def is_metadata_only(paragraph: str) -> bool:
    """A paragraph of ``key: value`` lines with short keys and one-line values: a chunk's metadata when a
    text paragraph follows it."""
    lines = [line for line in paragraph.splitlines() if line.strip()]
    matches = [_METADATA_LINE.match(line) for line in lines]
    return bool(lines) and all(m is not None and m.group("value") and _metadata_key(m) for m in matches)


def fenced_blocks(text: str) -> list[tuple[int, int, int, str]]:
    """Fenced blocks as (label line, opening line, closing line, body): the label is the non-blank line just
    before the opening fence, or the opening line itself when there is none."""
    lines = text.splitlines()
    blocks: list[tuple[int, int, int, str]] = []
    index = 0
    while index < len(lines):
        match = _FENCE.match(lines[index])
        if match is None:
            index += 1
            continue
        fence = match.group("fence")
        closing = next((j for j in range(index + 1, len(lines)) if lines[j].strip() == fence), None)
        if closing is None:
            break
        label = index - 1 if index and lines[index - 1].strip() else index
        blocks.append((label, index, closing, "\n".join(lines[index + 1 : closing])))
        index = closing + 1
    return blocks


def _longest_field(items: list[Any]) -> list[str] | None:
    """Records with a text under a name no framework shares (``description``, ``name``): the one string
    field every record has whose values run to sentences, the longest string of each; the other fields are
    metadata."""
    if not all(isinstance(item, dict) for item in items):
        return None
    shared = set.intersection(*(set(k for k, v in item.items() if isinstance(v, str)) for item in items))
    prose = [key for key in shared if all(len(item[key].split()) >= _PROSE_WORDS for item in items)]
    if len(prose) > 1:
        # A headline runs to five words too; of several such fields, the one whose every value ends as a
        # sentence does is the text. Two that both do (a question and its answer) leave it undecided.
        prose = [key for key in prose if all(item[key].rstrip()[-1:] in _SENTENCE_ENDS for item in items)]
    if len(prose) != 1:
        return None
    key = prose[0]
    if any(
        len(value) > len(item[key]) for item in items for value in item.values() if isinstance(value, str)
    ):
        # A record whose text field is missing leaves another field to be taken for it (a headline where
        # the snippet was left out): the text is the longest string of every record.
        return None
    return [item[key] for item in items]


_PROSE_WORDS: Final = 5
_SENTENCE_ENDS: Final = frozenset(".!?…。！？।॥۔؟።")
"""Marks a sentence ends with (Latin, CJK, Devanagari, Urdu, Arabic, Ethiopic), never a headline's end."""


def python_list(text: str) -> list[str] | None:
    """A block that is a Python list's repr: of strings (``['a', 'b']``), or of objects whose text is a
    keyword (``[Document(metadata={...}, page_content='...')]``). Nothing is evaluated."""
    stripped = text.strip()
    if not (stripped.startswith("[") and stripped.endswith("]")):
        return None
    items = list_items(stripped)
    if not items:
        return None
    if all(isinstance(item, ast.Dict) for item in items):
        return _printed_records(stripped)
    texts = [_repr_item(item) for item in items]
    return [text for text in texts if text is not None] if all(texts) else None


def _printed_records(literal: str) -> list[str] | None:
    """A list of dicts as Python prints it (``str(results)`` pasted into a prompt): read as the same list in
    JSON would be. Only literals are evaluated, never a name or a call."""
    try:
        value = ast.literal_eval(literal)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return _json_documents(value)


def _repr_item(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Call):
        for keyword in node.keywords:
            value = keyword.value
            if keyword.arg in _TEXT_KEYS and isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value
    return None


@dataclass(frozen=True)
class JsonReading:
    documents: list[str]
    question: str | None


_QUESTION_KEYS: Final = ("question", "query", "user_question", "user_query", "input", "prompt", "q")


def json_reading(text: str) -> JsonReading | None:
    """A message that is one JSON object or list holding documents (and maybe the question)."""
    if not text.lstrip().startswith(("{", "[")):
        return None
    parsed = parse_json(text)
    if not isinstance(parsed, dict | list):
        return None
    documents = _json_documents(parsed)
    if documents is None:
        return None
    question = None
    if isinstance(parsed, dict):
        asked = [parsed[key] for key in _QUESTION_KEYS if isinstance(parsed.get(key), str)]
        question = asked[0].strip() if asked else None
    return JsonReading(documents, question)


def _json_documents(value: Any) -> list[str] | None:
    """The first list of documents (dicts with a text-like field, or strings under a documents-like key)
    found in ``value``, depth first."""
    if isinstance(value, list) and value:
        found = documents_of(value)
        if found:
            return [document.text for document in found if document.text]
        # [{"[doc1]": {"content": ...}}, ...]: each document under its name.
        named = [next(iter(item.values())) for item in value if isinstance(item, dict) and len(item) == 1]
        found = documents_of(named) if len(named) == len(value) else None
        if found:
            return [document.text for document in found if document.text]
        texts = _longest_field(value)
        if texts:
            return texts
    if isinstance(value, dict):
        for key, item in value.items():
            if (
                key.lower() in CONTAINER_TAGS
                and isinstance(item, list)
                and item
                and all(isinstance(entry, str) for entry in item)
            ):
                return [entry for entry in item if entry.strip()]
            inner = _json_documents(item)
            if inner:
                return inner
        if any(key.lower() in CONTAINER_TAGS and item == [] for key, item in value.items()):
            # {"documents": []}: the search found nothing.
            return []
    return None
