"""A backfill: one rule applied to past requests (``ragpulse score --rule NAME --since 7d``).

It takes the requests from ``since`` ago up to ``scorer.lookback_hours`` ago: the newer ones are the
scheduler's, which applies the same rules, so a backfill beside running workers never judges a request that
one of them judges at the same moment. A ``since`` within the lookback (``--since 2h``) takes the requests
from then up to the settle delay: they are the scheduler's too, and a request either judged is not judged by
the other afterwards (the scoring log is the ledger); a window that ended where it started would do nothing.

It walks that window oldest first in time slices of whole hours holding
about ``SLICE_REQUESTS`` requests, so that a batch's candidate query reads one slice, not the whole window. In
each slice it runs the scheduler's own turns with that rule alone, so the scoring log stays the one ledger of
finished work: a request already judged (by the scheduler or by an earlier backfill) is not judged again, a
stopped backfill resumes where it stopped (the slices before it cost one query each), and the rule's budgets
and the judges' rate limits apply as they do to live traffic. A slice's turns repeat until one makes no
progress: everything decided, or only requests that wait for a rate limit or a budget; then the next slice
starts. Each request is read once per rule: one its rule leaves out is logged so for that rule. A slice
whose requests were all decided is recorded (``ragpulse_backfill_slices``, per rule and judge versions), and
running the backfill again starts after the finished slices that cover its start. A judge that cannot be
reached, or a store error, ends the backfill.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from ragpulse_core.sampling import SAMPLE_BUCKETS
from ragpulse_core.store import Store

from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import ScoringJob, TickReport
from ragpulse_scorers.rules.book import single_rule
from ragpulse_scorers.rules.model import Rule
from ragpulse_scorers.scorer import Scorer
from ragpulse_scorers.settings import ScorersSettings

# Outcomes that leave a request for a later turn, and those that decide it.
_WAITING = frozenset({Outcome.THROTTLED, Outcome.DEFERRED, Outcome.OVER_BUDGET})
SLICE_REQUESTS = 20_000
"""Requests a slice holds at most, unless one hour holds more (ten batches of the default size)."""


class UnknownRule(ValueError):
    """``--rule`` names no rule of the config."""


def find_rule(settings: ScorersSettings, name: str) -> Rule:
    for rule in settings.rules:
        if rule.name == name:
            return rule
    known = ", ".join(rule.name for rule in settings.rules) or "none configured"
    raise UnknownRule(f"no rule named {name!r} in [[rules]] (rules: {known})")


class ProgressReport(TickReport):
    """A tick report that tells ``advance`` of every request it counts."""

    def __init__(self, advance: Callable[[str, Outcome], None]) -> None:
        super().__init__()
        self._advance = advance

    def add(self, scorer: str, outcome: Outcome, n: int = 1) -> None:
        super().add(scorer, outcome, n)
        for _ in range(n):
            self._advance(scorer, outcome)


@dataclass
class BackfillResult:
    counts: dict[str, dict[Outcome, int]] = field(default_factory=dict)
    stopped: bool = False
    """Ctrl-C (or a stop signal) ended it: running it again resumes."""
    waiting: int = 0
    """Requests left for later (rate limit, budget, judge unreachable) when it ended."""
    errors: dict[str, str] = field(default_factory=dict)
    slices: int = 0
    """Slices walked this run."""
    resumed_from: datetime | None = None
    """Where this run started, past the slices an earlier run finished (None: at the window's start)."""


def requests_in_window(
    store: Store, rule: Rule, since: timedelta, newest_age: timedelta, now: datetime
) -> int:
    """Requests of the window that the rule's sample rate may include: the progress bar's total, per judge."""
    rows = store.query(
        f"SELECT count() FROM (SELECT TraceId, SpanId, Timestamp FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= {oldest:DateTime64(6)} AND Timestamp <= {newest:DateTime64(6)}"
        " AND SampleKey % {buckets:UInt64} < {bound:UInt64} LIMIT 1 BY TraceId, SpanId, Timestamp)",
        {
            "oldest": now - since,
            "newest": now - newest_age,
            "buckets": SAMPLE_BUCKETS,
            "bound": round(rule.sample_rate * SAMPLE_BUCKETS),
        },
    )
    return int(rows[0][0]) if rows else 0


def slice_borders(store: Store, oldest: datetime, newest: datetime, per_slice: int) -> list[datetime]:
    """Hour starts that cut the requests from ``oldest`` to ``newest`` into slices of about ``per_slice``
    requests (more when one hour holds more); an hour without requests costs nothing."""
    rows = store.query(
        f"SELECT toStartOfHour(Timestamp) AS hour, count() FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= {oldest:DateTime64(6)} AND Timestamp <= {newest:DateTime64(6)}"
        " GROUP BY hour ORDER BY hour",
        {"oldest": oldest, "newest": newest},
    )
    borders: list[datetime] = []
    held = 0
    for hour, requests in rows:
        if held and held + int(requests) > per_slice:
            borders.append(hour if hour.tzinfo else hour.replace(tzinfo=UTC))
            held = 0
        held += int(requests)
    return borders


SLICES_TABLE = "ragpulse_backfill_slices"


def finished_until(store: Store, key: str, start: datetime) -> datetime:
    """The end of the finished slices of backfill ``key`` that cover ``start`` one after another; ``start``
    when none does."""
    rows = store.query(
        f"SELECT SliceStart, SliceEnd FROM {store.table(SLICES_TABLE)} FINAL"
        " WHERE Backfill = {key:String} AND SliceEnd > {start:DateTime64(6)} ORDER BY SliceStart",
        {"key": key, "start": start},
    )
    cursor = start
    for slice_start, slice_end in rows:
        begins, ends = _aware(slice_start), _aware(slice_end)
        if begins > cursor:
            break
        cursor = max(cursor, ends)
    return cursor


def record_finished(store: Store, key: str, rule: str, window: tuple[datetime, datetime]) -> None:
    store.insert(
        store.table(SLICES_TABLE),
        [[key, rule, _naive(window[0]), _naive(window[1]), _naive(datetime.now(UTC))]],
        ("Backfill", "Rule", "SliceStart", "SliceEnd", "FinishedAt"),
    )


def _naive(moment: datetime) -> datetime:
    return _aware(moment).replace(tzinfo=None)


def _aware(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


class Backfill:
    def __init__(
        self,
        settings: ScorersSettings,
        store: Store,
        rule: Rule,
        since: timedelta,
        scorers: Sequence[Scorer] | None = None,
        *,
        stopping: threading.Event | None = None,
        pause_s: float = 1.0,
        sleep: Callable[[float], None] = time.sleep,
        slice_requests: int = SLICE_REQUESTS,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        quiet = settings.model_copy(
            update={"assembly": settings.assembly.model_copy(update={"enabled": False})}
        )
        lookback = timedelta(hours=settings.scorer.lookback_hours)
        self.newest_age = lookback if since > lookback else timedelta(seconds=settings.scorer.settle_delay_s)
        self._job = ScoringJob(
            quiet,
            store,
            scorers,
            stopping=stopping,
            rules=single_rule(rule),
            lookback=since,
            newest_age=self.newest_age,
        )
        self._since = since
        self._stopping = stopping
        self._pause_s = pause_s
        self._sleep = sleep
        self._slice_requests = slice_requests
        self._store = store
        self._clock = clock
        self._rule = rule
        versions = sorted(f"{scorer.name}:{scorer.version}" for scorer in self._job.scorers)
        described = f"{rule.model_dump_json(by_alias=True)}|{','.join(versions)}"
        self.key = hashlib.sha256(described.encode()).hexdigest()[:16]
        """Names this backfill (its rule and judge versions) in ``ragpulse_backfill_slices``."""

    def run(self, advance: Callable[[str, Outcome], None] = lambda scorer, outcome: None) -> BackfillResult:
        result = BackfillResult()
        start = finished_until(self._store, self.key, self._clock() - self._since)
        result.resumed_from = start if start > self._clock() - self._since else None
        borders = slice_borders(self._store, start, self._clock() - self.newest_age, self._slice_requests)
        for border in [*borders, None]:
            # The window's end moves with the scheduler's: nothing it reads is ever read here at once.
            end = self._clock() - self.newest_age
            if start >= end:
                break
            # Slices overlap by their border instant: a request starting exactly there is read by both, and
            # the scoring log keeps the second from judging it again.
            window = (start, end if border is None else min(border, end))
            waiting = result.waiting
            going_on = self._run_slice(window, advance, result)
            if going_on and result.waiting == waiting:
                record_finished(self._store, self.key, self._rule.name, window)
            result.slices += 1
            if not going_on:
                break
            start = window[1]
        return result

    def _run_slice(
        self,
        window: tuple[datetime, datetime],
        advance: Callable[[str, Outcome], None],
        result: BackfillResult,
    ) -> bool:
        """Turns over one slice until one makes no progress; False when the backfill must end."""
        while True:
            report = self._job.run(self._clock(), ProgressReport(advance), window=window)
            for scorer, counter in report.counts.items():
                totals = result.counts.setdefault(scorer, {})
                for outcome in Outcome:
                    totals[outcome] = totals.get(outcome, 0) + counter[outcome.value]
            result.errors.update(report.errors)
            waiting = sum(report.total(outcome) for outcome in _WAITING)
            decided = sum(report.total(outcome) for outcome in Outcome if outcome not in _WAITING)
            if self._stopping is not None and self._stopping.is_set():
                result.stopped = True
                result.waiting += waiting
                return False
            if report.errors:
                result.waiting += waiting
                return False
            if not decided and not report.total(Outcome.THROTTLED):
                result.waiting += waiting
                # Deferred: the judge could not be reached; the next slices would only find it down too.
                return not report.total(Outcome.DEFERRED)
            if waiting:
                # A rate limit refills with time: wait a little rather than re-reading at once.
                self._sleep(self._pause_s)
