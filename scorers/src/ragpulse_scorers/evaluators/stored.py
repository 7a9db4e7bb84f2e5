"""Stored requests as an evaluator sees them in a tick, for ``ragpulse evaluators test``.

The rows are read by the scheduler's own loader (:func:`~ragpulse_scorers.pipeline.candidates.load_requests`)
with the attributes the evaluator reads, so a test judges exactly what a tick would.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ragpulse_assembly.reasons import skip_reason
from ragpulse_core.store import Store

from ragpulse_scorers.models import RagRequest, RequestRowError
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.candidates import Candidate, load_requests, with_attributes

MAX_TESTED = 200


@dataclass(frozen=True)
class StoredRequest:
    """A request ready to judge, or why a tick would not judge it."""

    trace_id: str
    timestamp: datetime
    service_name: str
    request: RagRequest | None
    problem: str = ""


def stored_requests(
    store: Store,
    *,
    since: datetime,
    trace_id: str | None = None,
    service: str | None = None,
    limit: int = 20,
    attributes: tuple[Sequence[str], Sequence[str]] = ((), ()),
    requires: Sequence[str] = (),
) -> list[StoredRequest]:
    """The newest ``limit`` requests since ``since`` (those of ``trace_id`` when given), newest first; each
    with the reason a tick would skip it before judging (``requires``: the fields the evaluator needs)."""
    rows = store.query(
        f"""
        SELECT TraceId, SpanId, Timestamp, ServiceName, Variant, Pipeline
        FROM {store.table("ragpulse_requests")}
        WHERE Timestamp >= {{since:DateTime64(6)}}
          AND ({{trace:String}} = '' OR TraceId = {{trace:String}})
          AND ({{service:String}} = '' OR ServiceName = {{service:String}})
        ORDER BY Timestamp DESC
        LIMIT 1 BY TraceId, SpanId, Timestamp
        LIMIT {{limit:UInt32}}
        """,
        {"since": since, "trace": trace_id or "", "service": service or "", "limit": min(limit, MAX_TESTED)},
    )
    candidates = [
        Candidate(
            trace_id=trace, span_id=span, timestamp=at, service_name=service_name, variant=variant,
            in_sample=True, failures=0, logged_deferrals=frozenset[Outcome](), position=(0, trace, span),
            pipeline=pipeline,
        )
        for trace, span, at, service_name, variant, pipeline in rows
    ]  # fmt: skip
    candidates = with_attributes(store, candidates, *attributes)
    loaded = load_requests(store, candidates)
    found = []
    for candidate in candidates:
        row = loaded.get(candidate.request_id)
        problem = "the request row is gone" if row is None else row.problem
        if row is not None and not problem:
            values = row.values
            problem = (
                skip_reason(values.get("Unscorable", ""), tuple(requires), values.get("Failure", "")) or ""
            )
        request = None
        if row is not None and not problem:
            try:
                request = RagRequest.from_row(row.values)
            except RequestRowError as exc:
                problem = str(exc)
            else:
                request.span_attributes = dict(candidate.span_attributes)
                request.resource_attributes = dict(candidate.resource_attributes)
        found.append(
            StoredRequest(candidate.trace_id, candidate.timestamp, candidate.service_name, request, problem)
        )
    return found
