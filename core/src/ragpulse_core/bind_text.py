"""Large array parameters rendered once, as clickhouse-connect would render them, at C speed.

A scoring batch binds thousands of trace ids and (TraceId, SpanId, micros) tuples to each of its reads.
clickhouse-connect escapes every string with a generator over its characters, which cost about as much CPU
as the reads' own work in chDB. :func:`prerendered` gives such a parameter the same text made with
``str.translate``; the driver passes any value of a type it does not know through ``str()``, so the query
sent is byte for byte the one it would have built. Only arrays of strings, integers and tuples of those are
rendered here (anything else keeps the driver's own formatting), and only for server-side placeholders
(``{name:Type}``), the one way the Store binds values.
"""

from __future__ import annotations

from typing import Any

# What clickhouse-connect's escape_str prefixes with a backslash (binding.must_escape).
_ESCAPES = str.maketrans({char: "\\" + char for char in ("\\", "'", "`", "\t", "\n")})
_SMALLEST = 64
"""Shorter arrays cost the driver little: left to it."""


class _Rendered:
    """A parameter's bound text, passed through the driver unchanged."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text


def prerendered(sql: str, parameters: dict[str, Any] | None) -> dict[str, Any] | None:
    """``parameters`` with each large array bound by a ``{name:Type}`` placeholder of ``sql`` rendered."""
    if not parameters:
        return parameters
    rendered: dict[str, Any] | None = None
    for name, value in parameters.items():
        if type(value) is not list or len(value) < _SMALLEST or f"{{{name}:" not in sql:
            continue
        text = _array(value)
        if text is not None:
            if rendered is None:
                rendered = dict(parameters)
            rendered[name] = _Rendered(text)
    return rendered if rendered is not None else parameters


def _array(values: list[Any]) -> str | None:
    inner = _joined(values)
    return None if inner is None else f"[{inner}]"


def _joined(values: list[Any] | tuple[Any, ...]) -> str | None:
    parts = []
    for value in values:
        part = _element(value)
        if part is None:
            return None
        parts.append(part)
    return ", ".join(parts)


def _element(value: Any) -> str | None:
    kind = type(value)
    if kind is str:
        return f"'{value.translate(_ESCAPES)}'"
    if kind is int:
        return str(value)
    if kind is tuple:
        inner = _joined(value)
        return None if inner is None else f"({inner})"
    return None
