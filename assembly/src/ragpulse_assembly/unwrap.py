"""Plain text out of the values instrumentors record: JSON dicts of chain inputs and outputs (nested, as
Haystack's ``{"data": {"<component>": {...}}}``), chat message lists in the shapes OpenAI, the GenAI
conventions, LangChain and Haystack write, LLM results, and Python reprs inside them.

Each reader returns the text, ``""`` when nothing was recorded, or None when something was recorded in a
shape that holds no text it can name exactly: a JSON object is never passed on as if it were text.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterator
from typing import Any, Final

from ragpulse_assembly.model import Message, Role, role
from ragpulse_assembly.pyrepr import looks_like_repr, repr_role, repr_text

QUESTION_KEYS: Final = (
    "question", "query", "query_str", "user_question", "user_query", "user_input", "input", "inputs",
    "query_bundle", "messages",
)  # fmt: skip
ANSWER_KEYS: Final = (
    "answer", "final_answer", "output", "outputs", "result", "response", "replies", "answers", "completion",
    "generations", "generation", "text", "content", "messages", "choices", "message", "data",
)  # fmt: skip
_DOCUMENT_HOLDERS: Final = frozenset(
    {"documents", "docs", "context", "contexts", "source_documents", "source_nodes", "nodes", "sources",
     "chunks", "passages", "retrieved", "retrieved_documents", "search_results"}
)  # fmt: skip
"""Keys whose values are retrieved documents: their text is never a question or an answer."""
_MAX_DEPTH: Final = 8


def parse_json(text: str) -> Any:
    """The JSON value of ``text``, or None when it is not a JSON object, array or string."""
    stripped = text.strip()
    if not stripped or stripped[0] not in '{["':
        return None
    try:
        return json.loads(stripped)
    except (ValueError, RecursionError):  # ValueError: not JSON, or a number too long to convert
        return None


def looks_like_json(text: str) -> bool:
    """The text starts as a JSON object or array does (parsed or cut short by a length limit)."""
    stripped = text.lstrip()
    return stripped.startswith("{") or re.match(r"\[\s*[\[{\"\]]", stripped) is not None


def question_text(value: str) -> str | None:
    """The question in a chain's or retriever's input: plain text, ``{"question": ...}`` at any depth, a
    QueryBundle, a message list (its last user message)."""
    return _unwrap(value, QUESTION_KEYS, Role.USER)


def answer_text(value: str) -> str | None:
    """The answer in a chain's or LLM's output: plain text, ``{"answer": ...}`` at any depth, an LLMResult,
    an OpenAI response, an AIMessage, Haystack replies.

    A chain that returns retrieved documents (a fusion step, a retriever wrapped in a chain) answered
    nothing: its output is no answer, however outermost the chain.
    """
    parsed = parse_json(value)
    if is_document_list(parsed):
        return ""
    return _unwrap(value, ANSWER_KEYS, Role.ASSISTANT)


def is_document_list(value: Any) -> bool:
    """A serialized list of LangChain Documents (``page_content``) or LlamaIndex nodes (``node``)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(item, dict) and _is_document(item) for item in value)
    )


def _is_document(item: dict[str, Any]) -> bool:
    kwargs = item.get("kwargs")
    return (
        "page_content" in item
        or "node" in item
        or item.get("type") == "Document"
        or (isinstance(kwargs, dict) and "page_content" in kwargs)
    )


def _unwrap(value: str, keys: tuple[str, ...], wanted: Role) -> str | None:
    if not value.strip():
        return ""
    parsed = parse_json(value)
    if parsed is None:
        if looks_like_repr(value):
            return repr_text(value)
        return None if looks_like_json(value) else value
    return text_in(parsed, keys, wanted)


def text_in(value: Any, keys: tuple[str, ...], wanted: Role) -> str | None:
    """The text ``value`` holds under the first of ``keys`` found at any depth (breadth first, so an outer
    key wins over an inner one), or as a message of role ``wanted``."""
    direct = _direct_text(value, wanted)
    if direct is not None:
        return direct
    holders = list(_dicts(value))
    for key in keys:
        for holder in holders:
            if key in holder:
                found = _direct_text(holder[key], wanted)
                if found:
                    return found
    return None


