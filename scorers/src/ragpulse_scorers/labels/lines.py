"""The line format of ``ragpulse labels import FILE.jsonl``: one JSON object a line.

    {"trace_id": "4bf9…", "label": "hallucinated", "span_id": "00f0…",
     "request_time": "2026-11-26T10:00:00.123456Z", "author": "ann", "sentences": [1, 3],
     "note": "invented a date", "score": 0.2}

``trace_id`` and ``label`` (``hallucinated`` or ``grounded``) are required; ``span_id`` and ``request_time``
name one request among several that reuse a trace id; ``author`` defaults to the importing user; the rest
are optional. Unknown keys are refused, so a misspelt ``notes`` is not silently dropped.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ragpulse_core.times import utc_from_iso

from ragpulse_scorers.labels.store import Verdict

_KEYS = {"trace_id", "label", "span_id", "request_time", "author", "sentences", "note", "score"}


class BadLine(ValueError):
    """A line that is not a label; its message says why."""


@dataclass(frozen=True)
class LabelLine:
    trace_id: str
    label: Verdict
    span_id: str | None
    request_time: datetime | None
    author: str | None
    sentences: tuple[int, ...]
    note: str
    score: float | None


def parse_line(text: str) -> LabelLine:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadLine(f"not JSON: {exc.msg}") from None
    if not isinstance(value, dict):
        raise BadLine("not a JSON object")
    unknown = sorted(set(value) - _KEYS)
    if unknown:
        raise BadLine(f"unknown keys {unknown} (known: {sorted(_KEYS)})")
    trace_id = _text(value, "trace_id", required=True)
    label = value.get("label")
    if label not in (Verdict.HALLUCINATED, Verdict.GROUNDED):
        raise BadLine(f"label must be 'hallucinated' or 'grounded', got {label!r}")
    return LabelLine(
        trace_id=trace_id,
        label=Verdict(label),
        span_id=_text(value, "span_id") or None,
        request_time=_time(value.get("request_time")),
        author=_text(value, "author") or None,
        sentences=_sentences(value.get("sentences", [])),
        note=_text(value, "note"),
        score=_score(value.get("score")),
    )


def _text(value: dict[str, Any], key: str, *, required: bool = False) -> str:
    found = value.get(key, "")
    if not isinstance(found, str) or (required and not found.strip()):
        raise BadLine(f"{key} must be a {'non-empty ' if required else ''}string, got {found!r}")
    return found.strip()


def _time(found: Any) -> datetime | None:
    if found is None:
        return None
    if not isinstance(found, str):
        raise BadLine(f"request_time must be an ISO 8601 string, got {found!r}")
    try:
        return utc_from_iso(found)
    except ValueError:
        raise BadLine(f"request_time is not ISO 8601: {found!r}") from None


def _sentences(found: Any) -> tuple[int, ...]:
    if not isinstance(found, list) or not all(
        isinstance(index, int) and not isinstance(index, bool) and 0 <= index < 2**16 for index in found
    ):
        raise BadLine(f"sentences must be a list of sentence indices (0 to 65535), got {found!r}")
    return tuple(found)


def _score(found: Any) -> float | None:
    if found is None:
        return None
    if isinstance(found, bool) or not isinstance(found, int | float) or not math.isfinite(found):
        raise BadLine(f"score must be a finite number, got {found!r}")
    return float(found)
