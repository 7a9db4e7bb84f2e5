"""The scheduler's first step: settled foreign traces in ``otel_traces`` become ``ragpulse_requests`` rows.

A trace qualifies when it ended (its last span) at least the settle delay ago and no GenAI event of it in
``otel_logs`` is newer than that, within the lookback window, in this worker's shard; carries a span some
dialect marks as a possible request step (:data:`~ragpulse_assembly.dialects.MARKERS`); has no
ragpulse root that recorded its context; and was not decided before (an assembled row, or a line in
``ragpulse_assembly_log`` for a trace that turned out to hold no request). One query over the window picks up
to ``max_traces`` trace ids, testing a few named attributes; then, ``batch_size`` traces at a time, a second
reads only those traces' spans with only the attributes some dialect reads (a filtered map, never whole
attribute maps), a third their GenAI events from ``otel_logs``, and the rows go in with one insert. An
assembled row is deterministic and the table is a ReplacingMergeTree, so a batch retried after a crash
changes nothing.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from ragpulse_core.log_budget import LogBudget
from ragpulse_core.sampling import SAMPLE_BUCKETS, Shard
from ragpulse_core.store import Store

from ragpulse_assembly import dialects
from ragpulse_assembly.learnt.learner import TemplateLearner
from ragpulse_assembly.learnt.storage import TemplateUse, record
from ragpulse_assembly.learnt.template import Template
from ragpulse_assembly.mapping import apply_mapping, apply_template, mapping_keys, trace_attributes
from ragpulse_assembly.model import LogEvent, TraceSpan
from ragpulse_assembly.names import RAGPULSE_CONTEXT, RAGPULSE_KIND, RAGPULSE_KIND_RAG, Source
from ragpulse_assembly.readings import RULES_ONLY, Readers
from ragpulse_assembly.reasons import Unscorable
from ragpulse_assembly.rules import COLUMNS, AssembledRequest, assemble
from ragpulse_assembly.settings import ServiceMapping
from ragpulse_assembly.trace import apart, bounds, occurrences

logger = logging.getLogger(__name__)
# Traces whose odd data breaks assembly are each recorded as failed with the reason; their tracebacks are
# logged a few a minute, so a sender of many such traces cannot flood the log.
_FAILURE_LOG = LogBudget(lines=10)

LOG_COLUMNS: Final = ("TraceId", "Timestamp", "LoggedAt", "Outcome", "Reason")
NOT_A_REQUEST: Final = "not_a_request"
FAILED: Final = "failed"


@dataclass(frozen=True)
class AssemblyWindow:
    oldest: datetime
    """Spans that started before this are not read."""
    settled: datetime
    """A trace whose last span ended (or last event was logged) after this may still grow."""
    shard: Shard
    batch_size: int
    max_traces: int
    mappings: tuple[ServiceMapping, ...] = ()
    """The services' ``[[assembly.mappings]]``: where their question, documents and answer are."""
    readers: Readers = RULES_ONLY
    """How documents pasted into prompts are read: the structure rules, learnt templates, or both."""
    template_wait: timedelta = timedelta(0)
    """How long past settling a request whose prompt no learnt template fits yet is held for one."""


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
    learner = window.readers.templates
    for offset in range(0, len(settled), window.batch_size):
        batch = settled[offset : offset + window.batch_size]
        traces = [trace for trace, _ in batch]
        spans = read_spans(store, window, traces, read_events(store, window, traces))
        earlier = _decided_times(store, window, traces)
        written: list[AssembledRequest] = []
        rows: list[list[Any]] = []
        decided: list[list[Any]] = []
        held: list[tuple[str, int, list[TraceSpan]]] = []
        learnt_before = learner.learnt_count if learner is not None else 0
        now = datetime.now(UTC)
        for trace, sample_key in batch:
            for found in occurrences(spans.get(trace, [])):
                start, end = bounds(found)
                if any(start <= moment <= end for moment in earlier.get(trace, ())):
                    continue  # decided before: this occurrence's request row or log line is stored
                try:
                    requests = assemble_apart(trace, found, window.mappings, window.readers)
                except Exception as exc:
                    # One trace's odd data must not stop the others, nor be read again every tick.
                    note = _FAILURE_LOG.admit()
                    if note is not None:
                        logger.exception("cannot assemble trace %s; leaving it out%s", trace, note)
                    decided.append([trace, start, now, FAILED, f"{type(exc).__name__}: {exc}"[:2000]])
                    continue
                if _held(requests, end, window):
                    held.append((trace, sample_key, found))
                    continue
                if not requests:
                    decided.append([trace, start, now, NOT_A_REQUEST, ""])
                written.extend(requests)
                rows.extend(request.row(sample_key) for request in requests)
        if held and learner is not None and learner.learnt_count > learnt_before:
            # The batch completed a template its first prompts were held for: they are read with it now.
            for trace, sample_key, found in held:
                requests = assemble_apart(trace, found, window.mappings, window.readers)
                if not _held(requests, bounds(found)[1], window):
                    written.extend(requests)
                    rows.extend(request.row(sample_key) for request in requests)
        store.insert("ragpulse_requests", rows, COLUMNS)
        store.insert("ragpulse_assembly_log", decided, LOG_COLUMNS)
        if learner is not None:
            record(store, template_uses(learner, written), now)
        report.traces += len(batch)
        report.assembled += len(rows)
    if report.traces:
        logger.info("assembled %d requests from %d settled traces", report.assembled, report.traces)
    return report


