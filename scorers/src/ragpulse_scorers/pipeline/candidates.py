"""Which requests a scorer still has to deal with, read from ``ragpulse_requests`` and the scoring log.

The scoring log, not ``ragpulse_scores``, is the ledger of finished work: a request is done for a scorer
version once the log holds a ``scored`` or ``skipped`` row for it, or ``max_attempts`` ``failed`` rows. The
writer inserts a request's scores before its log row, so a worker killed between the two leaves a request
that is selected again and re-scored, and the re-score replaces the earlier rows once parts merge
(ReplacingMergeTree); ``ragpulse_score_values``, which panels and reports read, takes them back at once.
Deferrals (``sampled_out``, ``throttled``, ``over_budget``, ``deferred``) are not final; each is logged once
per request so a backlog does not write a log row every tick, and out-of-sample requests already logged are
not selected again (a later, higher sample rate still picks them up).

A request is (TraceId, SpanId of its root span, its start time to the microsecond): a trace may hold
several, and a service that seeds ``random`` or replicas seeded alike reuse ids, so a request that repeats
another's ids at another time is a new one, judged and logged for itself. Log rows carry the request's time
(RequestTime) as Python wrote it, in microseconds. Log rows written before requests had a SpanId (empty there)
stand for every request of their trace that had started when they were written, as a trace's requests were
one then, so an upgrade judges nothing again and a later request reusing the trace's id is still judged.

A tick reads candidates in batches, oldest first; each batch starts after the last candidate of the one before
(``Selection.after``), so a request the tick throttled or deferred is not read twice in one tick.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import cached_property
from typing import Any, Final

from ragpulse_core.sampling import SAMPLE_BUCKETS, Shard
from ragpulse_core.store import Store

from ragpulse_scorers.metric_names import SUPPORT
from ragpulse_scorers.outcomes import DEFERRAL_OUTCOMES, FINAL_OUTCOMES, Outcome

# A judge cannot use more text than this and a prompt this size would be slow and costly: such requests are
# skipped with a reason instead of being judged.
MAX_REQUEST_BYTES = 256 * 1024

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

RequestId = tuple[str, str, int]
"""(TraceId, SpanId of the request's root span, its start in microseconds since the epoch)."""
_TEXT_COLUMNS = ("Question", "Answer", "Context", "Variations", "Retrievals", "Reference")
INTERPRETED: Final = {
    "compile_expressions": 0,
    "compile_aggregate_expressions": 0,
    "compile_sort_description": 0,
}
"""Settings of a tick's reads and writes. ClickHouse compiles an expression, an aggregation or a sort with
LLVM once it has seen it three times in a process: 45-100 ms of CPU for each shape of these reads, ~400 ms for
the views a score write feeds, paid again by every ``score --once`` (a process of its own), for reads and
writes of one batch that interpreted code runs in 20-40 ms and ~250 ms. The results are the same."""
_INTERPRETED = "SETTINGS " + ", ".join(f"{name} = {value}" for name, value in INTERPRETED.items())


@dataclass(frozen=True)
class Candidate:
    """A request not yet done by one scorer version, with what the log already says about it."""

    trace_id: str
    span_id: str
    timestamp: datetime
    service_name: str
    variant: str
    in_sample: bool
    """Within the highest sample rate of the scorer's rules: only then may a rule include the request."""
    failures: int
    logged_deferrals: frozenset[Outcome]
    position: tuple[int, str, str]
    """(Timestamp in nanoseconds, TraceId, SpanId): where the next batch of a tick starts after this one."""
    pipeline: str = ""
    sample_bucket: int = 0
    """``SampleKey % SAMPLE_BUCKETS``: a rule includes the request when this is under its threshold."""
    span_attributes: Mapping[str, str] = field(default_factory=dict)
    """The root span's attributes that some rule's filter reads (only those)."""
    resource_attributes: Mapping[str, str] = field(default_factory=dict)
    free_support: float | None = None
    """The free judge's support score of the request (directed sampling reads it); None before it judged."""
    free_version: str = ""
    """The version of the free judge that gave ``free_support``: what its support score means."""

    @cached_property
    def request_id(self) -> RequestId:
        # Cached: a turn looks a candidate up by it a dozen times.
        return (self.trace_id, self.span_id, epoch_micros(self.timestamp))


def epoch_micros(moment: datetime) -> int:
    """A stored time (naive means UTC, as the store returns it) in microseconds since the epoch."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return (aware - _EPOCH) // timedelta(microseconds=1)


@dataclass(frozen=True)
class RequestRow:
    """A ``ragpulse_requests`` row read for judging."""

    values: dict[str, Any]
    problem: str
    """Why the request cannot be judged (not UTF-8, too large: its texts are then left out), or empty."""


@dataclass(frozen=True)
class Selection:
    """Where and what to look for."""

    scorer: str
    version: str
    oldest: datetime
    newest: datetime
    """The newest request start read (a backfill's time slice ends here)."""
    sample_threshold: int
    shard: Shard
    max_attempts: int
    limit: int
    after: tuple[int, str, str] = (0, "", "")
    """Only candidates past this ``Candidate.position``: where the previous batch of the tick ended."""
    rule_set: str = ""
    """The digest of the scorer's rules: requests they sampled out are not read again until it changes."""
    settled: datetime | None = None
    """Requests that ended after this (``newest`` when None) wait: a trace assembled from other spans settles
    from its end too. Apart from ``newest`` so that a request that started in one slice of a backfill and
    ended in the next is read with the slice it started in."""


def select_candidates(store: Store, selection: Selection) -> list[Candidate]:
    """Up to ``selection.limit`` candidates after ``selection.after``, oldest first; no request text."""
    after_ns, after_trace, after_span = selection.after
    # Requests and log rows before the cursor cannot matter (only log rows of requests read are joined, and
    # trace-wide ones, SpanId '', whatever their time); microseconds floor the nanosecond cursor.
    since = max(selection.oldest, _EPOCH + timedelta(microseconds=after_ns // 1000))
    log = f"""
            SELECT TraceId, SpanId, toUnixTimestamp64Micro(RequestTime) AS RequestMicros, ServiceName,
                   countIf(Outcome IN {{final:Array(String)}}) AS finished,
                   countIf(Outcome = {{failed:String}}) AS failures,
                   groupUniqArrayIf(Outcome, Outcome IN {{deferrals:Array(String)}}) AS deferrals,
                   max(LoggedAt) AS last_logged,
                   countIf(Outcome = {{sampled_out:String}} AND RuleSet != ''
                           AND RuleSet = {{rule_set:String}}) AS ruled_out,
                   countIf(Outcome = {{over_budget:String}} AND Rule != '') AS rule_spent
            FROM {store.table("ragpulse_scoring_log")}
            WHERE Scorer = {{scorer:String}} AND ScorerVersion = {{version:String}}
              AND LoggedAt >= {{oldest:DateTime64(6)}} AND RequestTime >= {{since:DateTime64(6)}}
              AND (RequestTime <= {{newest:DateTime64(6)}} OR SpanId = '')
            GROUP BY TraceId, SpanId, RequestMicros, ServiceName
    """
    # ragpulse_requests is a ReplacingMergeTree: until parts merge a request may be there twice (LIMIT 1 BY).
    # Services that share a request's ids and start are each a candidate, so each is logged for itself.
    # `l` holds the log rows of the request itself, `t` those written for its whole trace (empty SpanId),
    # which speak only for requests that had started when they were logged.
    sql = f"""
        SELECT r.TraceId, r.SpanId, r.Timestamp, r.ServiceName, r.Variant,
               (r.SampleKey % {SAMPLE_BUCKETS}) < {{threshold:UInt32}} AS in_sample,
               l.failures + if(r.Timestamp <= t.last_logged, t.failures, 0) AS attempts,
               arrayDistinct(arrayConcat(l.deferrals, if(r.Timestamp <= t.last_logged, t.deferrals, [])))
                   AS deferrals,
               toUnixTimestamp64Nano(r.Timestamp) AS position,
               r.Pipeline, r.SampleKey % {SAMPLE_BUCKETS} AS bucket
        FROM (
            SELECT TraceId, SpanId, Timestamp, ServiceName, Pipeline, Variant, SampleKey,
                   toUnixTimestamp64Micro(Timestamp) AS RequestMicros
            FROM {store.table("ragpulse_requests")}
            WHERE Timestamp >= {{since:DateTime64(6)}} AND Timestamp <= {{newest:DateTime64(6)}}
              AND Timestamp + toIntervalMicrosecond(toUInt64(DurationMs * 1000)) <= {{settled:DateTime64(6)}}
              AND intDiv(SampleKey, {SAMPLE_BUCKETS}) % {{shards:UInt64}} = {{shard:UInt64}}
              AND (toUnixTimestamp64Nano(Timestamp), TraceId, SpanId)
                  > ({{after_ns:Int64}}, {{after_trace:String}}, {{after_span:String}})
            ORDER BY Timestamp, TraceId, SpanId
            LIMIT 1 BY TraceId, SpanId, RequestMicros, ServiceName
        ) AS r
        LEFT JOIN ({log}) AS l
            ON r.TraceId = l.TraceId AND r.SpanId = l.SpanId AND r.RequestMicros = l.RequestMicros
               AND r.ServiceName = l.ServiceName
        LEFT JOIN (
            SELECT TraceId, sum(finished) AS finished, sum(failures) AS failures,
                   arrayDistinct(arrayFlatten(groupArray(deferrals))) AS deferrals,
                   max(last_logged) AS last_logged
            FROM ({log}) WHERE SpanId = '' GROUP BY TraceId
        ) AS t ON r.TraceId = t.TraceId
        WHERE l.finished + if(r.Timestamp <= t.last_logged, t.finished, 0) = 0
          AND attempts < {{max_attempts:UInt32}}
          AND (in_sample OR NOT has(deferrals, {{sampled_out:String}}))
          AND l.ruled_out = 0 AND l.rule_spent = 0
        ORDER BY r.Timestamp, r.TraceId, r.SpanId
        LIMIT {{limit:UInt32}}
        {_INTERPRETED}
    """
    rows = store.query(
        sql,
        {
            "threshold": selection.sample_threshold,
            "oldest": selection.oldest,
            "newest": selection.newest,
            "settled": selection.settled or selection.newest,
            "shards": selection.shard.count,
            "shard": selection.shard.index,
            "final": sorted(FINAL_OUTCOMES),
            "deferrals": sorted(DEFERRAL_OUTCOMES),
            "failed": Outcome.FAILED,
            "sampled_out": Outcome.SAMPLED_OUT,
            "over_budget": Outcome.OVER_BUDGET,
            "rule_set": selection.rule_set,
            "scorer": selection.scorer,
            "version": selection.version,
            "max_attempts": selection.max_attempts,
            "limit": selection.limit,
            "after_ns": after_ns,
            "after_trace": after_trace,
            "after_span": after_span,
            "since": since,
        },
    )
    return [_candidate(*row) for row in rows]


def _candidate(
    trace_id: str,
    span_id: str,
    timestamp: datetime,
    service_name: str,
    variant: str,
    in_sample: int,
    failures: int,
    deferrals: list[str],
    position: int,
    pipeline: str,
    bucket: int,
) -> Candidate:
    return Candidate(
        trace_id=trace_id,
        span_id=span_id,
        timestamp=timestamp,
        service_name=service_name,
        variant=variant,
        in_sample=bool(in_sample),
        failures=int(failures),
        logged_deferrals=frozenset(Outcome(deferral) for deferral in deferrals),
        position=(int(position), trace_id, span_id),
        pipeline=pipeline,
        sample_bucket=int(bucket),
    )


def with_attributes(
    store: Store, candidates: Sequence[Candidate], span_keys: Sequence[str], resource_keys: Sequence[str]
) -> list[Candidate]:
    """``candidates`` carrying the named attributes of their root spans (read from ``otel_traces``); a
    request whose root span is gone, or lacks an attribute, has none of it."""
    if not candidates or not (span_keys or resource_keys):
        return list(candidates)
    margin = timedelta(milliseconds=1)
    rows = store.query(
        f"""
        SELECT TraceId, SpanId,
               arrayFilter(k -> mapContains(SpanAttributes, k), {{span_keys:Array(String)}}) AS span_present,
               arrayMap(k -> SpanAttributes[k], span_present),
               arrayFilter(k -> mapContains(ResourceAttributes, k), {{resource_keys:Array(String)}})
                   AS resource_present,
               arrayMap(k -> ResourceAttributes[k], resource_present)
        FROM {store.table("otel_traces")}
        WHERE Timestamp >= {{oldest:DateTime64(9)}} AND Timestamp <= {{newest:DateTime64(9)}}
          AND TraceId IN {{ids:Array(String)}} AND SpanId IN {{spans:Array(String)}}
        LIMIT 1 BY TraceId, SpanId
        {_INTERPRETED}
        """,
        {
            "span_keys": list(span_keys),
            "resource_keys": list(resource_keys),
            "oldest": min(candidate.timestamp for candidate in candidates) - margin,
            "newest": max(candidate.timestamp for candidate in candidates) + margin,
            **_id_sets(candidates),
        },
    )
    found = {
        (trace, span): (
            dict(zip(span_names, span_values, strict=True)),
            dict(zip(resource_names, resource_values, strict=True)),
        )
        for trace, span, span_names, span_values, resource_names, resource_values in rows
    }
    carried = []
    for candidate in candidates:
        span_attributes, resource_attributes = found.get((candidate.trace_id, candidate.span_id), ({}, {}))
        if not (span_attributes or resource_attributes or candidate.span_attributes
                or candidate.resource_attributes):  # fmt: skip
            # Most root spans carry none of the keys read: the candidate already says so.
            carried.append(candidate)
            continue
        carried.append(
            replace(candidate, span_attributes=span_attributes, resource_attributes=resource_attributes)
        )
    return carried


def with_free_support(store: Store, candidates: Sequence[Candidate], free_scorer: str) -> list[Candidate]:
    """``candidates`` carrying the support score ``free_scorer`` gave them (its newest), where it gave one."""
    if not candidates:
        return list(candidates)
    margin = timedelta(milliseconds=1)
    rows = store.query(
        f"""
        SELECT TraceId, SpanId, argMax(Value, ScoredAt), argMax(ScorerVersion, ScoredAt)
        FROM {store.table("ragpulse_scores")}
        WHERE Scorer = {{scorer:String}} AND Metric = {{metric:String}} AND Error = '' AND Value IS NOT NULL
          AND RequestTime >= {{oldest:DateTime64(9)}} AND RequestTime <= {{newest:DateTime64(9)}}
          AND TraceId IN {{ids:Array(String)}} AND SpanId IN {{spans:Array(String)}}
        GROUP BY TraceId, SpanId
        {_INTERPRETED}
        """,
        {
            "scorer": free_scorer,
            "metric": SUPPORT,
            "oldest": min(candidate.timestamp for candidate in candidates) - margin,
            "newest": max(candidate.timestamp for candidate in candidates) + margin,
            **_id_sets(candidates),
        },
    )
    found = {(trace, span): (float(value), str(version)) for trace, span, value, version in rows}
    carried = []
    for candidate in candidates:
        support, version = found.get((candidate.trace_id, candidate.span_id), (None, ""))
        if (support, version) == (candidate.free_support, candidate.free_version):
            carried.append(candidate)
            continue
        carried.append(replace(candidate, free_support=support, free_version=version))
    return carried


def load_requests(store: Store, candidates: Sequence[Candidate]) -> dict[RequestId, RequestRow]:
    """The ``ragpulse_requests`` rows of ``candidates`` by request, without the texts of unjudgeable ones.

    Until parts merge, a hybrid trace has both the view's row and the assembled row that completes it: the
    assembled one wins.
    """
    if not candidates:
        return {}
    # Python datetimes stop at microseconds while Timestamp has nanoseconds: widen the range a little.
    margin = timedelta(milliseconds=1)
    oldest = min(candidate.timestamp for candidate in candidates) - margin
    newest = max(candidate.timestamp for candidate in candidates) + margin
    valid_utf8 = " AND ".join(f"isValidUTF8({column})" for column in _TEXT_COLUMNS)
    text_bytes = " + ".join(f"length({column})" for column in _TEXT_COLUMNS)
    texts = ", ".join(f"if(readable, {column}, '') AS {column}" for column in _TEXT_COLUMNS)
    # Rows of one request: the view's and the assembled one that completes it (same service; the assembled
    # one's time went through Python). More services, or root spans of more nanoseconds, are other requests:
    # counted among the root spans, since requests of one service in one microsecond share a sorting key
    # and merge into one row. A request's rows are told apart here, in Python: window functions over the
    # batch cost the query more than the few rows a request has cost this loop.
    roots = f"""
            SELECT TraceId, SpanId, toUnixTimestamp64Micro(Timestamp) AS RequestMicros,
                   uniqExact(ServiceName, Timestamp) AS roots
            FROM {store.table("otel_traces")}
            WHERE Timestamp >= {{oldest:DateTime64(9)}} AND Timestamp <= {{newest:DateTime64(9)}}
              AND TraceId IN {{ids:Array(String)}} AND SpanId IN {{spans:Array(String)}}
            GROUP BY TraceId, SpanId, RequestMicros
    """
    rows = store.query_dicts(
        f"""
        SELECT TraceId, SpanId, RequestMicros, Timestamp, toUnixTimestamp64Nano(Timestamp) AS started,
               Source = 'ragpulse' AS from_view, ServiceName, Pipeline, Variant, valid_utf8, text_bytes,
               {texts}, SessionId, UserId, DurationMs, StatusCode, SampleKey, Unscorable, Failure,
               spans.roots AS span_roots
        FROM (
            SELECT *, toUnixTimestamp64Micro(Timestamp) AS RequestMicros, {valid_utf8} AS valid_utf8,
                   {text_bytes} AS text_bytes, valid_utf8 AND text_bytes <= {{max_bytes:UInt64}} AS readable
            FROM {store.table("ragpulse_requests")}
            WHERE Timestamp >= {{oldest:DateTime64(9)}} AND Timestamp <= {{newest:DateTime64(9)}}
              AND TraceId IN {{ids:Array(String)}} AND SpanId IN {{spans:Array(String)}}
        ) AS first
        LEFT JOIN ({roots}) AS spans USING (TraceId, SpanId, RequestMicros)
        {_INTERPRETED}
        """,
        {
            "oldest": oldest,
            "newest": newest,
            **_id_sets(candidates),
            "max_bytes": MAX_REQUEST_BYTES,
        },
    )
    wanted = {candidate.request_id for candidate in candidates}
    by_request: dict[RequestId, list[dict[str, Any]]] = {}
    for row in rows:
        request = (row["TraceId"], row["SpanId"], int(row.pop("RequestMicros")))
        if request in wanted:  # the id sets also let through other pairings of the same ids
            by_request.setdefault(request, []).append(row)
    return {request: _request_row(stored) for request, stored in by_request.items()}


def _id_sets(candidates: Sequence[Candidate]) -> dict[str, list[str]]:
    """The candidates' trace ids and span ids as two flat sets, bound as ``ids`` and ``spans``.

    A read keeps the rows whose trace id and span id are both among them: a superset of the candidates'
    own (trace, span) pairs, of which the caller keeps those pairs only. Two sets of strings cost chDB a
    fraction of a set of tuples: binding and hashing 2,000 (TraceId, SpanId, micros) tuples, twice in the
    request read, was half of its CPU. What else comes through is a span of a candidate's trace whose id is
    another candidate's span id: with random 64-bit span ids, rare, and a row more when it happens."""
    return {
        "ids": list({candidate.trace_id for candidate in candidates}),
        "spans": list({candidate.span_id for candidate in candidates}),
    }


def _request_row(stored: list[dict[str, Any]]) -> RequestRow:
    """A request's row from its stored rows: the earliest, the assembled one first at the same time."""
    first = min(stored, key=lambda row: (row["started"], row["from_view"]))
    services = sorted({str(row["ServiceName"]) for row in stored})
    view_roots = len({row["started"] for row in stored if row["from_view"]})
    span_roots = int(first["span_roots"] or 0)
    for helper in ("started", "from_view", "span_roots"):
        del first[helper]
    valid_utf8, text_bytes = bool(first.pop("valid_utf8")), int(first.pop("text_bytes"))
    return RequestRow(first, _problem(valid_utf8, text_bytes, services, max(view_roots, span_roots)))


def _problem(valid_utf8: bool, text_bytes: int, services: list[str], roots: int) -> str:
    sharing = max(len(services), roots)
    if sharing > 1:
        # Scores, verdicts and log rows name a request by these three: judged, either's score could be
        # read as the other's.
        return (
            f"{sharing} requests ({', '.join(sorted(services))}) share this trace id, root span id and start"
            " microsecond, so their scores could not be told apart; give each request its own ids"
            " (do not seed the id generator alike)"
        )
    if not valid_utf8:
        return "request text is not valid UTF-8"
    if text_bytes > MAX_REQUEST_BYTES:
        return f"request text is {text_bytes} bytes, more than the {MAX_REQUEST_BYTES} a judge takes"
    return ""
