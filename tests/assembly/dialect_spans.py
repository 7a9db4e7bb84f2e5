"""Single spans as an instrumentation family writes them, for the dialect tests."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ragpulse_assembly.dialects import dialect_of, normalise
from ragpulse_assembly.model import LogEvent, Span, TraceSpan
from ragpulse_assembly.names import Source

START = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def raw(
    attributes: dict[str, Any],
    *,
    name: str = "span",
    scope: str = "some.scope",
    events: tuple[LogEvent, ...] = (),
    span_id: str = "0000000000000001",
    parent: str = "",
) -> TraceSpan:
    recorded = {
        key: value if isinstance(value, str) else json.dumps(value) for key, value in attributes.items()
    }
    return TraceSpan(span_id, parent, name, "svc", scope, START, 1_000_000, "Ok", recorded, events)


def read(span: TraceSpan, source: Source) -> Span:
    """The span in the common model, asserting which family claimed it."""
    dialect = dialect_of(span)
    assert dialect is not None and dialect.source is source, dialect
    return normalise(span)


def event(name: str, body: Any = "", **attributes: Any) -> LogEvent:
    return LogEvent(
        name,
        START,
        body if isinstance(body, str) else json.dumps(body),
        {key: value if isinstance(value, str) else json.dumps(value) for key, value in attributes.items()},
    )


def parts(*messages: tuple[str, str]) -> str:
    return json.dumps(
        [{"role": role, "parts": [{"type": "text", "content": text}]} for role, text in messages]
    )