def assemble_apart(
    trace_id: str,
    spans: list[TraceSpan],
    mappings: tuple[ServiceMapping, ...] = (),
    readers: Readers = RULES_ONLY,
) -> list[AssembledRequest]:
    """The requests one occurrence of a trace id holds: one per part (:func:`apart`) when several parts are
    each a request, else the one the occurrence as a whole holds, if any."""
    parts = apart(spans)
    if len(parts) > 1:
        found = [request for part in parts if (request := assemble_trace(trace_id, part, mappings, readers))]
        if len(found) > 1:
            return found
    request = assemble_trace(trace_id, spans, mappings, readers)
    return [] if request is None else [request]


def assemble_trace(
    trace_id: str,
    spans: list[TraceSpan],
    mappings: tuple[ServiceMapping, ...] = (),
    readers: Readers = RULES_ONLY,
) -> AssembledRequest | None:
    """The request a trace holds, read by the rules (and learnt templates) and then by its service's
    mapping, if one matches."""
    request = assemble(trace_id, spans, readers)
    if request is None or not mappings:
        return request
    mapping = next((m for m in mappings if m.matches(request.service_name, trace_attributes(spans))), None)
    if mapping is None:
        return request
    if mapping.template is not None:
        return apply_template(request, spans, _pinned(mapping.template, readers))
    return apply_mapping(request, spans, mapping)


def _pinned(version: str, readers: Readers) -> Template | None:
    return readers.templates.known(version) if readers.templates is not None else None


def template_uses(learner: TemplateLearner, written: list[AssembledRequest]) -> list[TemplateUse]:
    """Per template version, the requests it read among ``written`` and how many of them cannot be scored;
    and the versions learnt since the last call, read or not."""
    counts: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    for request in written:
        if request.template_version:
            counts[request.template_version] += 1
            refused[request.template_version] += request.unscorable is not Unscorable.SCORABLE
    uses = {t.version: TemplateUse(t, 0, 0) for t in learner.take_new()}
    for version, count in counts.items():
        template = learner.known(version)
        if template is not None:
            uses[version] = TemplateUse(template, count, refused[version])
    return list(uses.values())


def _held(requests: list[AssembledRequest], end: datetime, window: AssemblyWindow) -> bool:
    """A request whose context waits for its template, while the trace is young enough to wait."""
    ended = end if end.tzinfo is not None else end.replace(tzinfo=UTC)  # stored span times are UTC
    return any(request.pending for request in requests) and ended > window.settled - window.template_wait


def _decided_times(store: Store, window: AssemblyWindow, traces: list[str]) -> dict[str, list[datetime]]:
    """When each stored request of ``traces`` began and each decided occurrence's first span started: an
    occurrence holding one of these times was decided before."""
    rows = store.query(
        f"SELECT TraceId, Timestamp FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= {oldest:DateTime64(6)} AND has({traces:Array(String)}, TraceId)"
        " AND Source != {ragpulse:String}"
        f" UNION ALL SELECT TraceId, Timestamp FROM {store.table('ragpulse_assembly_log')}"
        " WHERE Timestamp >= {oldest:DateTime64(6)} AND has({traces:Array(String)}, TraceId)",
        {"oldest": window.oldest, "traces": traces, "ragpulse": Source.RAGPULSE.value},
    )
    times: dict[str, list[datetime]] = defaultdict(list)
    for trace, moment in rows:
        times[str(trace)].append(moment)  # as the spans' times are read: the same clock, the same zone
    return times


