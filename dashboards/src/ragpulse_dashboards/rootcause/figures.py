"""What the report and the live page show of root causes, for a window against the days before it: per
service, where the change sits; the questions' topics with their rates and a few requests each; and how many
conversations had an unsupported answer."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from ragpulse_core.store import Store
from ragpulse_scorers.stats import WeightedCount

from ragpulse_dashboards.rootcause.cause import TOPIC, Cause, RateFigure, label
from ragpulse_dashboards.rootcause.ranking import NEW_BELOW, explain
from ragpulse_dashboards.rootcause.slices import Period, Scope, service_counts, slice_residuals
from ragpulse_dashboards.rootcause.topic_store import topic_names

# Topics listed per service (new ones first, then the most asked), and example requests per topic.
TOPICS_SHOWN: Final = 12
EXAMPLES: Final = 3
# Examples are the topic's recent requests: reading a month of them would cost the month's facts.
EXAMPLES_FROM: Final = timedelta(days=1)
# One thread for the reads that run beside the slices'; it lives as long as the process, so its store client
# is opened once rather than on every report.
_BESIDE: Final = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ragpulse-rootcause")


@dataclass(frozen=True)
class RequestRef:
    """A request as the live page opens it, with its question."""

    trace_id: str
    span_id: str
    at_us: int
    question: str
    hallucinated: bool


@dataclass(frozen=True)
class ServiceCause:
    service: str
    cause: Cause


@dataclass(frozen=True)
class TopicRow:
    service: str
    topic: int
    name: str
    window: RateFigure
    baseline: RateFigure
    new: bool
    """No judged request of this topic in the baseline."""
    examples: list[RequestRef] = field(default_factory=list)


@dataclass(frozen=True)
class ConversationRate:
    """Conversations (requests sharing a session id) with a judged answer in the window, and those with at
    least one unsupported answer."""

    service: str
    conversations: int
    unsupported: int

    @property
    def rate(self) -> RateFigure:
        return RateFigure.of(WeightedCount.unweighted(self.unsupported, self.conversations))


@dataclass(frozen=True)
class RootCauseFigures:
    baseline_days: float
    causes: list[ServiceCause] = field(default_factory=list)
    topics: list[TopicRow] = field(default_factory=list)
    conversations: list[ConversationRate] = field(default_factory=list)


def collect_rootcause(
    store: Store,
    since: datetime,
    now: datetime,
    service: str | None,
    *,
    baseline_days: float,
    min_samples: int = 30,
) -> RootCauseFigures:
    """The figures for requests in [since, now], against the ``baseline_days`` before ``since`` (naive times
    are UTC)."""
    since, now = _aware(since), _aware(now)
    # The conversations' read shares nothing with the slices' and chDB (or the HTTP client) runs it without
    # Python's lock, so it runs beside them: the report waits for the longer of the two, not their sum.
    conversations = _BESIDE.submit(conversation_rates, store, since, now, service)
    period = Period(since, now, baseline_days)
    names = topic_names(store)
    counts = service_counts(store, service, period)
    causes = []
    topics = []
    for name, scope in counts.items():
        if scope.window.weights <= 0:
            continue

        def residuals(keys: Any, name: str = name) -> Any:
            return slice_residuals(store, Scope(name), period, keys)

        explanation = explain(
            scope.window, scope.baseline, scope.slices, residuals=residuals, min_samples=min_samples
        )
        causes.append(ServiceCause(name, Cause.of(explanation, baseline_days, names)))
        topics += _topic_rows(name, scope.slices, names)
    return RootCauseFigures(
        baseline_days,
        causes,
        _with_examples(store, period, topics),
        conversations.result(),
    )


def _topic_rows(service: str, slices: Any, names: dict[int, str]) -> list[TopicRow]:
    rows = [
        TopicRow(
            service,
            int(counts.key.value),
            names.get(int(counts.key.value), "") or label(counts.key, names),
            RateFigure.of(counts.window),
            RateFigure.of(counts.baseline),
            counts.baseline.weights < NEW_BELOW,
        )
        for counts in slices
        if counts.key.dimension == TOPIC and counts.key.value.isdigit() and counts.window.weights > 0
    ]
    rows.sort(key=lambda row: (not row.new, -row.window.n, row.topic))
    return rows[:TOPICS_SHOWN]


def _with_examples(store: Store, period: Period, rows: list[TopicRow]) -> list[TopicRow]:
    """Each topic with a few of its requests in the window's last EXAMPLES_FROM, unsupported ones first."""
    if not rows:
        return rows
    picked = store.query(
        "SELECT ServiceName, Topic, groupArray({examples:UInt32})((TraceId, SpanId, at, bad)) FROM ("
        "  SELECT ServiceName, Topic, TraceId, SpanId, toUnixTimestamp64Micro(RequestTime) AS at,"
        "  argMax(Hallucinated, JudgeRank) AS bad"
        f"  FROM {store.table('ragpulse_request_facts')}"
        "  WHERE RequestTime >= {start:DateTime64(9)} AND RequestTime < {end:DateTime64(9)}"
        "  AND (ServiceName, Topic) IN {topics:Array(Tuple(String, UInt32))}"
        "  GROUP BY ServiceName, Topic, TraceId, SpanId, at HAVING sum(Sign) > 0"
        "  ORDER BY bad DESC, at DESC"
        ") GROUP BY ServiceName, Topic",
        {
            "start": max(period.start, period.end - EXAMPLES_FROM),
            "end": period.end,
            "examples": EXAMPLES,
            "topics": [(row.service, row.topic) for row in rows],
        },
    )
    chosen = {(str(svc), int(topic)): list(found) for svc, topic, found in picked}
    questions = request_questions(
        store, [(str(trace), str(span), int(at)) for found in chosen.values() for trace, span, at, _ in found]
    )
    examples = {
        key: [
            RequestRef(
                str(trace), str(span), int(at), questions.get((str(trace), str(span), int(at)), ""), bool(bad)
            )
            for trace, span, at, bad in found
        ]
        for key, found in chosen.items()
    }
    return [replace(row, examples=examples.get((row.service, row.topic), [])) for row in rows]


