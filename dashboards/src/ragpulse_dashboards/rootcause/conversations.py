"""Conversations: the requests of one service that share a session id (``session.id``), in the order they
came, each turn with every judge's verdict; and the requests of one slice."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from ragpulse_core.store import Store

from ragpulse_dashboards.rootcause.figures import RequestRef, request_questions
from ragpulse_dashboards.rootcause.ranking import SliceKey
from ragpulse_dashboards.rootcause.slices import condition

CONVERSATIONS_LISTED: Final = 100
TURNS_SHOWN: Final = 200
SLICE_REQUESTS: Final = 50
# The newest requests are read from the last RECENT_FIRST first, then RECENT_GROWTH times as far back.
RECENT_FIRST: Final = timedelta(hours=1)
RECENT_GROWTH: Final = 8


@dataclass(frozen=True)
class ConversationLine:
    service: str
    session: str
    turns: int
    judged: int
    unsupported: int
    first: datetime
    last: datetime


@dataclass(frozen=True)
class Turn:
    ref: RequestRef
    time: datetime
    variant: str
    answer: str
    verdicts: dict[str, bool] = field(default_factory=dict)
    """Each judge's newest verdict: True when it found the answer unsupported."""


def conversations(store: Store, since: datetime, service: str | None) -> list[ConversationLine]:
    """The newest conversations with a turn since ``since``, with how many turns were judged unsupported."""
    newest = _newest_sessions(store, since, service)
    if not newest:
        return []
    rows = store.query_dicts(
        "SELECT ServiceName, SessionId, uniqExact(TraceId, SpanId, Timestamp) AS turns,"
        " min(Timestamp) AS first, max(Timestamp) AS last"
        f" FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= {since:DateTime64(9)} AND ServiceName IN {services:Array(String)}"
        " AND SessionId IN {sessions:Array(String)}"
        " GROUP BY ServiceName, SessionId ORDER BY last DESC, SessionId",
        {
            "since": since,
            "services": sorted({name for name, _ in newest}),
            "sessions": sorted({session for _, session in newest}),
        },
    )
    rows = [row for row in rows if (str(row["ServiceName"]), str(row["SessionId"])) in newest]
    judged = {
        (str(name), str(session)): (int(n), int(bad))
        for name, session, n, bad in store.query(
            "SELECT ServiceName, SessionId, sum(Sign), sum(Sign * Hallucinated)"
            f" FROM {store.table('ragpulse_request_facts')}"
            " WHERE RequestTime >= {since:DateTime64(9)} AND SessionId IN {sessions:Array(String)}"
            " GROUP BY ServiceName, SessionId",
            {"since": since, "sessions": sorted({str(row["SessionId"]) for row in rows})},
        )
    }
    return [
        ConversationLine(
            str(row["ServiceName"]),
            str(row["SessionId"]),
            int(row["turns"]),
            *judged.get((str(row["ServiceName"]), str(row["SessionId"])), (0, 0)),
            _utc(row["first"]),
            _utc(row["last"]),
        )
        for row in rows
    ]


def _newest_sessions(store: Store, since: datetime, service: str | None) -> set[tuple[str, str]]:
    """The CONVERSATIONS_LISTED sessions whose last turn since ``since`` is newest. Read from the last hour
    first, then a window RECENT_GROWTH times longer: once it holds that many sessions, no session outside it
    (its last turn is older) can be among them, and a month of requests is not grouped by session."""
    sql = (
        "SELECT ServiceName, SessionId, max(Timestamp) AS last"
        f" FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= {start:DateTime64(9)} AND SessionId != ''"
        " AND ({service:String} = '' OR ServiceName = {service:String})"
        " GROUP BY ServiceName, SessionId ORDER BY last DESC, SessionId LIMIT {limit:UInt32}"
    )
    for start in _recent_starts(since):
        rows = store.query(sql, {"start": start, "service": service or "", "limit": CONVERSATIONS_LISTED})
        if len(rows) >= CONVERSATIONS_LISTED or start <= since:
            return {(str(name), str(session)) for name, session, _ in rows}
    return set()


def _recent_starts(since: datetime) -> list[datetime]:
    """Where widening reads of the newest requests start: the last hour, RECENT_GROWTH times as long each
    time, and ``since`` last."""
    now, since = datetime.now(UTC), _utc(since)
    starts = []
    span = RECENT_FIRST
    while now - span > since:
        starts.append(now - span)
        span *= RECENT_GROWTH
    return [*starts, since]