def _dicts(value: Any) -> Iterator[dict[str, Any]]:
    """Every dict inside ``value`` that is not a chat message, breadth first, to a bounded depth."""
    queue: deque[tuple[Any, int]] = deque([(value, 0)])
    while queue:
        item, depth = queue.popleft()
        if depth > _MAX_DEPTH:
            continue
        if isinstance(item, dict) and not message_role(item):
            yield item
            queue.extend((child, depth + 1) for key, child in item.items() if key not in _DOCUMENT_HOLDERS)
        elif isinstance(item, list):
            queue.extend((child, depth + 1) for child in item)


def _direct_text(value: Any, wanted: Role) -> str | None:
    """The text of a string, a message, a message list, or a one-item list of those; None otherwise."""
    if isinstance(value, str):
        if looks_like_repr(value):
            return repr_text(value)
        parsed = parse_json(value)
        return value if parsed is None or (isinstance(parsed, str) and parsed == value) else None
    if isinstance(value, dict):
        message = message_of(value)
        if message is not None and message.role in (wanted, Role.OTHER):
            return message.text
        choice = value.get("message")
        if isinstance(choice, dict) and "index" in value:
            return _direct_text(choice, wanted)
        return None
    if isinstance(value, list):
        messages = messages_of(value)
        if messages:
            chosen = [m.text for m in messages if m.role is wanted]
            unsaid = [m.text for m in messages if m.role is Role.OTHER]
            return chosen[-1] if chosen else unsaid[-1] if len(unsaid) == 1 else None
        if len(value) == 1:
            return _direct_text(value[0], wanted)
    return None


def messages_of(value: Any) -> list[Message]:
    """The chat messages of a list in any known shape (nested one level, as LangChain does), or []."""
    if not isinstance(value, list):
        return []
    found = []
    for item in _flatten(value):
        message = message_of(item)
        if message is not None:
            found.append(message)
    return found


def _flatten(items: list[Any]) -> Iterator[Any]:
    for item in items:
        if isinstance(item, list):
            yield from item
        else:
            yield item


def message_of(value: Any) -> Message | None:
    """A chat message: OpenAI/GenAI ``{"role", "content"|"parts"}``, LangChain ``{"type": "human",
    "data"|"kwargs": {...}}`` or its constructor form, Haystack ``{"role"|"_role", "content"|"_content"}``,
    or a message repr string; None when ``value`` is not one or its text cannot be read."""
    if isinstance(value, str):
        if not looks_like_repr(value):
            return None
        text = repr_text(value)
        return None if text is None else Message(role(repr_role(value)), text)
    if not isinstance(value, dict):
        return None
    name = message_role(value)
    if not name:
        return None
    for holder in (value, value.get("kwargs"), value.get("data")):
        if isinstance(holder, dict):
            for key in ("content", "_content", "parts", "text"):
                if key in holder:
                    text = content_text(holder[key])
                    if text is not None:
                        return Message(role(name), text)
    return None


def message_role(message: dict[str, Any]) -> str:
    """The role of a chat message in any of the shapes seen, or ""."""
    for key in ("role", "_role"):
        spelled = message.get(key)
        if isinstance(spelled, str) and spelled:
            return spelled
    kind = message.get("type")
    if isinstance(kind, str) and role(kind) is not Role.OTHER:
        return kind
    identifier = message.get("id")
    if isinstance(identifier, list) and identifier and isinstance(identifier[-1], str):
        return identifier[-1] if identifier[-1].lower().endswith("message") else ""
    return ""


def content_text(content: Any) -> str | None:
    """A message's content: a string, or a list of parts (``{"type": "text", "text"|"content": ...}``,
    Haystack's ``{"text": ...}``, a tool's response); None when it holds no text part."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        # A single part, or Gemini's {"role", "parts": [...]} content.
        inner = content.get("parts", content.get("text"))
        return content_text(inner) if inner is not content else None
    if isinstance(content, list):
        texts = [_part_text(part) for part in content if isinstance(part, dict)]
        strings = [text for text in texts if text is not None]
        return "\n".join(strings) if strings else None
    return None


def _part_text(part: dict[str, Any]) -> str | None:
    """A text part's text, or a tool result's (GenAI ``tool_call_response``: a search tool's documents)."""
    kind = part.get("type", "text")
    if kind in ("text", "input_text", "output_text"):
        text = part.get("text", part.get("content"))
        return text if isinstance(text, str) else None
    if kind == "tool_call_response":
        response = part.get("response", part.get("result"))
        if isinstance(response, str):
            return response
        return json.dumps(response, ensure_ascii=False) if isinstance(response, list | dict) else None
    return None
