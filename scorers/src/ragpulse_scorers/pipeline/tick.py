"""One scoring tick: for each scorer, select, sample, limit, judge with bounded concurrency, write.

Nothing a request contains can crash a tick: unreadable rows are skipped with a reason and a judge exception
fails only that request (an Error row and a ``failed`` log row). Only an unreachable store stops a scorer's
tick; the next tick picks up where it stopped.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from ragpulse_core.store import Store, StoreUnavailable

from ragpulse_scorers.assembly.job import AssemblyWindow, assemble_requests
from ragpulse_scorers.models import RagRequest, RequestRowError, Score
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.candidates import Candidate, Selection, load_requests, select_candidates
from ragpulse_scorers.pipeline.errors import OverBudget
from ragpulse_scorers.pipeline.limits import RequestBudget, allot
from ragpulse_scorers.pipeline.sampling import Shard, sample_threshold
from ragpulse_scorers.pipeline.writer import Judgment, RequestKey, ScoreWriter, error_score, score_rows
from ragpulse_scorers.registry import build_scorers
from ragpulse_scorers.scorer import NotApplicable, Scorer
from ragpulse_scorers.settings import ScorersSettings

logger = logging.getLogger(__name__)

# Candidates read per tick, as a multiple of the per-tick limit: enough to see what the limits throttle and
# to log out-of-sample requests in bulk, without reading a whole backlog.
CANDIDATE_WINDOW = 4
MAX_REASON_CHARS = 2000
ASSEMBLY = "assembly"
"""The name :attr:`TickReport.errors` gives request assembly."""




@dataclass
class TickReport:
    """What one tick did: per scorer, how many candidates met each outcome; ``errors`` names scorers whose
    tick stopped early (store unreachable) and why."""

    counts: dict[str, Counter[str]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    assembled: int = 0
    """Requests assembled from foreign traces before scoring."""

    def add(self, scorer: str, outcome: Outcome, n: int = 1) -> None:
        self.counts.setdefault(scorer, Counter())[outcome.value] += n

    def count(self, scorer: str, outcome: Outcome) -> int:
        return self.counts.get(scorer, Counter())[outcome.value]

    def total(self, outcome: Outcome) -> int:
        return sum(counter[outcome.value] for counter in self.counts.values())

    def summary(self) -> str:
        parts = []
        for scorer, counter in self.counts.items():
            shown = ", ".join(f"{counter[o.value]} {o.value}" for o in Outcome if counter[o.value])
            parts.append(f"{scorer}: {shown or 'nothing to do'}")
        parts.extend(f"{scorer}: stopped ({error})" for scorer, error in self.errors.items())
        if self.assembled:
            parts.insert(0, f"{self.assembled} requests assembled")
        return "; ".join(parts) or "no scorers"


class ScoringJob:
    """The scheduler's job. It keeps the scorers and each scorer's rate budget from one tick to the next."""

    def __init__(
        self,
        settings: ScorersSettings,
        store: Store,
        scorers: Sequence[Scorer] | None = None,
        *,
        write_batch: int = 50,
    ) -> None:
        self._settings = settings
        self._store = store
        self._scorers = (
            list(scorers) if scorers is not None else build_scorers(settings.scorer.scorers, settings, store)
        )
        self._shard = Shard.parse(settings.scorer.shard)
        self._threshold = sample_threshold(settings.scorer.sample_rate)
        per_minute = settings.scorer.max_per_minute
        self._budgets = {scorer.name: RequestBudget(per_minute) for scorer in self._scorers}
        self._write_batch = write_batch
        shard = f" shard {self._shard}" if self._shard.count > 1 else ""
        self._worker = f"{socket.gethostname()}:{os.getpid()}{shard}"

    def __call__(self) -> None:
        report = self.run()
        logger.info("scoring tick: %s", report.summary())

    def run(self, now: datetime | None = None) -> TickReport:
        now = now or datetime.now(UTC)
        report = TickReport()
        if self._settings.assembly.enabled:
            try:
                report.assembled = self._assemble(now)
            except StoreUnavailable as exc:
                logger.warning("request assembly stopped this tick: %s", exc)
                report.errors[ASSEMBLY] = str(exc)
        for scorer in self._scorers:
            report.counts.setdefault(scorer.name, Counter())
            try:
                self._run_scorer(scorer, now, report)
            except StoreUnavailable as exc:
                logger.warning("scorer %s stopped this tick: %s", scorer.name, exc)
                report.errors[scorer.name] = str(exc)
        return report

    def _assemble(self, now: datetime) -> int:
        config = self._settings.scorer
        window = AssemblyWindow(
            oldest=now - timedelta(hours=config.lookback_hours),
            settled=now - timedelta(seconds=config.settle_delay_s),
            shard=self._shard,
            batch_size=self._settings.assembly.batch_size,
            max_traces=self._settings.assembly.max_traces_per_tick,
        )
        return assemble_requests(self._store, window).assembled

    def _run_scorer(self, scorer: Scorer, now: datetime, report: TickReport) -> None:
        config = self._settings.scorer
        selection = Selection(
            scorer=scorer.name,
            version=scorer.version,
            oldest=now - timedelta(hours=config.lookback_hours),
            newest=now - timedelta(seconds=config.settle_delay_s),
            sample_threshold=self._threshold,
            shard=self._shard,
            max_attempts=config.max_attempts,
            limit=CANDIDATE_WINDOW * config.per_tick_limit,
        )
        candidates = select_candidates(self._store, selection)
        writer = ScoreWriter(self._store, scorer.name, scorer.version, self._worker)

        decided: list[Judgment] = []
        eligible: list[Candidate] = []
        for candidate in candidates:
            if not candidate.in_sample:
                # The query returns an out-of-sample request only until its sampled_out row is written.
                reason = f"SampleKey outside sample rate {config.sample_rate}"
                decided.append(Judgment(_key(candidate), Outcome.SAMPLED_OUT, reason))
            elif candidate.problem:
                decided.append(Judgment(_key(candidate), Outcome.SKIPPED, candidate.problem))
            else:
                eligible.append(candidate)
        allotment = allot(
            eligible,
            lambda c: (c.service_name, c.variant),
            per_variant_quota=config.per_variant_quota,
            per_tick_limit=config.per_tick_limit,
            budget=self._budgets[scorer.name],
        )
        for judgment in decided:
            report.add(scorer.name, Outcome(judgment.outcome))
        report.add(scorer.name, Outcome.THROTTLED, len(allotment.throttled))
        decided.extend(
            Judgment(_key(candidate), Outcome.THROTTLED, reason)
            for candidate, reason in allotment.throttled
            if Outcome.THROTTLED not in candidate.logged_deferrals
        )
        writer.write(decided, datetime.now(UTC))
        self._judge_all(scorer, allotment.chosen, writer, report)

    def _judge_all(
        self, scorer: Scorer, chosen: list[Candidate], writer: ScoreWriter, report: TickReport
    ) -> None:
        rows = load_requests(self._store, chosen)
        budget_spent = threading.Event()
        pending: list[Judgment] = []
        concurrency = self._settings.scorer.concurrency
        pool = ThreadPoolExecutor(concurrency, thread_name_prefix=f"judge-{scorer.name}")
        try:
            futures = {
                pool.submit(_judge, scorer, candidate, rows.get(candidate.trace_id), budget_spent): candidate
                for candidate in chosen
            }
            for future in as_completed(futures):
                judgment = future.result()
                report.add(scorer.name, Outcome(judgment.outcome))
                if judgment.outcome == Outcome.OVER_BUDGET and (
                    Outcome.OVER_BUDGET in futures[future].logged_deferrals
                ):
                    continue
                pending.append(judgment)
                if len(pending) >= self._write_batch:
                    writer.write(pending, datetime.now(UTC))
                    pending = []
            writer.write(pending, datetime.now(UTC))
        finally:
            # On a store error, judging what can no longer be written would only spend judge budget.
            pool.shutdown(wait=True, cancel_futures=True)


def _key(candidate: Candidate, pipeline: str = "") -> RequestKey:
    return RequestKey(
        candidate.trace_id, candidate.timestamp, candidate.service_name, pipeline, candidate.variant
    )


def _judge(
    scorer: Scorer, candidate: Candidate, row: dict[str, Any] | None, budget_spent: threading.Event
) -> Judgment:
    """One request's judgment; never raises for anything the request or the scorer does."""
    key = _key(candidate)
    if row is None:
        return Judgment(key, Outcome.SKIPPED, "request row is gone (expired or deleted)")
    if budget_spent.is_set():
        return Judgment(key, Outcome.OVER_BUDGET, "judge budget spent earlier in this tick")
    try:
        request = RagRequest.from_row(row)
    except RequestRowError as exc:
        return Judgment(key, Outcome.SKIPPED, _clip(str(exc)))
    key = replace(key, pipeline=request.pipeline)
    for name in scorer.requires:
        if not getattr(request, name, None):
            return Judgment(key, Outcome.SKIPPED, f"request has no {name}")
    started = time.monotonic()
    try:
        scores = scorer.score(request)
    except NotApplicable as exc:
        return Judgment(key, Outcome.SKIPPED, _clip(str(exc)) or "not applicable")
    except OverBudget as exc:
        budget_spent.set()
        return Judgment(key, Outcome.OVER_BUDGET, _clip(str(exc)) or "judge budget spent")
    except Exception as exc:
        logger.warning("scorer %s failed on trace %s: %r", scorer.name, candidate.trace_id, exc)
        return _failed(scorer, key, f"{type(exc).__name__}: {exc}")
    elapsed_ms = (time.monotonic() - started) * 1000.0
    if not isinstance(scores, (list, tuple)) or not all(isinstance(score, Score) for score in scores):
        return _failed(scorer, key, f"scorer returned {type(scores).__name__}, not a list of Score")
    if not scores:
        return Judgment(key, Outcome.SKIPPED, "scorer returned no scores")
    try:
        rows = score_rows(key, scorer.name, scorer.version, list(scores), datetime.now(UTC))
    except (TypeError, ValueError, OverflowError) as exc:
        return _failed(scorer, key, f"scorer returned a value no column can hold: {exc}")
    reason = f"{len(scores)} metrics in {elapsed_ms:.0f} ms"
    return Judgment(key, Outcome.SCORED, reason, rows, replaces_error=candidate.failures > 0)


def _failed(scorer: Scorer, key: RequestKey, message: str) -> Judgment:
    message = _clip(message)
    rows = score_rows(key, scorer.name, scorer.version, [error_score(message)], datetime.now(UTC))
    return Judgment(key, Outcome.FAILED, message, rows)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_REASON_CHARS else text[: MAX_REASON_CHARS - 1] + "…"


def run_tick(
    settings: ScorersSettings,
    store: Store,
    scorers: Sequence[Scorer] | None = None,
    now: datetime | None = None,
) -> TickReport:
    """One tick of every scorer (built from ``settings.scorer.scorers`` when ``scorers`` is None)."""
    return ScoringJob(settings, store, scorers).run(now)