def conversation_turns(store: Store, since: datetime, service: str, session: str) -> list[Turn]:
    """The conversation's turns since ``since``, oldest first, each with its judges' verdicts."""
    rows = store.query_dicts(
        "SELECT TraceId, SpanId, toUnixTimestamp64Micro(Timestamp) AS at, any(Timestamp) AS time,"
        " any(Variant) AS variant, any(Question) AS question, any(Answer) AS answer"
        f" FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= {since:DateTime64(9)} AND ServiceName = {service:String}"
        " AND SessionId = {session:String}"
        " GROUP BY TraceId, SpanId, at ORDER BY at, TraceId LIMIT {limit:UInt32}",
        {"since": since, "service": service, "session": session, "limit": TURNS_SHOWN},
    )
    verdicts = _verdicts(store, [(str(row["TraceId"]), int(row["at"])) for row in rows])
    return [
        Turn(
            RequestRef(str(row["TraceId"]), str(row["SpanId"]), int(row["at"]), str(row["question"]), False),
            _utc(row["time"]),
            str(row["variant"]),
            str(row["answer"]),
            verdicts.get((str(row["TraceId"]), str(row["SpanId"]), int(row["at"])), {}),
        )
        for row in rows
    ]


def slice_requests(store: Store, since: datetime, service: str, key: SliceKey) -> list[RequestRef]:
    """The slice's judged requests since ``since``, unsupported ones first, newest first. Read from the last
    hour first, then a window RECENT_GROWTH times longer, until it holds SLICE_REQUESTS unsupported requests
    (then no older request is among the first) or reaches ``since``."""
    parameters: dict[str, Any] = {"service": service, "value_0": key.value, "limit": SLICE_REQUESTS}
    sql = (
        "SELECT TraceId, SpanId, at, bad FROM ("
        "  SELECT TraceId, SpanId, toUnixTimestamp64Micro(RequestTime) AS at,"
        "  argMax(Hallucinated, JudgeRank) AS bad"
        f"  FROM {store.table('ragpulse_request_facts')}"
        "  WHERE RequestTime >= {start:DateTime64(9)} AND ServiceName = {service:String}"
        f"  AND {condition(key, 0, parameters)}"
        "  GROUP BY TraceId, SpanId, at HAVING sum(Sign) > 0"
        ") ORDER BY bad DESC, at DESC LIMIT {limit:UInt32}"
    )
    rows: list[Any] = []
    for start in _recent_starts(since):
        rows = store.query(sql, {**parameters, "start": start})
        if sum(bool(row[3]) for row in rows) >= SLICE_REQUESTS:
            break
    questions = request_questions(store, [(str(trace), str(span), int(at)) for trace, span, at, _ in rows])
    return [
        RequestRef(
            str(trace), str(span), int(at), questions.get((str(trace), str(span), int(at)), ""), bool(bad)
        )
        for trace, span, at, bad in rows
    ]


def _verdicts(store: Store, turns: list[tuple[str, int]]) -> dict[tuple[str, str, int], dict[str, bool]]:
    """Each turn's (trace, start in µs) verdicts, read from the hours between the first turn and the last."""
    if not turns:
        return {}
    found: dict[tuple[str, str, int], dict[str, bool]] = {}
    for trace, span, at, scorer, value in store.query(
        "SELECT TraceId, SpanId, toUnixTimestamp64Micro(RequestTime), Scorer, Hallucination"
        f" FROM {store.table('ragpulse_trace_verdicts')} FINAL"
        " WHERE RequestTime >= fromUnixTimestamp64Micro({first:Int64})"
        " AND RequestTime <= fromUnixTimestamp64Micro({last:Int64})"
        " AND TraceId IN {traces:Array(String)} AND HasHallucination = 1 AND Hallucination IS NOT NULL"
        " SETTINGS do_not_merge_across_partitions_select_final = 1",
        {
            "traces": sorted({trace for trace, _ in turns}),
            "first": min(at for _, at in turns),
            "last": max(at for _, at in turns),
        },
    ):
        found.setdefault((str(trace), str(span), int(at)), {})[str(scorer)] = float(value) >= 0.5
    return found


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
