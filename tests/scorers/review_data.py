"""Judged requests for the review tests: a root span (a ragpulse_requests row) and the free judge's and,
optionally, an LLM judge's scores, all recent, each request named by (trace, span, start)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from ragpulse_core.store import Store
from ragpulse_dashboards.review.request import RequestId
from ragpulse_judge.text import split_sentences
from report_data import SPAN_COLUMNS

SCORE_COLUMNS = [
    "TraceId", "SpanId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer",
    "ScorerVersion", "Metric", "Value", "Label", "Explanation", "Details", "JudgeModel", "InputTokens",
    "OutputTokens", "CostUSD", "LatencyMs", "Error",
]  # fmt: skip
CONTEXT = "The museum opens at nine. Tickets cost twelve euros. The cafe closes at five."
ANSWER = "The museum opens at nine. Tickets cost twenty euros. Parking is free on Sundays."


@dataclass(frozen=True)
class Judged:
    id: RequestId
    time: datetime
    service: str
    variant: str


def judged_request(store: Store, index: int, **options: Any) -> Judged:
    """One judged request (see :func:`judged_requests`)."""
    return judged_requests(store, [{"index": index, **options}])[0]


def judged_requests(store: Store, requests: list[dict[str, Any]]) -> list[Judged]:
    """Many judged requests in two inserts; each dict holds :func:`_rows`' arguments."""
    made = [_rows(**options) for options in requests]
    store.insert("otel_traces", [span for _, span, _ in made], SPAN_COLUMNS)
    store.insert("ragpulse_scores", [row for _, _, rows in made for row in rows], SCORE_COLUMNS)
    return [judged for judged, _, _ in made]


def _rows(
    index: int,
    *,
    lexical_bad: bool,
    support: float,
    llm_bad: bool | None = None,
    service: str = "museum",
    variant: str = "A",
    answer: str = ANSWER,
    question: str | None = None,
    age: timedelta = timedelta(minutes=30),
    free_version: str = "1",
) -> tuple[Judged, list[Any], list[list[Any]]]:
    trace = hashlib.md5(f"review-{service}-{index}".encode()).hexdigest()
    span = trace[:16]
    start = datetime.now(UTC) - age - timedelta(milliseconds=index)
    root = {
        "ragpulse.kind": "rag",
        "ragpulse.pipeline": "plain",
        "ragpulse.variant": variant,
        "input.value": question or f"Question {index}: when does the museum open?",
        "output.value": answer,
        "ragpulse.context": json.dumps([{"id": "c1", "text": CONTEXT, "rank": 1}]),
    }
    span_row = [start, trace, span, "", "rag plain", "Internal", service, root, 5_000_000, "Ok"]
    sentences = split_sentences(answer)
    lexical_details = {
        "sentences": [
            {"sentence": sentence, "verdict": "unsupported" if lexical_bad and i == 1 else "supported"}
            for i, sentence in enumerate(sentences)
        ]
    }
    rows = [
        _score(trace, span, start, service, variant, "lexical", "hallucination", float(lexical_bad),
               lexical_details, "1 of 3 claim sentences lack support" if lexical_bad else "all supported",
               free_version),
        _score(trace, span, start, service, variant, "lexical", "support", support, {}, "", free_version),
    ]  # fmt: skip
    if llm_bad is not None:
        rows += [
            _score(trace, span, start, service, variant, "support", "hallucination", float(llm_bad),
                   {"unsupported_keys": ["0b"] if llm_bad else []}, ""),
            _score(trace, span, start, service, variant, "support", "adherence", float(not llm_bad), {},
                   "The price is wrong." if llm_bad else "Every claim is in the documents."),
        ]  # fmt: skip
    return Judged(RequestId(trace, span, _micros(start)), start, service, variant), span_row, rows


def _score(
    trace: str, span: str, start: datetime, service: str, variant: str, scorer: str, metric: str,
    value: float, details: dict[str, Any], explanation: str, version: str = "1",
) -> list[Any]:  # fmt: skip
    return [trace, span, start, start + timedelta(seconds=2), service, "plain", variant, scorer, version,
            metric, value, "", explanation, json.dumps(details), "m", 0, 0, 0.0, 1.0, ""]  # fmt: skip


def _micros(moment: datetime) -> int:
    return (moment - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)
