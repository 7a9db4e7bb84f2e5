"""Plain text out of the values instrumentors record: JSON dicts of chain inputs and outputs, LangChain
message lists and LLM results, GenAI message parts.

Every function takes any text and returns text: a value that is not JSON, or JSON of an unknown shape, comes
back as it was, so nothing an instrumentor writes is lost.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Final

QUESTION_KEYS: Final = ("question", "query", "input", "query_str", "query_bundle", "messages", "prompt")
ANSWER_KEYS: Final = ("answer", "output", "result", "response", "text", "generations", "messages", "content")
USER_ROLES: Final = frozenset({"user", "human"})
ASSISTANT_ROLES: Final = frozenset({"assistant", "ai", "model"})
_MAX_DEPTH: Final = 8


def parse_json(text: str) -> Any:
    """The JSON value of ``text``, or None when it is not a JSON object, array or string."""
    stripped = text.strip()
    if not stripped or stripped[0] not in '{["':
        return None
    try:
        return json.loads(stripped)
    except (json.JSONDecodeError, RecursionError):
        return None


def question_text(value: str) -> str:
    """The question in a chain's or LLM's input: ``{"question": ...}``, a QueryBundle, a message list."""
    return _unwrap(value, QUESTION_KEYS, USER_ROLES)


def answer_text(value: str) -> str:
    """The answer in a chain's or LLM's output: ``{"answer": ...}``, an LLMResult, an AIMessage.

    A chain that returns retrieved documents (a fusion step, a retriever wrapped in a chain) answered
    nothing: its output is no answer, however outermost the chain.
    """
    if _is_document_list(parse_json(value)):
        return ""
    return _unwrap(value, ANSWER_KEYS, ASSISTANT_ROLES)


def _is_document_list(value: Any) -> bool:
    """A serialized list of LangChain Documents (``page_content``) or LlamaIndex nodes (``node``)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(item, dict) and _is_document(item) for item in value)
    )


def _is_document(item: dict[str, Any]) -> bool:
    return "page_content" in item or "node" in item or item.get("type") == "Document"


def _unwrap(value: str, keys: tuple[str, ...], roles: frozenset[str]) -> str:
    parsed = parse_json(value)
    if parsed is None:
        return value
    found = _pick(parsed, keys, roles, 0)
    return value if found is None else found


def _pick(value: Any, keys: tuple[str, ...], roles: frozenset[str], depth: int) -> str | None:
    if depth > _MAX_DEPTH:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        message = message_content(value)
        if message is not None:
            return message
        for key in keys:
            if key in value:
                found = _pick(value[key], keys, roles, depth + 1)
                if found is not None:
                    return found
        return None
    if isinstance(value, list):
        messages = [
            (message_role(item), text)
            for item in _flatten(value)
            if isinstance(item, dict) and (text := message_content(item)) is not None
        ]
        if messages:
            chosen = [text for role, text in messages if role in roles] or [text for _, text in messages]
            return chosen[-1]
        if len(value) == 1:
            return _pick(value[0], keys, roles, depth + 1)
    return None


def _flatten(items: list[Any]) -> Iterator[Any]:
    """LangChain nests message lists one level (``[[message, ...]]``, one list per prompt)."""
    for item in items:
        if isinstance(item, list):
            yield from item
        else:
            yield item


def message_role(message: dict[str, Any]) -> str:
    """The role of a chat message in any of the shapes seen: OpenAI/GenAI ``role``, LangChain's ``type``
    (``human``, ``ai``) or its serialized constructor form (``{"id": [..., "HumanMessage"], ...}``)."""
    role = message.get("role")
    if isinstance(role, str):
        return role.lower()
    kind = message.get("type")
    if isinstance(kind, str) and kind not in ("constructor", "text"):
        return kind.lower()
    identifier = message.get("id")
    if isinstance(identifier, list) and identifier and isinstance(identifier[-1], str):
        name = identifier[-1].lower()
        for role_name in ("human", "ai", "system", "tool"):
            if name.startswith(role_name):
                return role_name
    return ""


def message_content(message: dict[str, Any]) -> str | None:
    """The text of a chat message, or None when ``message`` is not one."""
    if not message_role(message):
        return None
    for holder in (message, message.get("kwargs"), message.get("data")):
        if isinstance(holder, dict):
            text = _content_text(holder.get("content", holder.get("parts")))
            if text is not None:
                return text
    return None


def _content_text(content: Any) -> str | None:
    """A message's content: a string, or a list of parts (``{"type": "text", "text"|"content": ...}``)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [
            part.get("text", part.get("content"))
            for part in content
            if isinstance(part, dict) and part.get("type", "text") == "text"
        ]
        strings = [text for text in texts if isinstance(text, str)]
        return "\n".join(strings) if strings else None
    return None


def string_leaves(value: str) -> list[str]:
    """Every string inside a JSON value (the value itself when it is not JSON): the text a prompt carries,
    whatever structure an instrumentor wrapped it in."""
    parsed = parse_json(value)
    if parsed is None:
        return [value]
    leaves: list[str] = []
    stack = [parsed]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            leaves.append(item)
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return leaves


def messages_text(value: str, roles: frozenset[str] | None = None) -> list[str]:
    """The texts of a JSON message list (GenAI ``gen_ai.input.messages``), optionally only some roles."""
    parsed = parse_json(value)
    if not isinstance(parsed, list):
        return []
    texts = []
    for message in _flatten(parsed):
        if isinstance(message, dict) and (roles is None or message_role(message) in roles):
            text = message_content(message)
            if text is not None:
                texts.append(text)
    return texts