def marker_sql(parameters: dict[str, Any]) -> str:
    """The dialects' markers as one SQL condition on a span, with their values bound in ``parameters``."""
    terms = []
    for index, marker in enumerate(dialects.MARKERS):
        parameters[f"marker_key_{index}"] = marker.key
        if marker.values:
            parameters[f"marker_values_{index}"] = list(marker.values)
            terms.append(
                f"has({{marker_values_{index}:Array(String)}}, SpanAttributes[{{marker_key_{index}:String}}])"
            )
        else:
            terms.append(f"mapContains(SpanAttributes, {{marker_key_{index}:String}})")
    return " OR ".join(terms)


def _settled_traces(store: Store, window: AssemblyWindow, limit: int) -> list[tuple[str, int]]:
    """Traces to assemble: settled, marked by some dialect, and not decided before."""
    parameters: dict[str, Any] = {
        "oldest": window.oldest,
        "settled": window.settled,
        "settled_day": window.settled.date(),
        "shards": window.shard.count,
        "shard": window.shard.index,
        "ragpulse": Source.RAGPULSE.value,
        "rag_kind": RAGPULSE_KIND,
        "rag": RAGPULSE_KIND_RAG,
        "rag_context": RAGPULSE_CONTEXT,
        "limit": limit,
    }
    marked = marker_sql(parameters)
    sql = f"""
        SELECT TraceId, cityHash64(TraceId) AS SampleKey
        FROM {store.table("otel_traces")}
        WHERE Timestamp >= {{oldest:DateTime64(6)}}
          AND intDiv(cityHash64(TraceId), {SAMPLE_BUCKETS}) % {{shards:UInt64}} = {{shard:UInt64}}
          AND (
              (TraceId NOT IN (
                   SELECT TraceId FROM {store.table("ragpulse_requests")}
                   WHERE Timestamp >= {{oldest:DateTime64(6)}} AND Source != {{ragpulse:String}}
               )
               AND TraceId NOT IN (
                   SELECT TraceId FROM {store.table("ragpulse_assembly_log")}
                   WHERE Timestamp >= {{oldest:DateTime64(6)}}
               ))
              OR TraceId IN ({_reappeared_sql(store)})
          )
          AND TraceId NOT IN (
              SELECT TraceId FROM {store.table("otel_logs")}
              WHERE TimestampTime >= toDateTime({{settled_day:Date}})
                AND Timestamp > {{settled:DateTime64(6)}}
          )
        GROUP BY TraceId
        HAVING max(Timestamp + toIntervalNanosecond(Duration)) <= {{settled:DateTime64(6)}}
           AND countIf(SpanAttributes[{{rag_kind:String}}] = {{rag:String}}
                       AND SpanAttributes[{{rag_context:String}}] NOT IN ('', '[]')) = 0
           AND countIf(ScopeName != {{ragpulse:String}} AND ({marked})) > 0
        ORDER BY min(Timestamp), TraceId
        LIMIT {{limit:UInt32}}
    """
    rows = store.query(sql, parameters)
    return [(str(trace), int(sample_key)) for trace, sample_key in rows]


def _reappeared_sql(store: Store) -> str:
    """Decided traces whose ids came back: a root span id that started again after everything decided of
    the trace had ended (a request's end, a not-a-request decision's time). Only decided roots are read."""
    decided = f"""
        SELECT TraceId, Timestamp + toIntervalMillisecond(toUInt64(DurationMs)) AS Until
        FROM {store.table("ragpulse_requests")}
        WHERE Timestamp >= {{oldest:DateTime64(6)}} AND Source != {{ragpulse:String}}
        UNION ALL
        SELECT TraceId, toDateTime64(LoggedAt, 9) AS Until FROM {store.table("ragpulse_assembly_log")}
        WHERE Timestamp >= {{oldest:DateTime64(6)}}
    """
    # A root whose span id started at two times: another trace with the same ids, not a trace of two roots.
    return f"""
        SELECT roots.TraceId FROM (
            SELECT TraceId, SpanId, max(Timestamp) AS LastRoot FROM {store.table("otel_traces")}
            WHERE Timestamp >= {{oldest:DateTime64(6)}} AND ParentSpanId = ''
              AND TraceId IN (SELECT TraceId FROM ({decided}))
            GROUP BY TraceId, SpanId
            HAVING min(Timestamp) != LastRoot
        ) AS roots
        INNER JOIN (SELECT TraceId, max(Until) AS Until FROM ({decided}) GROUP BY TraceId) AS done
        ON roots.TraceId = done.TraceId
        WHERE roots.LastRoot > done.Until
    """


