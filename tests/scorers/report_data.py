"""Rows for the report tests: root and step spans in ``otel_traces`` and score rows, all recent."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from ragpulse_core.store import Store

SPAN_COLUMNS = [
    "Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
    "SpanAttributes", "Duration", "StatusCode",
]  # fmt: skip
SCORE_COLUMNS = [
    "TraceId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer", "ScorerVersion",
    "Metric", "Value", "Label", "Explanation", "Details", "JudgeModel", "InputTokens", "OutputTokens",
    "CostUSD", "LatencyMs", "Error",
]  # fmt: skip


@dataclass(frozen=True)
class Traced:
    trace_id: str
    variant: str
    time: datetime


def trace_id(index: int) -> str:
    return hashlib.md5(f"report-{index}".encode()).hexdigest()


def request_spans(
    index: int,
    *,
    variant: str,
    question: str = "What does the for statement do?",
    answer: str = "The for statement iterates over a sequence.",
    service: str = "svc",
    age: timedelta = timedelta(minutes=10),
    status: str = "Ok",
    labels: Mapping[str, str] | None = None,
    step_ms: float = 5.0,
    at: datetime | None = None,
) -> tuple[Traced, list[list[Any]]]:
    """A root span (becoming a ragpulse_requests row) and one span per RAG-Fusion step; ``labels`` are extra
    root attributes. The request starts ``at``, else ``age`` before now."""
    trace = trace_id(index)
    start = at if at is not None else datetime.now(UTC) - age
    root: dict[str, str] = {
        "ragpulse.kind": "rag",
        "ragpulse.pipeline": "fusion",
        "ragpulse.variant": variant,
        "input.value": question,
        "output.value": answer,
        "ragpulse.context": json.dumps([{"id": "c1", "text": "The for statement iterates.", "rank": 1}]),
    }
    root.update(labels or {})
    spans: list[list[Any]] = [
        [start, trace, trace[:16], "", "rag fusion", "Internal", service, root, int(step_ms * 5e6), status]
    ]
    for number, step in enumerate(("variations", "retrieve", "fuse", "generate"), start=1):
        spans.append(
            [start, trace, f"{trace[:14]}{number:02d}", trace[:16], step, "Internal", service, {},
             int(step_ms * number * 1e6), "Ok"]
        )  # fmt: skip
    return Traced(trace, variant, start), spans


def insert_request(store: Store, index: int, **options: Any) -> Traced:
    return insert_requests(store, [{"index": index, **options}])[0]


def insert_requests(store: Store, requests: list[dict[str, Any]]) -> list[Traced]:
    """Many requests in one insert (each insert runs every materialized view: about 0.25 s on the shared
    machine, whatever its size); each dict holds :func:`request_spans`' arguments."""
    made = [request_spans(**options) for options in requests]
    store.insert("otel_traces", [span for _, spans in made for span in spans], SPAN_COLUMNS)
    return [traced for traced, _ in made]


def score_rows(
    traced: Traced,
    *,
    scorer: str = "lexical",
    hallucinated: bool,
    support: float,
    utilization: float = 0.5,
    details: dict[str, Any] | None = None,
    cost: float = 0.0,
    error: str = "",
    scored_after: timedelta = timedelta(seconds=3),
    service: str = "svc",
    unsupported: int | None = None,
) -> list[list[Any]]:
    metrics = {"hallucination": float(hallucinated), "support": support, "utilization": utilization}
    if unsupported is not None:
        metrics["unsupported_sentences"] = float(unsupported)
    return [
        [traced.trace_id, traced.time, traced.time + scored_after, service, "fusion", traced.variant, scorer,
         "1", metric, None if error else value, "", "", json.dumps(details or {}), "m", 10, 5,
         cost if metric == "hallucination" else 0.0, 1.0, error]
        for metric, value in metrics.items()
    ]  # fmt: skip


def insert_scores(store: Store, traced: Traced, **options: Any) -> None:
    store.insert("ragpulse_scores", score_rows(traced, **options), SCORE_COLUMNS)