def request_questions(store: Store, requests: list[tuple[str, str, int]]) -> dict[tuple[str, str, int], str]:
    """The question of each request (trace, span, start in µs), read between the first and the last start."""
    if not requests:
        return {}
    rows = store.query(
        "SELECT TraceId, SpanId, toUnixTimestamp64Micro(Timestamp) AS at, any(Question)"
        f" FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= fromUnixTimestamp64Micro({first:Int64})"
        " AND Timestamp <= fromUnixTimestamp64Micro({last:Int64})"
        " AND TraceId IN {traces:Array(String)} GROUP BY TraceId, SpanId, at",
        {
            "traces": sorted({trace for trace, _, _ in requests}),
            "first": min(at for _, _, at in requests),
            "last": max(at for _, _, at in requests),
        },
    )
    return {(str(trace), str(span), int(at)): str(question) for trace, span, at, question in rows}


def conversation_rates(
    store: Store, since: datetime, now: datetime, service: str | None
) -> list[ConversationRate]:
    """Per service: conversations with a judged answer in [since, now], and those with an unsupported one.
    Whole days are read from each conversation's daily sums, the hours at either end from the facts.
    Conversations are grouped by one 64-bit hash of service and session: a month holds ~800,000 of them, and
    a number groups about a third faster than a (service, number) pair (a collision among a million
    conversations is about 3e-8 likely)."""
    since, now = _aware(since), _aware(now) + timedelta(microseconds=1)
    first_day = (since + timedelta(days=1) - timedelta(microseconds=1)).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    last_day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    scope = "({service:String} = '' OR ServiceName = {service:String})"
    rows = store.query(
        "SELECT service, count(), countIf(unsupported > 0) FROM ("
        "  SELECT any(ServiceName) AS service, sum(judged) AS judged, sum(unsupported) AS unsupported"
        "  FROM ("
        "    SELECT ServiceName, SessionKey, Judged AS judged, Unsupported AS unsupported"
        f"   FROM {store.table('ragpulse_session_days')}"
        "    WHERE Day >= toDate({first_day:DateTime64(9)}) AND Day < toDate({last_day:DateTime64(9)})"
        f"   AND {scope}"
        "    UNION ALL SELECT ServiceName, cityHash64(SessionId) AS SessionKey, Sign AS judged,"
        "    Sign * Hallucinated AS unsupported"
        f"   FROM {store.table('ragpulse_request_facts')}"
        "    WHERE RequestTime >= {since:DateTime64(9)} AND RequestTime < {now:DateTime64(9)}"
        "    AND SessionId != ''"
        "    AND NOT (RequestTime >= {first_day:DateTime64(9)} AND RequestTime < {last_day:DateTime64(9)})"
        f"   AND {scope}"
        "  ) GROUP BY cityHash64(ServiceName, SessionKey) HAVING judged > 0"
        ") GROUP BY service ORDER BY service",
        {"since": since, "now": now, "first_day": first_day, "last_day": last_day, "service": service or ""},
    )
    return [ConversationRate(str(name), int(total), int(bad)) for name, total, bad in rows]


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
