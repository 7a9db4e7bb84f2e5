"""The line format of ``ragpulse labels import FILE.jsonl``: one JSON object a line.

    {"trace_id": "4bf9…", "label": "hallucinated", "span_id": "00f0…",
     "request_time": "2026-11-26T10:00:00.123456Z", "author": "ann", "sentences": [1, 3],
     "note": "invented a date", "score": 0.2}

``trace_id`` and ``label`` (``hallucinated`` or ``grounded``) are required; ``span_id`` and ``request_time``
name one request among several that reuse a trace id; ``author`` defaults to the importing user; the rest
are optional. Unknown keys are refused, so a misspelt ``notes`` is not silently dropped. A score lies in
[0, 1], as an end user's does; a note is at most :data:`NOTE_CHARS` characters, as a reviewer's is. A reason
never quotes more than a few characters of what the line said.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ragpulse_core.times import utc_from_iso
from ragpulse_core.untrusted import quoted

from ragpulse_scorers.labels.store import Verdict

NOTE_CHARS = 2_000
# Ids are 32 and 16 hex digits and a name is short; a batch of lines holding megabytes of "id" would be held
# in memory and sent in one query.
_ID_CHARS = {"trace_id": 128, "span_id": 64, "author": 200}
_SHOWN = 40
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
        raise BadLine(f"not JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise BadLine("not a label: nested too deeply") from None
    except ValueError as exc:  # a number of more digits than Python converts
        raise BadLine(f"not JSON: {quoted(str(exc), _SHOWN * 2, quotes=False)}") from None
    if not isinstance(value, dict):
        raise BadLine("not a JSON object")
    unknown = sorted(set(value) - _KEYS)
    if unknown:
        raise BadLine(f"unknown keys {_shown(unknown)} (known: {sorted(_KEYS)})")
    trace_id = _text(value, "trace_id", required=True)
    label = value.get("label")
    if label not in (Verdict.HALLUCINATED, Verdict.GROUNDED):
        raise BadLine(f"label must be 'hallucinated' or 'grounded', got {_shown(label)}")
    sentences = _sentences(value.get("sentences", []))
    if sentences and label != Verdict.HALLUCINATED:
        raise BadLine("sentences are marked only on a hallucinated answer")
    note = _text(value, "note")
    if len(note) > NOTE_CHARS:
        raise BadLine(f"note is {len(note)} characters; at most {NOTE_CHARS}")
    return LabelLine(
        trace_id=trace_id,
        label=Verdict(label),
        span_id=_text(value, "span_id") or None,
        request_time=_time(value.get("request_time")),
        author=_text(value, "author") or None,
        sentences=sentences,
        note=note,
        score=_score(value.get("score")),
    )


def _text(value: dict[str, Any], key: str, *, required: bool = False) -> str:
    found = value.get(key, "")
    if not isinstance(found, str) or (required and not found.strip()):
        raise BadLine(f"{key} must be a {'non-empty ' if required else ''}string, got {_shown(found)}")
    limit = _ID_CHARS.get(key)
    if limit is not None and len(found.strip()) > limit:
        raise BadLine(f"{key} is {len(found)} characters; at most {limit}")
    return found.strip()


def _time(found: Any) -> datetime | None:
    if found is None:
        return None
    if not isinstance(found, str):
        raise BadLine(f"request_time must be an ISO 8601 string, got {_shown(found)}")
    try:
        return utc_from_iso(found)
    except ValueError:
        raise BadLine(f"request_time is not ISO 8601: {_shown(found)}") from None


def _sentences(found: Any) -> tuple[int, ...]:
    if not isinstance(found, list) or not all(
        isinstance(index, int) and not isinstance(index, bool) and 0 <= index < 2**16 for index in found
    ):
        raise BadLine(f"sentences must be a list of sentence indices (0 to 65535), got {_shown(found)}")
    return tuple(sorted(set(found)))


def _score(found: Any) -> float | None:
    if found is None:
        return None
    if isinstance(found, bool) or not isinstance(found, int | float):
        raise BadLine(f"score must be a number between 0 and 1, got {_shown(found)}")
    if isinstance(found, int) and not 0 <= found <= 1:  # a huge int would not even become a float
        raise BadLine(f"score must lie between 0 and 1, got {_shown(found)}")
    if not math.isfinite(found) or not 0 <= found <= 1:
        raise BadLine(f"score must lie between 0 and 1, got {_shown(found)}")
    return float(found)


def _shown(found: Any) -> str:
    """A value for a reason: its repr, printable and cut short (a line may hold megabytes)."""
    if isinstance(found, list | dict):
        return f"a {'list' if isinstance(found, list) else 'JSON object'} of {len(found)} items"
    if isinstance(found, str):
        return quoted(found, _SHOWN)
    return quoted(str(found)[: _SHOWN * 2], _SHOWN, quotes=False)
