"""JSON Schema checks with ``jsonschema``: the schema at config load, a document in the isolated worker.

A schema is the team's, a document the model's or the sender's, and either can make validation slow:
``pattern`` runs on Python's backtracking ``re``, ``uniqueItems`` compares unhashable items pairwise, nested
``anyOf`` branches multiply. So documents are validated in a worker process with a hard timeout
(:mod:`.isolation`), and bounded before validation in size and depth. References are local only: ragpulse
never fetches a schema.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

MAX_DOCUMENT_DEPTH = 64
MAX_ERROR_CHARS = 300


def check_schema(schema: dict[str, Any]) -> None:
    """ValueError when ``schema`` is not a valid schema of its draft, or refers outside itself."""
    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import validator_for

    remote = _remote_reference(schema)
    if remote is not None:
        raise ValueError(
            f"schema: $ref {remote!r} points outside the schema; only #... references are followed"
        )
    try:
        validator_for(schema).check_schema(schema)
    except SchemaError as exc:
        raise ValueError(f"not a valid JSON Schema: {_clip(exc.message)} at {_where(exc.path)}") from None


def validator(schema: dict[str, Any]) -> Callable[[str], dict[str, Any]]:
    """The check the worker runs on each document's text: ``{"pass": bool, "reason": str}``."""
    from jsonschema.exceptions import best_match
    from jsonschema.validators import validator_for

    checker = validator_for(schema)(schema)

    def check(text: str) -> dict[str, Any]:
        try:
            document = json.loads(text)
        except RecursionError:
            return {"pass": False, "reason": f"the JSON is nested deeper than {MAX_DOCUMENT_DEPTH} levels"}
        except ValueError as exc:
            return {"pass": False, "reason": f"not JSON: {_clip(str(exc))}"}
        if _depth(document) > MAX_DOCUMENT_DEPTH:
            return {"pass": False, "reason": f"the JSON is nested deeper than {MAX_DOCUMENT_DEPTH} levels"}
        error = best_match(checker.iter_errors(document))
        if error is None:
            return {"pass": True, "reason": "valid against the schema"}
        return {"pass": False, "reason": f"{_clip(error.message)} at {_where(error.path)}"}

    return check


def _depth(document: Any) -> int:
    deepest = 0
    stack: list[tuple[Any, int]] = [(document, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_DOCUMENT_DEPTH:
            break
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _remote_reference(schema: Any) -> str | None:
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key in ("$ref", "$dynamicRef"):
                target = node.get(key)
                if isinstance(target, str) and not target.startswith("#"):
                    return target
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return None


def _where(path: Any) -> str:
    parts = list(path)
    return "$" + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in parts)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_ERROR_CHARS else text[: MAX_ERROR_CHARS - 1] + "…"
