"""``ragpulse assembly rerun``: recent foreign traces assembled again (after a service's mapping changed, or a
new version read them better), and the scores of every request that changed superseded, never doubled.

A request whose row comes out different (question, answer, context, where the context came from, or why it
cannot be scored) replaces its stored row, and what was judged on the old row stops counting at once: its
score values are taken back (the signed rows every panel sums, as a re-score takes them back), and its score,
verdict and scoring-log rows are deleted, so every scorer judges the new row at its next tick. A trace that
held no request before and holds one now is assembled as any new one. Requests that did not change keep
their scores. It writes, so it needs the database to itself: stop ``ragpulse serve`` first.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from ragpulse_assembly.job import AssemblyWindow, assemble_trace, marker_sql, read_events, read_spans
from ragpulse_assembly.names import Source
from ragpulse_assembly.readings import RULES_ONLY, Readers
from ragpulse_assembly.rules import COLUMNS, AssembledRequest
from ragpulse_assembly.settings import ServiceMapping
from ragpulse_core.sampling import Shard
from ragpulse_core.store import Store

logger = logging.getLogger(__name__)

_COMPARED: Final = ("Question", "Answer", "Context", "ContextSource", "Unscorable")
"""What a request's judges read, or why none may: a row that differs in these is judged again."""
_JUDGED: Final = ("ragpulse_scores", "ragpulse_scoring_log", "ragpulse_trace_verdicts")
"""The rows of a request's judgments, by its ``RequestTime``; its own rows go by their ``Timestamp``."""
_OWN: Final = ("ragpulse_requests", "ragpulse_unscored_requests")


@dataclass
class Reassembly:
    traces: int = 0
    """Foreign traces of the window read again."""
    changed: int = 0
    """Stored requests whose row changed: their scores are superseded."""
    added: int = 0
    """Requests in traces that held none before."""


RequestKey = tuple[str, str, datetime]


def reassemble(
    store: Store,
    mappings: Sequence[ServiceMapping],
    since: timedelta,
    settle_delay: timedelta,
    *,
    service: str | None = None,
    batch_size: int = 200,
    progress: Callable[[int, int], None] | None = None,
    readers: Readers = RULES_ONLY,
) -> Reassembly:
    """Assemble the settled foreign traces started within ``since`` again (of ``service``, or all), and
    supersede what was judged on every request that came out different. ``progress(done, total)``;
    ``readers``: how pasted documents are read (learnt templates, pinned ones included, and the rules)."""
    now = datetime.now(UTC)
    window = AssemblyWindow(
        oldest=now - since,
        settled=now - settle_delay,
        shard=Shard(),
        batch_size=batch_size,
        max_traces=batch_size,
        mappings=tuple(mappings),
        readers=readers,
    )
    traces = _foreign_traces(store, window, service)
    report = Reassembly()
    for offset in range(0, len(traces), batch_size):
        batch = traces[offset : offset + batch_size]
        names = [trace for trace, _ in batch]
        spans = read_spans(store, window, names, read_events(store, window, names))
        assembled = {
            trace: (request, sample_key)
            for trace, sample_key in batch
            if (request := assemble_trace(trace, spans.get(trace, []), window.mappings, readers)) is not None
        }
        stored = _stored_rows(store, window, list(assembled))
        changed = [
            (request, key)
            for request, key in assembled.values()
            if _key(request) in stored and _content(request) != stored[_key(request)]
        ]
        added = [(request, key) for request, key in assembled.values() if _key(request) not in stored]
        _supersede(store, [_key(request) for request, _ in changed])
        if added:
            log = store.table("ragpulse_assembly_log")
            store.command(
                f"DELETE FROM {log} WHERE TraceId IN {{traces:Array(String)}}",
                {"traces": sorted({request.trace_id for request, _ in added})},
            )
        store.insert("ragpulse_requests", [request.row(key) for request, key in changed + added], COLUMNS)
        report.traces += len(batch)
        report.changed += len(changed)
        report.added += len(added)
        if progress is not None:
            progress(report.traces, len(traces))
    logger.info(
        "reassembled %d traces: %d requests changed, %d new", report.traces, report.changed, report.added
    )
    return report


def _foreign_traces(store: Store, window: AssemblyWindow, service: str | None) -> list[tuple[str, int]]:
    parameters: dict[str, Any] = {
        "oldest": window.oldest,
        "settled": window.settled,
        "service": service or "",
        "ragpulse": Source.RAGPULSE.value,
    }
    marked = marker_sql(parameters)
    rows = store.query(
        f"""
        SELECT TraceId, cityHash64(TraceId)
        FROM {store.table("otel_traces")}
        WHERE Timestamp >= {{oldest:DateTime64(6)}}
          AND ({{service:String}} = '' OR ServiceName = {{service:String}})
        GROUP BY TraceId
        HAVING max(Timestamp + toIntervalNanosecond(Duration)) <= {{settled:DateTime64(6)}}
           AND countIf(ScopeName != {{ragpulse:String}} AND ({marked})) > 0
        ORDER BY min(Timestamp), TraceId
        """,
        parameters,
    )
    return [(str(trace), int(sample_key)) for trace, sample_key in rows]


