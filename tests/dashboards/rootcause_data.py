"""Judged requests written the way ragpulse stores them, with every dimension the root-cause job reads.

Each request is a ``ragpulse_requests`` row as assembly writes one (session, template version, context with
document ids and sources), its trace's root span (the attributes a team names) and generating span (the
model asked for and the one that answered), and a lexical hallucination score, from which the verdict views
fill ``ragpulse_request_verdicts``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from ragpulse_core.store import Store

SERVICE = "support-bot"
REQUEST_COLUMNS = [
    "TraceId", "SpanId", "Timestamp", "ServiceName", "Pipeline", "Variant", "Question", "Answer", "Context",
    "SessionId", "DurationMs", "StatusCode", "SampleKey", "Source", "ContextSource", "TemplateVersion",
]  # fmt: skip
SPAN_COLUMNS = [
    "Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
    "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode",
]  # fmt: skip
SCORE_COLUMNS = [
    "TraceId", "SpanId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer",
    "ScorerVersion", "Metric", "Value", "Label", "Explanation", "Details", "Error",
]  # fmt: skip


@dataclass(frozen=True)
class StoredRequest:
    time: datetime
    hallucinated: bool | None
    """None: not judged."""
    question: str = "How do I reset my password?"
    variant: str = "A"
    service: str = SERVICE
    model: str = "gpt-4o"
    model_version: str = ""
    template_version: str = ""
    documents: Sequence[tuple[str, str]] = (("faq-1.md", "faq"),)
    """(id, source) of each context chunk."""
    attributes: Mapping[str, str] = field(default_factory=dict)
    resource: Mapping[str, str] = field(default_factory=dict)
    session: str = ""
    answer: str = "Open settings and choose Reset password."
    judge: str = "lexical"


def trace_id(index: int, salt: str = "") -> str:
    return hashlib.md5(f"rootcause-{salt}-{index}".encode()).hexdigest()


def write_requests(store: Store, requests: Sequence[StoredRequest], salt: str = "") -> list[str]:
    """Write ``requests``; returns their trace ids, in order."""
    request_rows: list[list[Any]] = []
    span_rows: list[list[Any]] = []
    score_rows: list[list[Any]] = []
    traces = []
    for index, request in enumerate(requests):
        trace = trace_id(index, salt)
        traces.append(trace)
        root = trace[:16]
        context = [
            {"id": document, "text": f"Text of {document}.", "source": source, "rank": rank}
            for rank, (document, source) in enumerate(request.documents, 1)
        ]
        request_rows.append([
            trace, root, request.time, request.service, "fusion", request.variant, request.question,
            request.answer, json.dumps(context), request.session, 120.0, "Ok",
            int.from_bytes(hashlib.md5(trace.encode()).digest()[:8], "little"), "openinference", "retriever",
            request.template_version,
        ])  # fmt: skip
        generate = {"gen_ai.request.model": request.model, "openinference.span.kind": "LLM"}
        if request.model_version:
            generate["gen_ai.response.model"] = request.model_version
        span_rows += [
            [request.time, trace, root, "", "chat", "Internal", request.service, dict(request.resource),
             {"openinference.span.kind": "CHAIN", **request.attributes}, 120_000_000, "Ok"],
            [request.time + timedelta(milliseconds=50), trace, f"{trace[16:30]}g1", root, "generate",
             "Internal", request.service, dict(request.resource), generate, 60_000_000, "Ok"],
        ]  # fmt: skip
        if request.hallucinated is not None:
            score_rows.append([
                trace, root, request.time, request.time + timedelta(seconds=20), request.service, "fusion",
                request.variant, request.judge, "3", "hallucination", float(request.hallucinated), "", "",
                json.dumps({"sentences": []}), "",
            ])  # fmt: skip
    for start in range(0, len(request_rows), 20_000):
        store.insert("ragpulse_requests", request_rows[start : start + 20_000], REQUEST_COLUMNS)
        store.insert("otel_traces", span_rows[2 * start : 2 * start + 40_000], SPAN_COLUMNS)
    for start in range(0, len(score_rows), 20_000):
        store.insert("ragpulse_scores", score_rows[start : start + 20_000], SCORE_COLUMNS)
    return traces


def minutes_ago(minutes: float) -> datetime:
    return datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=minutes)
