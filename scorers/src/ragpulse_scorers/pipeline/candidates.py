"""Which requests a scorer still has to deal with, read from ``ragpulse_requests`` and the scoring log.

The scoring log, not ``ragpulse_scores``, is the ledger of finished work: a request is done for a scorer
version once the log holds a ``scored`` or ``skipped`` row for it, or ``max_attempts`` ``failed`` rows. The
writer inserts a request's scores before its log row, so a worker killed between the two leaves a request
that is selected again and re-scored, and the re-score replaces the earlier rows (ReplacingMergeTree).
Deferrals (``sampled_out``, ``throttled``, ``over_budget``) are not final; each is logged once per request so
a backlog does not write a log row every tick, and out-of-sample requests already logged are not selected
again (a later, higher sample rate still picks them up).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ragpulse_core.store import Store

from ragpulse_scorers.outcomes import DEFERRAL_OUTCOMES, FINAL_OUTCOMES, Outcome
from ragpulse_scorers.pipeline.sampling import SAMPLE_BUCKETS, Shard

# A judge cannot use more text than this and a prompt this size would be slow and costly: such requests are
# skipped with a reason instead of being judged.
MAX_REQUEST_BYTES = 256 * 1024

_TEXT_COLUMNS = ("Question", "Answer", "Context", "Variations", "Retrievals", "Reference")


@dataclass(frozen=True)
class Candidate:
    """A request not yet done by one scorer version, with what the log already says about it."""

    trace_id: str
    timestamp: datetime
    service_name: str
    variant: str
    in_sample: bool
    failures: int
    logged_deferrals: frozenset[Outcome]
    problem: str
    """Why the request cannot be judged at all (not UTF-8, too large), or empty."""


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


def select_candidates(store: Store, selection: Selection) -> list[Candidate]:
    """Up to ``selection.limit`` candidates, oldest first; light columns only (no request text)."""
    valid_utf8 = " AND ".join(f"isValidUTF8({column})" for column in _TEXT_COLUMNS)
    text_bytes = " + ".join(f"length({column})" for column in _TEXT_COLUMNS)
    # ragpulse_requests is a ReplacingMergeTree: until parts merge a trace may appear twice, hence LIMIT 1 BY.
    sql = f"""
        SELECT r.TraceId, r.Timestamp, r.ServiceName, r.Variant,
               (r.SampleKey % {SAMPLE_BUCKETS}) < {{threshold:UInt32}} AS in_sample,
               l.failures, l.deferrals, r.valid_utf8, r.text_bytes
        FROM (
            SELECT TraceId, Timestamp, ServiceName, Variant, SampleKey,
                   {valid_utf8} AS valid_utf8, {text_bytes} AS text_bytes
            FROM {store.table("ragpulse_requests")}
            WHERE Timestamp >= {{oldest:DateTime64(6)}} AND Timestamp <= {{newest:DateTime64(6)}}
              AND Timestamp + toIntervalMicrosecond(toUInt64(DurationMs * 1000)) <= {{newest:DateTime64(6)}}
              AND intDiv(SampleKey, {SAMPLE_BUCKETS}) % {{shards:UInt64}} = {{shard:UInt64}}
            ORDER BY Timestamp, TraceId
            LIMIT 1 BY TraceId
        ) AS r
        LEFT JOIN (
            SELECT TraceId,
                   countIf(Outcome IN {{final:Array(String)}}) AS finished,
                   countIf(Outcome = {{failed:String}}) AS failures,
                   groupUniqArrayIf(Outcome, Outcome IN {{deferrals:Array(String)}}) AS deferrals
            FROM {store.table("ragpulse_scoring_log")}
            WHERE Scorer = {{scorer:String}} AND ScorerVersion = {{version:String}}
              AND LoggedAt >= {{oldest:DateTime64(6)}}
            GROUP BY TraceId
        ) AS l ON r.TraceId = l.TraceId
        WHERE l.finished = 0 AND l.failures < {{max_attempts:UInt32}}
          AND (in_sample OR NOT has(l.deferrals, {{sampled_out:String}}))
        ORDER BY r.Timestamp, r.TraceId
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
        },
    )
    return [_candidate(*row) for row in rows]


def _candidate(
    trace_id: str,
    timestamp: datetime,
    service_name: str,
    variant: str,
    in_sample: int,
    failures: int,
    deferrals: list[str],
    valid_utf8: int,
    text_bytes: int,
) -> Candidate:
    return Candidate(
        trace_id=trace_id,
        timestamp=timestamp,
        service_name=service_name,
        variant=variant,
        in_sample=bool(in_sample),
        failures=int(failures),
        logged_deferrals=frozenset(Outcome(deferral) for deferral in deferrals),
        problem=_problem(bool(valid_utf8), int(text_bytes)),
    )


def _problem(valid_utf8: bool, text_bytes: int) -> str:
    if not valid_utf8:
        return "request text is not valid UTF-8"
    if text_bytes > MAX_REQUEST_BYTES:
        return f"request text is {text_bytes} bytes, more than the {MAX_REQUEST_BYTES} a judge takes"
    return ""


def load_requests(store: Store, candidates: Sequence[Candidate]) -> dict[str, dict[str, Any]]:
    """The full ``ragpulse_requests`` rows of ``candidates``, by trace id.

    Until parts merge, a hybrid trace has both the view's row and the assembled row that completes it: the
    assembled one wins.
    """
    if not candidates:
        return {}
    # Python datetimes stop at microseconds while Timestamp has nanoseconds: widen the range a little.
    margin = timedelta(milliseconds=1)
    oldest = min(candidate.timestamp for candidate in candidates) - margin
    newest = max(candidate.timestamp for candidate in candidates) + margin
    texts = ", ".join(f"toValidUTF8({column}) AS {column}" for column in _TEXT_COLUMNS)
    rows = store.query_dicts(
        f"""
        SELECT TraceId, Timestamp, ServiceName, Pipeline, Variant, {texts},
               SessionId, UserId, DurationMs, StatusCode, SampleKey
        FROM {store.table("ragpulse_requests")}
        WHERE Timestamp >= {{oldest:DateTime64(9)}} AND Timestamp <= {{newest:DateTime64(9)}}
          AND has({{ids:Array(String)}}, TraceId)
        ORDER BY Timestamp, Source = 'ragpulse'
        LIMIT 1 BY TraceId
        """,
        {"oldest": oldest, "newest": newest, "ids": [candidate.trace_id for candidate in candidates]},
    )
    return {row["TraceId"]: row for row in rows}
