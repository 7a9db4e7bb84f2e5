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
    checker = validator_for(schema)
    try:
        checker.check_schema(schema)
    except SchemaError as exc:
        raise ValueError(f"not a valid JSON Schema: {_clip(exc.message)} at {_where(exc.path)}") from None
    _check_references(schema, str(checker.META_SCHEMA.get("$schema", "")))


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


# Keywords whose value is one schema, a mapping of names to schemas, or a list of schemas. A keyword outside
# these (``const``, ``enum``, ``default``, ``examples``) holds data, and a ``$ref`` inside it is not followed.
_ONE_SCHEMA = (
    "additionalItems", "additionalProperties", "contains", "contentSchema", "else", "if", "items", "not",
    "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties",
)  # fmt: skip
_NAMED_SCHEMAS = (
    "$defs", "definitions", "dependentSchemas", "dependencies", "patternProperties", "properties",
)  # fmt: skip
_SCHEMA_LISTS = ("allOf", "anyOf", "items", "oneOf", "prefixItems")
# Keywords that apply their schemas to the same instance: a cycle through only these (and references) never
# reads deeper into the document, so validation recurses until the worker's stack gives out.
_SAME_INSTANCE = ("allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies")


def _check_references(schema: dict[str, Any], dialect: str) -> None:
    """ValueError for a reference that points nowhere, or a loop of references that reads no deeper into the
    document (``{"$ref": "#"}``, ``anyOf`` of the root, two ``$defs`` naming each other): either would fail
    every request it meets, so it is refused at load instead."""
    import referencing
    import referencing.jsonschema
    from referencing.exceptions import Unresolvable

    specification = referencing.jsonschema.specification_with(
        dialect, default=referencing.jsonschema.DRAFT202012
    )
    root = referencing.Registry().resolver_with_root(specification.create_resource(schema))
    # Each schema object once, with the resolver of its scope and the schemas it applies to the same instance.
    same_instance: dict[int, list[Any]] = {}
    pending: list[tuple[Any, Any]] = [(schema, root)]
    while pending:
        node, resolver = pending.pop()
        if not isinstance(node, dict) or id(node) in same_instance:
            continue
        if node is not schema:
            resolver = resolver.in_subresource(specification.create_resource(node))
        targets: list[Any] = []
        for key in ("$ref", "$dynamicRef", "$recursiveRef"):
            reference = node.get(key)
            if not isinstance(reference, str):
                continue
            try:
                resolved = resolver.lookup(reference)
            except Unresolvable:
                raise ValueError(f"schema: {key} {reference!r} points nowhere in the schema") from None
            targets.append(resolved.contents)
            pending.append((resolved.contents, resolved.resolver))
        for key, value in node.items():
            children = _subschemas(key, value)
            pending.extend((child, resolver) for child in children)
            if key in _SAME_INSTANCE:
                targets.extend(children)
        same_instance[id(node)] = [target for target in targets if isinstance(target, dict)]
    if _has_cycle(same_instance):
        raise ValueError(
            "schema: its references loop without reading deeper into the document (e.g. $ref to an enclosing"
            " schema through allOf/anyOf/oneOf), so validation would recurse without end"
        )


def _subschemas(key: str, value: Any) -> list[Any]:
    if key in _SCHEMA_LISTS and isinstance(value, list):
        return list(value)
    if key in _NAMED_SCHEMAS and isinstance(value, dict):
        return [child for child in value.values() if isinstance(child, dict)]
    return [value] if key in _ONE_SCHEMA and isinstance(value, dict) else []


def _has_cycle(edges: dict[int, list[Any]]) -> bool:
    """Whether the graph of schema objects (by identity) has a cycle; iterative, for schemas of any depth."""
    done: set[int] = set()
    for start in edges:
        if start in done:
            continue
        on_path: set[int] = {start}
        stack: list[tuple[int, int]] = [(start, 0)]
        while stack:
            node, position = stack[-1]
            targets = edges.get(node, [])
            if position == len(targets):
                stack.pop()
                on_path.discard(node)
                done.add(node)
                continue
            stack[-1] = (node, position + 1)
            target = id(targets[position])
            if target in on_path:
                return True
            if target not in done:
                on_path.add(target)
                stack.append((target, 0))
    return False


def _where(path: Any) -> str:
    parts = list(path)
    return "$" + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in parts)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_ERROR_CHARS else text[: MAX_ERROR_CHARS - 1] + "…"
