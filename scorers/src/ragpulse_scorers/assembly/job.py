"""The scheduler's first step: settled foreign traces in ``otel_traces`` become ``ragpulse_requests`` rows.

A trace qualifies when it ended (its last span) at least the settle delay ago, within the lookback window,
in this worker's shard, carries a retriever, reranker or LLM span of another instrumentation, has no
ragpulse root that recorded its context, and has no assembled row yet. One query over the window picks up to
``max_traces`` trace ids (light columns and a few named attributes); then, ``batch_size`` traces at a time,
a second reads only those traces' spans and only the attributes assembly uses (a filtered map, never whole
attribute maps), and the rows go in with one insert. An assembled row is deterministic and the table is a
ReplacingMergeTree, so a batch retried after a crash changes nothing.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ragpulse_core.store import Store

from ragpulse_scorers.assembly import names
from ragpulse_scorers.assembly.names import Kind, Source
from ragpulse_scorers.assembly.rules import COLUMNS, assemble
from ragpulse_scorers.assembly.spans import TraceSpan
from ragpulse_scorers.pipeline.sampling import SAMPLE_BUCKETS, Shard

logger = logging.getLogger(__name__)

_REQUEST_SPAN_KINDS = [kind.value for kind in names.REQUEST_KINDS]
_REQUEST_GEN_AI_OPERATIONS = sorted(
    op for op, kind in names.GEN_AI_KINDS.items() if kind in names.REQUEST_KINDS
)


@dataclass(frozen=True)
class AssemblyWindow:
    oldest: datetime
    """Spans that started before this are not read."""
    settled: datetime
    """A trace whose last span ended after this may still grow."""
    shard: Shard
    batch_size: int
    max_traces: int


@dataclass
class AssemblyReport:
    traces: int = 0
    """Settled candidate traces read."""
    assembled: int = 0
    """Rows written."""


def assemble_requests(store: Store, window: AssemblyWindow) -> AssemblyReport:
    """Assemble the window's qualifying traces, ``batch_size`` at a time, up to ``max_traces``."""
    report = AssemblyReport()
    # One scan of the window finds the tick's traces; reading and writing go batch by batch, so a tick
    # holds at most one batch of spans in memory and a crash loses at most one batch's work.
    settled = _settled_traces(store, window, window.max_traces)
    for offset in range(0, len(settled), window.batch_size):
        batch = settled[offset : offset + window.batch_size]
        spans = _read_spans(store, window, [trace for trace, _ in batch])
        rows = []
        for trace, sample_key in batch:
            try:
                request = assemble(trace, spans.get(trace, []))
            except Exception:
                # One trace's odd data must not stop the others, nor every tick after this one.
                logger.exception("cannot assemble trace %s; leaving it out", trace)
                continue
            if request is not None:
                rows.append(request.row(sample_key))
        store.insert("ragpulse_requests", rows, COLUMNS)
        report.traces += len(batch)
        report.assembled += len(rows)
    if report.traces:
        logger.info("assembled %d requests from %d settled traces", report.assembled, report.traces)
    return report


def _settled_traces(store: Store, window: AssemblyWindow, limit: int) -> list[tuple[str, int]]:
    """Traces to assemble. A span's kind is read as :class:`~ragpulse_scorers.assembly.spans.TraceSpan` reads
    it (a declared OpenInference kind wins over the GenAI operation), so no trace is picked that assembly then
    turns down, to be picked again every tick."""
    spans = store.table("otel_traces")
    requests = store.table("ragpulse_requests")
    sql = f"""
        SELECT TraceId, cityHash64(TraceId) AS SampleKey
        FROM {spans}
        WHERE Timestamp >= {{oldest:DateTime64(6)}}
          AND intDiv(cityHash64(TraceId), {SAMPLE_BUCKETS}) % {{shards:UInt64}} = {{shard:UInt64}}
          AND TraceId NOT IN (
              SELECT TraceId FROM {requests}
              WHERE Timestamp >= {{oldest:DateTime64(6)}} AND Source != {{ragpulse:String}}
          )
        GROUP BY TraceId
        HAVING max(Timestamp + toIntervalNanosecond(Duration)) <= {{settled:DateTime64(6)}}
           AND countIf(SpanAttributes[{{rag_kind:String}}] = {{rag:String}}
                       AND SpanAttributes[{{rag_context:String}}] NOT IN ('', '[]')) = 0
           AND countIf(ScopeName != {{ragpulse:String}}
                       AND if(has({{known_kinds:Array(String)}}, upper(SpanAttributes[{{span_kind:String}}])),
                              has({{kinds:Array(String)}}, upper(SpanAttributes[{{span_kind:String}}])),
                              has({{operations:Array(String)}}, SpanAttributes[{{operation:String}}]))) > 0
        ORDER BY min(Timestamp), TraceId
        LIMIT {{limit:UInt32}}
    """
    rows = store.query(
        sql,
        {
            "oldest": window.oldest,
            "settled": window.settled,
            "shards": window.shard.count,
            "shard": window.shard.index,
            "ragpulse": Source.RAGPULSE.value,
            "rag_kind": names.RAGPULSE_KIND,
            "rag": names.RAGPULSE_KIND_RAG,
            "rag_context": names.RAGPULSE_CONTEXT,
            "span_kind": names.SPAN_KIND,
            "known_kinds": [kind.value for kind in Kind],
            "kinds": _REQUEST_SPAN_KINDS,
            "operation": names.GEN_AI_OPERATION_NAME,
            "operations": _REQUEST_GEN_AI_OPERATIONS,
            "limit": limit,
        },
    )
    return [(str(trace), int(sample_key)) for trace, sample_key in rows]


def _read_spans(store: Store, window: AssemblyWindow, traces: list[str]) -> dict[str, list[TraceSpan]]:
    rows = store.query(
        f"""
        SELECT TraceId, SpanId, ParentSpanId, SpanName, ServiceName, ScopeName, Timestamp, Duration,
               StatusCode,
               mapFilter((key, value) -> has({{keys:Array(String)}}, key)
                                         OR arrayExists(p -> startsWith(key, p), {{prefixes:Array(String)}}),
                         SpanAttributes) AS Attributes
        FROM {store.table("otel_traces")}
        WHERE Timestamp >= {{oldest:DateTime64(6)}} AND has({{traces:Array(String)}}, TraceId)
        """,
        {
            "keys": list(names.EXACT_KEYS),
            "prefixes": list(names.KEY_PREFIXES),
            "oldest": window.oldest,
            "traces": traces,
        },
    )
    by_trace: dict[str, list[TraceSpan]] = defaultdict(list)
    for row in rows:
        by_trace[row[0]].append(_span(*row[1:]))
    return by_trace


def _span(
    span_id: str,
    parent_span_id: str,
    name: str,
    service_name: str,
    scope_name: str,
    timestamp: datetime,
    duration: int,
    status_code: str,
    attributes: dict[str, Any],
) -> TraceSpan:
    return TraceSpan(
        span_id=span_id,
        parent_span_id=parent_span_id,
        name=name,
        service_name=service_name,
        scope_name=scope_name,
        timestamp=timestamp,
        duration_ns=int(duration),
        status_code=status_code,
        attributes={str(key): str(value) for key, value in attributes.items()},
    )
