"""Request rows and small scorers for the scoring pipeline's tests (no real judge involved)."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from ragpulse_core.store import Store
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.settings import ScorersSettings

SPAN_COLUMNS = [
    "Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
    "SpanAttributes", "Duration", "StatusCode",
]  # fmt: skip
CONTEXT = json.dumps([{"id": "d1", "text": "Paris is the capital of France.", "rank": 1}])


def trace_id(prefix: str, index: int) -> str:
    return hashlib.md5(f"{prefix}-{index}".encode()).hexdigest()


def root_span(
    trace: str,
    *,
    age: timedelta = timedelta(minutes=5),
    variant: str = "A",
    answer: str = "Paris is the capital.",
    context: str = CONTEXT,
    service: str = "svc",
    reference: str = "",
) -> list[Any]:
    attributes = {
        "ragpulse.kind": "rag",
        "ragpulse.pipeline": "fusion",
        "ragpulse.variant": variant,
        "input.value": "What is the capital of France?",
        "output.value": answer,
        "ragpulse.context": context,
    }
    if reference:
        attributes["ragpulse.reference"] = reference
    start = datetime.now(UTC) - age
    return [start, trace, trace[:16], "", "rag fusion", "Internal", service, attributes, 2_000_000, "Ok"]


def insert_requests(
    store: Store,
    count: int,
    *,
    prefix: str = "req",
    variants: Sequence[str] = ("A",),
    age: timedelta = timedelta(minutes=5),
    **span: Any,
) -> list[str]:
    """``count`` recorded RAG requests, oldest first, variants in turn; returns their trace ids."""
    traces = [trace_id(prefix, i) for i in range(count)]
    rows = [
        root_span(trace, age=age + timedelta(seconds=count - i), variant=variants[i % len(variants)], **span)
        for i, trace in enumerate(traces)
    ]
    store.insert("otel_traces", rows, SPAN_COLUMNS)
    return traces


def settings_for(dsn: str, **scorer: Any) -> ScorersSettings:
    return ScorersSettings.load(store={"dsn": dsn}, scorer={"settle_delay_s": 60, **scorer})


@dataclass
class RecordingScorer:
    """Scores the answer's length; ``behaviour`` may raise or return something else for chosen traces."""

    name: str = "recording"
    version: str = "1"
    requires: tuple[str, ...] = ()
    value: float = 1.0
    behaviour: Callable[[RagRequest], list[Score] | None] | None = None
    calls: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def score(self, request: RagRequest) -> list[Score]:
        with self._lock:
            self.calls.append(request.trace_id)
        if self.behaviour is not None:
            result = self.behaviour(request)
            if result is not None:
                return result
        return [
            Score(metric="answer_chars", value=float(len(request.answer))),
            Score(metric="constant", value=self.value, details={"variant": request.variant}),
        ]


def build_recording(settings: ScorersSettings, store: Store) -> RecordingScorer:
    """A registry factory (``pipeline_testing:build_recording``) for command tests."""
    return RecordingScorer()


def scored_traces(store: Store, scorer: str = "recording") -> list[str]:
    rows = store.query(
        f"SELECT DISTINCT TraceId FROM {store.table('ragpulse_scores')} FINAL"
        " WHERE Scorer = {scorer:String} AND Metric != 'error' ORDER BY TraceId",
        {"scorer": scorer},
    )
    return [row[0] for row in rows]


def log_rows(store: Store, scorer: str = "recording") -> list[dict[str, Any]]:
    return store.query_dicts(
        f"SELECT TraceId, Outcome, Reason, ScorerVersion FROM {store.table('ragpulse_scoring_log')}"
        " WHERE Scorer = {scorer:String} ORDER BY LoggedAt, TraceId",
        {"scorer": scorer},
    )