def read_events(
    store: Store, window: AssemblyWindow, traces: list[str]
) -> dict[tuple[str, str], list[LogEvent]]:
    """The GenAI events logged for ``traces``, by (trace, span), in the order they were emitted."""
    rows = store.query(
        f"""
        SELECT TraceId, SpanId, Timestamp, if(EventName != '', EventName, LogAttributes[{{name_key:String}}]),
               Body, mapFilter((key, value) -> has({{keys:Array(String)}}, key), LogAttributes)
        FROM {store.table("otel_logs")}
        WHERE TimestampTime >= toDateTime({{oldest_day:Date}}) AND Timestamp >= {{oldest:DateTime64(6)}}
          AND has({{traces:Array(String)}}, TraceId)
          AND has({{names:Array(String)}}, if(EventName != '', EventName, LogAttributes[{{name_key:String}}]))
        """,
        {
            "name_key": dialects.EVENT_NAME_KEY,
            "keys": list(dialects.EVENT_KEYS),
            "names": list(dialects.EVENT_NAMES),
            "oldest": window.oldest,
            "oldest_day": window.oldest.date(),
            "traces": traces,
        },
    )
    events: dict[tuple[str, str], list[LogEvent]] = defaultdict(list)
    for trace, span, timestamp, name, body, attributes in rows:
        events[(trace, span)].append(LogEvent(name, timestamp, body, _strings(attributes)))
    return events


def read_spans(
    store: Store, window: AssemblyWindow, traces: list[str], logged: dict[tuple[str, str], list[LogEvent]]
) -> dict[str, list[TraceSpan]]:
    """The spans of ``traces`` with the attributes the dialects read, and those the mappings read or match
    on (span attributes, and resource attributes for matching)."""
    mapped = mapping_keys(window.mappings)
    rows = store.query(
        f"""
        SELECT TraceId, SpanId, ParentSpanId, SpanName, ServiceName, ScopeName, Timestamp, Duration,
               StatusCode,
               mapFilter((key, value) -> has({{mapped:Array(String)}}, key), ResourceAttributes) AS Resource,
               mapFilter((key, value) -> has({{keys:Array(String)}}, key)
                                         OR arrayExists(p -> startsWith(key, p), {{prefixes:Array(String)}}),
                         SpanAttributes) AS Attributes,
               arrayFilter(e -> has({{names:Array(String)}}, e.2),
                           arrayZip(Events.Timestamp, Events.Name,
                                    arrayMap(a -> mapFilter((k, v) -> has({{event_keys:Array(String)}}, k),
                                                            a),
                                             Events.Attributes))) AS SpanEvents
        FROM {store.table("otel_traces")}
        WHERE Timestamp >= {{oldest:DateTime64(6)}} AND has({{traces:Array(String)}}, TraceId)
        """,
        {
            "keys": [*dialects.ATTRIBUTE_KEYS, *mapped],
            "mapped": mapped,
            "prefixes": dialects.ATTRIBUTE_PREFIXES,
            "names": list(dialects.EVENT_NAMES),
            "event_keys": list(dialects.EVENT_KEYS),
            "oldest": window.oldest,
            "traces": traces,
        },
    )
    by_trace: dict[str, list[TraceSpan]] = defaultdict(list)
    for (
        trace,
        span_id,
        parent,
        name,
        service,
        scope,
        timestamp,
        duration,
        status,
        resource,
        attributes,
        events,
    ) in rows:
        joined = [LogEvent(n, t, "", _strings(a)) for t, n, a in events] + logged.get((trace, span_id), [])
        by_trace[trace].append(
            TraceSpan(
                span_id=span_id,
                parent_span_id=parent,
                name=name,
                service_name=service,
                scope_name=scope,
                timestamp=timestamp,
                duration_ns=int(duration),
                status_code=status,
                attributes=_strings(attributes),
                events=tuple(sorted(joined, key=_event_order)),
                resource=_strings(resource),
            )
        )
    return by_trace


def _event_order(event: LogEvent) -> tuple[datetime, int, str, str]:
    """Emission order; events logged in the same instant keep a conversation's order."""
    return (event.timestamp, dialects.EVENT_NAMES.index(event.name), event.body, repr(event.attributes))


def _strings(mapping: dict[Any, Any]) -> dict[str, str]:
    return {str(key): str(value) for key, value in mapping.items()}
