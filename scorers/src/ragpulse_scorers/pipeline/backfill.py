"""A backfill: one rule applied to past requests (``ragpulse score --rule NAME --since 7d``).

It runs the scheduler's own turns with that rule alone and a lookback of ``since``, so the scoring log stays
the one ledger of finished work: a request already judged (by the scheduler or by an earlier backfill) is not
judged again, a stopped backfill resumes where it stopped, and the rule's budgets and the judges' rate limits
apply as they do to live traffic. Turns repeat until one makes no progress: everything decided, or only
requests that wait for a rate limit, a budget or a judge that cannot be reached.
"""

from __future__ import annotations

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


def requests_in_window(store: Store, rule: Rule, since: timedelta, now: datetime) -> int:
    """Requests of the window that the rule's sample rate may include: the progress bar's total, per judge."""
    rows = store.query(
        f"SELECT count() FROM (SELECT TraceId, SpanId, Timestamp FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= {oldest:DateTime64(6)} AND SampleKey % {buckets:UInt64} < {bound:UInt64}"
        " LIMIT 1 BY TraceId, SpanId, Timestamp)",
        {"oldest": now - since, "buckets": SAMPLE_BUCKETS, "bound": round(rule.sample_rate * SAMPLE_BUCKETS)},
    )
    return int(rows[0][0]) if rows else 0


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
    ) -> None:
        quiet = settings.model_copy(
            update={"assembly": settings.assembly.model_copy(update={"enabled": False})}
        )
        self._job = ScoringJob(
            quiet, store, scorers, stopping=stopping, rules=single_rule(rule), lookback=since
        )
        self._stopping = stopping
        self._pause_s = pause_s
        self._sleep = sleep

    def run(self, advance: Callable[[str, Outcome], None] = lambda scorer, outcome: None) -> BackfillResult:
        result = BackfillResult()
        while True:
            report = self._job.run(datetime.now(UTC), ProgressReport(advance))
            for scorer, counter in report.counts.items():
                totals = result.counts.setdefault(scorer, {})
                for outcome in Outcome:
                    totals[outcome] = totals.get(outcome, 0) + counter[outcome.value]
            result.errors.update(report.errors)
            result.waiting = sum(report.total(outcome) for outcome in _WAITING)
            decided = sum(report.total(outcome) for outcome in Outcome if outcome not in _WAITING)
            if self._stopping is not None and self._stopping.is_set():
                result.stopped = True
                return result
            progressed = decided > 0 or report.total(Outcome.THROTTLED) > 0
            if report.errors or not progressed:
                return result
            if result.waiting:
                # A rate limit refills with time: wait a little rather than re-reading at once.
                self._sleep(self._pause_s)
