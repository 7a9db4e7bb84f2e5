"""Conversations: the requests of one service that share a session id (``session.id``), in the order they
came, each turn with every judge's verdict; and the requests of one slice."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from ragpulse_core.store import Store

from ragpulse_dashboards.rootcause.figures import RequestRef
from ragpulse_dashboards.rootcause.ranking import SliceKey
from ragpulse_dashboards.rootcause.slices import condition

CONVERSATIONS_LISTED: Final = 100
TURNS_SHOWN: Final = 200
SLICE_REQUESTS: Final = 50
# How far back the lists of the newest look first, before the whole window (see _newest_first).
NEWEST_FIRST: Final = (timedelta(hours=6), timedelta(days=2))


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
    scope = {"service": service or "", "limit": CONVERSATIONS_LISTED}
    newest: list[tuple[str, str]] = []
    for cutoff in _newest_first(since):
        # The newest conversations all had a turn after any cutoff that holds as many as are listed.
        newest = [
            (str(name), str(session))
            for name, session, _ in store.query(
                "SELECT ServiceName, SessionId, max(Timestamp) AS last"
                f" FROM {store.table('ragpulse_requests')}"
                " WHERE Timestamp >= {cutoff:DateTime64(9)} AND SessionId != ''"
                " AND ({service:String} = '' OR ServiceName = {service:String})"
                " GROUP BY ServiceName, SessionId ORDER BY last DESC, SessionId LIMIT {limit:UInt32}",
                {**scope, "cutoff": cutoff},
            )
        ]
        if len(newest) >= CONVERSATIONS_LISTED:
            break
    if not newest:
        return []
    chosen = {"since": since, "sessions": newest, "names": sorted({session for _, session in newest})}
    rows = store.query_dicts(
        "SELECT ServiceName, SessionId, uniqExact(TraceId, SpanId, Timestamp) AS turns,"
        " min(Timestamp) AS first, max(Timestamp) AS last"
        f" FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= {since:DateTime64(9)} AND SessionId IN {names:Array(String)}"
        " AND (ServiceName, SessionId) IN {sessions:Array(Tuple(String, String))}"
        " GROUP BY ServiceName, SessionId ORDER BY last DESC, SessionId",
        chosen,
    )
    judged = {
        (str(name), str(session)): (int(n), int(bad))
        for name, session, n, bad in store.query(
            "SELECT ServiceName, SessionId, sum(Sign), sum(Sign * Hallucinated)"
            f" FROM {store.table('ragpulse_request_facts')}"
            " WHERE RequestTime >= {since:DateTime64(9)} AND SessionId IN {names:Array(String)}"
            " GROUP BY ServiceName, SessionId",
            chosen,
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
    """The slice's judged requests since ``since``, unsupported ones first, newest first."""
    parameters: dict[str, Any] = {
        "service": service,
        "value_0": key.value,
        "limit": SLICE_REQUESTS,
    }
    rows: list[Any] = []
    for cutoff in _newest_first(since):
        # Unsupported requests come first: once a cutoff holds as many as are listed, the rest are older.
        rows = store.query(
            "SELECT TraceId, SpanId, at, bad FROM ("
            "  SELECT TraceId, SpanId, toUnixTimestamp64Micro(RequestTime) AS at,"
            "  argMax(Hallucinated, JudgeRank) AS bad"
            f"  FROM {store.table('ragpulse_request_facts')}"
            "  WHERE RequestTime >= {cutoff:DateTime64(9)} AND ServiceName = {service:String}"
            f"  AND {condition(key, 0, parameters)}"
            "  GROUP BY TraceId, SpanId, at HAVING sum(Sign) > 0"
            ") ORDER BY bad DESC, at DESC LIMIT {limit:UInt32}",
            {**parameters, "cutoff": cutoff},
        )
        if sum(bool(row[3]) for row in rows) >= SLICE_REQUESTS:
            break
    questions = {
        (str(trace), str(span), int(at)): str(question)
        for trace, span, at, question in store.query(
            "SELECT TraceId, SpanId, toUnixTimestamp64Micro(Timestamp) AS at, any(Question)"
            f" FROM {store.table('ragpulse_requests')} WHERE TraceId IN {{traces:Array(String)}}"
            " GROUP BY TraceId, SpanId, at",
            {"traces": sorted({str(row[0]) for row in rows})},
        )
    } if rows else {}  # fmt: skip
    return [
        RequestRef(
            str(trace), str(span), int(at), questions.get((str(trace), str(span), int(at)), ""), bool(bad)
        )
        for trace, span, at, bad in rows
    ]


def _newest_first(since: datetime) -> list[datetime]:
    """Cutoffs from the last hours back to ``since``: a list of the newest reads the recent parts only,
    and the whole window only when the recent ones hold too few."""
    now = datetime.now(UTC)
    recent = [now - span for span in NEWEST_FIRST if now - span > since]
    return [*recent, since]


def _verdicts(store: Store, requests: list[tuple[str, int]]) -> dict[tuple[str, str, int], dict[str, bool]]:
    """Each judge's newest verdict on the requests (trace, microsecond), read from the span of time they
    cover: the verdicts are ordered by time first, a month of them is not read for a few turns."""
    if not requests:
        return {}
    found: dict[tuple[str, str, int], dict[str, bool]] = {}
    for trace, span, at, scorer, value in store.query(
        "SELECT TraceId, SpanId, toUnixTimestamp64Micro(RequestTime), Scorer, Hallucination"
        f" FROM {store.table('ragpulse_trace_verdicts')} FINAL"
        " WHERE RequestTime >= fromUnixTimestamp64Micro({first:Int64})"
        " AND RequestTime < fromUnixTimestamp64Micro({after_last:Int64})"
        " AND TraceId IN {traces:Array(String)} AND HasHallucination = 1 AND Hallucination IS NOT NULL"
        " SETTINGS do_not_merge_across_partitions_select_final = 1",
        {
            "traces": sorted({trace for trace, _ in requests}),
            "first": min(at for _, at in requests),
            "after_last": max(at for _, at in requests) + 1,
        },
    ):
        found.setdefault((str(trace), str(span), int(at)), {})[str(scorer)] = float(value) >= 0.5
    return found


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