def _stored_rows(
    store: Store, window: AssemblyWindow, traces: list[str]
) -> dict[RequestKey, tuple[str, ...]]:
    """The assembled rows stored for ``traces``, by request, with what their judges read."""
    if not traces:
        return {}
    rows = store.query(
        f"SELECT TraceId, SpanId, Timestamp, {', '.join(_COMPARED)} FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= {oldest:DateTime64(6)} AND has({traces:Array(String)}, TraceId)"
        " AND Source != {ragpulse:String}",
        {"oldest": window.oldest, "traces": traces, "ragpulse": Source.RAGPULSE.value},
    )
    return {(str(row[0]), str(row[1]), _utc(row[2])): tuple(str(value) for value in row[3:]) for row in rows}


def _supersede(store: Store, keys: list[RequestKey]) -> None:
    """Take back what was judged on these requests and remove their rows, so they are judged again."""
    if not keys:
        return
    parameters = {
        "traces": [trace for trace, _, _ in keys],
        "spans": [span for _, span, _ in keys],
        "times": [moment for _, _, moment in keys],
    }
    request = (
        "(TraceId, SpanId, {time}) IN arrayZip({{traces:Array(String)}}, {{spans:Array(String)}},"
        " {{times:Array(DateTime64(9))}})"
    )
    values = store.table("ragpulse_score_values")
    store.command(
        f"""
        INSERT INTO {values} (RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer,
                              Metric, Value, Failed, Head, CostUSD, InputTokens, OutputTokens, Weight, Sign)
        SELECT RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Metric, Value,
               Failed, Head, CostUSD, InputTokens, OutputTokens, Weight, toInt8(-1)
        FROM (
            SELECT RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Metric,
                   Value, Failed, Head, CostUSD, InputTokens, OutputTokens, Weight, sum(Sign) AS counted
            FROM {values}
            WHERE (TraceKey, SpanId, RequestTime) IN arrayZip(
                      arrayMap(t -> cityHash64(t), {{traces:Array(String)}}), {{spans:Array(String)}},
                      {{times:Array(DateTime64(9))}})
            GROUP BY RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Metric,
                     Value, Failed, Head, CostUSD, InputTokens, OutputTokens, Weight
        )
        WHERE counted > 0
        """,
        parameters,
    )
    verdicts = store.table("ragpulse_request_verdicts")
    store.command(
        f"""
        INSERT INTO {verdicts} (RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Judge,
                                JudgeRank, Hallucinated, Weight, TemplateVersion, Sign)
        SELECT RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Judge, JudgeRank, Hallucinated,
               Weight, TemplateVersion, toInt8(-1)
        FROM {verdicts}
        WHERE (TraceKey, SpanId, RequestTime) IN arrayZip(
                  arrayMap(t -> cityHash64(t), {{traces:Array(String)}}), {{spans:Array(String)}},
                  {{times:Array(DateTime64(9))}})
        GROUP BY RequestTime, TraceKey, SpanId, ServiceName, Pipeline, Variant, Judge, JudgeRank,
                 Hallucinated, Weight, TemplateVersion
        HAVING sum(Sign) > 0
        """,
        parameters,
    )
    # The hourly outcome counts lose the log rows removed below (a block of its own: never taken for a retry).
    store.command(
        f"INSERT INTO {store.table('ragpulse_scoring_outcome_hours')}"
        " SELECT toStartOfHour(RequestTime) AS Hour, ServiceName, Scorer, Outcome, -toInt64(count())"
        f" FROM {store.table('ragpulse_scoring_log')} WHERE {request.format(time='RequestTime')}"
        " GROUP BY Hour, ServiceName, Scorer, Outcome SETTINGS insert_deduplicate = 0",
        parameters,
    )
    for table, time in [*((t, "RequestTime") for t in _JUDGED), *((t, "Timestamp") for t in _OWN)]:
        store.command(f"DELETE FROM {store.table(table)} WHERE {request.format(time=time)}", parameters)


def _key(request: AssembledRequest) -> RequestKey:
    return (request.trace_id, request.span_id, _utc(request.timestamp))


def _content(request: AssembledRequest) -> tuple[str, ...]:
    return (request.question, request.answer, request.context, request.context_source.value,
            request.unscorable.value)  # fmt: skip


def _utc(moment: datetime) -> datetime:
    """Times compared at the microsecond the rows carry, aware of their zone."""
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
