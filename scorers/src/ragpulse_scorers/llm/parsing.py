"""Reading a judge's reply: the JSON in it however it is wrapped, validated against the answer's model.

Models served without enforced output wrap their JSON in markdown fences or in prose ("Here is my
evaluation: {...}"), or answer with the bare list when the answer is an object holding one list. All of that
is accepted; a reply that repeats a JSON Schema instead of filling it in is told so, since that is what a
small model does when it sees one.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

T = TypeVar("T", bound=BaseModel)

_FENCED = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)```", re.DOTALL)
_DECODER = json.JSONDecoder()
MAX_FAILED_DECODES = 64
"""Places in a reply where a JSON value is tried before giving up: each try reads to where it fails, so a
reply of many openers (``[[[[...``) or many failing prefixes would cost time growing with its square."""
_SCHEMA_WORDS = {"properties", "$defs", "$schema", "required"}


def is_bare_json_object(content: str) -> bool:
    """The whole reply is one JSON object: what a server that enforces a JSON output format returns."""
    try:
        return isinstance(json.loads(content), dict)
    except (ValueError, RecursionError):
        return False


def json_candidates(content: str) -> list[Any]:
    """The JSON values in a reply, likeliest first: the whole reply, fenced blocks, then each object or
    array embedded in prose, objects before arrays."""
    text = content.strip()
    try:
        return [json.loads(text)]
    except (ValueError, RecursionError):
        pass
    found: list[Any] = []
    for block in _FENCED.findall(text):
        try:
            found.append(json.loads(block))
        except (ValueError, RecursionError):
            continue
    index = failures = 0
    while index < len(text) and failures < MAX_FAILED_DECODES:
        if text[index] in "{[":
            try:
                value, end = _DECODER.raw_decode(text, index)
            except RecursionError:
                # Nested past any answer: the brackets that follow are as deep, so none is tried.
                failures += 1
                index = _past_openers(text, index)
                continue
            except ValueError:
                failures += 1
                index += 1
                continue
            found.append(value)
            index = end
        else:
            index += 1
    return sorted(found, key=lambda value: not isinstance(value, dict))


def parse_reply(content: str, output_model: type[T]) -> T:
    """The first JSON value in ``content`` that validates as ``output_model``; a ``ValueError`` (pydantic's
    ``ValidationError`` for the likeliest candidate) when none does."""
    if not content.strip():
        raise ValueError("the reply was empty")
    candidates = json_candidates(content)
    if not candidates:
        raise ValueError("the reply holds no JSON object")
    first_problem: ValueError | None = None
    for candidate in candidates:
        value = _shaped(candidate, output_model)
        if _echoes_a_schema(value, output_model):
            first_problem = first_problem or ValueError(
                "the reply is a JSON Schema, not an answer: fill in the fields with your judgment"
            )
            continue
        try:
            return output_model.model_validate(value)
        except ValidationError as exc:
            first_problem = first_problem or exc
    assert first_problem is not None
    raise first_problem


def describe(problem: ValueError) -> str:
    """A problem in words a model can act on: each invalid field with what was wrong (the first five)."""
    if isinstance(problem, ValidationError):
        return "; ".join(
            f"{'.'.join(map(str, error['loc'])) or 'reply'}: {error['msg']}" for error in problem.errors()[:5]
        )
    return str(problem)


def _shaped(value: Any, output_model: type[BaseModel]) -> Any:
    """A bare list for a model holding one list, or the answer nested under one extra key, made whole."""
    fields = list(output_model.model_fields)
    if isinstance(value, list) and len(fields) == 1:
        return {fields[0]: value}
    if isinstance(value, dict) and len(value) == 1 and not set(value) & set(fields):
        (inner,) = value.values()
        if isinstance(inner, dict) and set(inner) & set(fields):
            return inner
        if isinstance(inner, list) and len(fields) == 1:
            return {fields[0]: inner}
    return value


def _echoes_a_schema(value: Any, output_model: type[BaseModel]) -> bool:
    return (
        isinstance(value, dict)
        and len(_SCHEMA_WORDS & set(value)) >= 1
        and value.get("type") == "object"
        and not set(value) & set(output_model.model_fields)
    )


def _past_openers(text: str, index: int) -> int:
    while index < len(text) and (text[index] in "{[" or text[index].isspace()):
        index += 1
    return index


def closed_prefix(content: str) -> str | None:
    """The longest prefix of a JSON reply cut off mid-way that ends after a complete list item or object
    member, with the brackets it left open closed; None when there is no such prefix."""
    start = content.find("{")
    if start < 0:
        return None
    open_brackets: list[str] = []
    cuts: list[tuple[int, str]] = []  # (end of the prefix, the closers it needs)
    in_string = escaped = False
    for index in range(start, len(content)):
        char = content[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in "{[":
            open_brackets.append("}" if char == "{" else "]")
        elif char in "}]":
            if not open_brackets:
                return None
            open_brackets.pop()
            if not open_brackets:
                return None  # the reply was complete after all: nothing to close
        elif char == ",":
            cuts.append((index, "".join(reversed(open_brackets))))
    for end, closers in list(reversed(cuts))[:MAX_FAILED_DECODES]:
        candidate = content[start:end] + closers
        try:
            json.loads(candidate)
        except (ValueError, RecursionError):
            continue
        return candidate
    return None
