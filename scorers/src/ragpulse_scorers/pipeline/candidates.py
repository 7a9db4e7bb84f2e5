"""Which requests a scorer still has to deal with, read from ``ragpulse_requests`` and the scoring log.

The scoring log, not ``ragpulse_scores``, is the ledger of finished work: a request is done for a scorer
version once the log holds a ``scored`` or ``skipped`` row for it, or ``max_attempts`` ``failed`` rows. The
writer inserts a request's scores before its log row, so a worker killed between the two leaves a request
that is selected again and re-scored, and the re-score replaces the earlier rows once parts merge
(ReplacingMergeTree); ``ragpulse_score_values``, which panels and reports read, takes them back at once.
Deferrals (``sampled_out``, ``throttled``, ``over_budget``, ``deferred``) are not final; each is logged once
per request so a backlog does not write a log row every tick, and out-of-sample requests already logged are
not selected again (a later, higher sample rate still picks them up).

A request is (TraceId, SpanId of its root span): a trace may hold several. Log rows written before requests
had a SpanId (empty there) stand for every request of their trace, as a trace's requests were one then, so an
upgrade judges nothing again.

A tick reads candidates in batches, oldest first; each batch starts after the last candidate of the one before
(``Selection.after``), so a request the tick throttled or deferred is not read twice in one tick.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from ragpulse_core.store import Store

from ragpulse_scorers.outcomes import DEFERRAL_OUTCOMES, FINAL_OUTCOMES, Outcome
from ragpulse_scorers.pipeline.sampling import SAMPLE_BUCKETS, Shard

# A judge cannot use more text than this and a prompt this size would be slow and costly: such requests are
# skipped with a reason instead of being judged.
MAX_REQUEST_BYTES = 256 * 1024

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

RequestId = tuple[str, str]
"""(TraceId, SpanId of the request's root span)."""
_TEXT_COLUMNS = ("Question", "Answer", "Context", "Variations", "Retrievals", "Reference")


@dataclass(frozen=True)
class Candidate:
    """A request not yet done by one scorer version, with what the log already says about it."""

    trace_id: str
    span_id: str
    timestamp: datetime
    service_name: str
    variant: str
    in_sample: bool
    failures: int
    logged_deferrals: frozenset[Outcome]
    position: tuple[int, str, str]
    """(Timestamp in nanoseconds, TraceId, SpanId): where the next batch of a tick starts after this one."""

    @property
    def request_id(self) -> RequestId:
        return (self.trace_id, self.span_id)


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
    """Requests that ended after this wait: a trace assembled from other spans settles from its end too."""
    sample_threshold: int
    shard: Shard
    max_attempts: int
    limit: int
    after: tuple[int, str, str] = (0, "", "")
    """Only candidates past this ``Candidate.position``: where the previous batch of the tick ended."""


def select_candidates(store: Store, selection: Selection) -> list[Candidate]:
    """Up to ``selection.limit`` candidates after ``selection.after``, oldest first; no request text."""
    after_ns, after_trace, after_span = selection.after
    # The log rows of requests before the cursor cannot matter; microseconds floor the nanosecond cursor.
    since = max(selection.oldest, _EPOCH + timedelta(microseconds=after_ns // 1000))
    log = f"""
            SELECT TraceId, SpanId,
                   countIf(Outcome IN {{final:Array(String)}}) AS finished,
                   countIf(Outcome = {{failed:String}}) AS failures,
                   groupUniqArrayIf(Outcome, Outcome IN {{deferrals:Array(String)}}) AS deferrals
            FROM {store.table("ragpulse_scoring_log")}
            WHERE Scorer = {{scorer:String}} AND ScorerVersion = {{version:String}}
              AND LoggedAt >= {{oldest:DateTime64(6)}} AND RequestTime >= {{since:DateTime64(6)}}
            GROUP BY TraceId, SpanId
    """
    # ragpulse_requests is a ReplacingMergeTree: until parts merge a request may be there twice (LIMIT 1 BY).
    # `l` holds the log rows of the request itself, `t` those written for its whole trace (empty SpanId).
    sql = f"""
        SELECT r.TraceId, r.SpanId, r.Timestamp, r.ServiceName, r.Variant,
               (r.SampleKey % {SAMPLE_BUCKETS}) < {{threshold:UInt32}} AS in_sample,
               l.failures + t.failures AS attempts, arrayDistinct(arrayConcat(l.deferrals, t.deferrals)),
               toUnixTimestamp64Nano(r.Timestamp) AS position
        FROM (
            SELECT TraceId, SpanId, Timestamp, ServiceName, Variant, SampleKey
            FROM {store.table("ragpulse_requests")}
            WHERE Timestamp >= {{oldest:DateTime64(6)}} AND Timestamp <= {{newest:DateTime64(6)}}
              AND Timestamp + toIntervalMicrosecond(toUInt64(DurationMs * 1000)) <= {{newest:DateTime64(6)}}
              AND intDiv(SampleKey, {SAMPLE_BUCKETS}) % {{shards:UInt64}} = {{shard:UInt64}}
              AND (toUnixTimestamp64Nano(Timestamp), TraceId, SpanId)
                  > ({{after_ns:Int64}}, {{after_trace:String}}, {{after_span:String}})
            ORDER BY Timestamp, TraceId, SpanId
            LIMIT 1 BY TraceId, SpanId
        ) AS r
        LEFT JOIN ({log}) AS l ON r.TraceId = l.TraceId AND r.SpanId = l.SpanId
        LEFT JOIN (SELECT * FROM ({log}) WHERE SpanId = '') AS t ON r.TraceId = t.TraceId
        WHERE l.finished + t.finished = 0 AND attempts < {{max_attempts:UInt32}}
          AND (in_sample
               OR NOT (has(l.deferrals, {{sampled_out:String}}) OR has(t.deferrals, {{sampled_out:String}})))
        ORDER BY r.Timestamp, r.TraceId, r.SpanId
        LIMIT {{limit:UInt32}}
    """
    rows = store.query(
        sql,
        {
            "threshold": selection.sample_threshold,
            "oldest": selection.oldest,
            "newest": selection.newest,
            "shards": selection.shard.count,
            "shard": selection.shard.index,
            "final": sorted(FINAL_OUTCOMES),
            "deferrals": sorted(DEFERRAL_OUTCOMES),
            "failed": Outcome.FAILED,
            "sampled_out": Outcome.SAMPLED_OUT,
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
    )


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
    rows = store.query_dicts(
        f"""
        SELECT TraceId, SpanId, Timestamp, ServiceName, Pipeline, Variant, valid_utf8, text_bytes, {texts},
               SessionId, UserId, DurationMs, StatusCode, SampleKey, Unscorable
        FROM (
            SELECT *, {valid_utf8} AS valid_utf8, {text_bytes} AS text_bytes,
                   valid_utf8 AND text_bytes <= {{max_bytes:UInt64}} AS readable
            FROM {store.table("ragpulse_requests")}
            WHERE Timestamp >= {{oldest:DateTime64(9)}} AND Timestamp <= {{newest:DateTime64(9)}}
              AND has({{ids:Array(String)}}, TraceId)
              AND has({{requests:Array(Tuple(String, String))}}, (TraceId, SpanId))
            ORDER BY Timestamp, Source = 'ragpulse'
            LIMIT 1 BY TraceId, SpanId
        )
        """,
        {
            "oldest": oldest,
            "newest": newest,
            "ids": [candidate.trace_id for candidate in candidates],
            "requests": [candidate.request_id for candidate in candidates],
            "max_bytes": MAX_REQUEST_BYTES,
        },
    )
    return {
        (row["TraceId"], row["SpanId"]): RequestRow(
            row, _problem(bool(row.pop("valid_utf8")), int(row.pop("text_bytes")))
        )
        for row in rows
    }


def _problem(valid_utf8: bool, text_bytes: int) -> str:
    if not valid_utf8:
        return "request text is not valid UTF-8"
    if text_bytes > MAX_REQUEST_BYTES:
        return f"request text is {text_bytes} bytes, more than the {MAX_REQUEST_BYTES} a judge takes"
    return ""
