"""One scoring tick: each scorer in turn reads its candidates in batches, samples, limits, judges, writes.

Nothing a request contains can crash a tick: unreadable rows are skipped with a reason and a judge exception
fails only that request (an Error row and a ``failed`` log row). An unreachable judge defers the rest of its
scorer's turn (see ``pipeline.circuit``); an unreachable store stops a scorer's turn with an error. Any other
failure of one step (assembly, feedback, one scorer's turn) is that step's: it is logged with its traceback
within a budget, named in the tick's errors, and every other step still runs. Refused items (feedback spans)
are logged once each and recorded in ``ragpulse_refused``. The next tick picks up where a turn stopped.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from ragpulse_assembly.job import AssemblyWindow, assemble_requests
from ragpulse_assembly.readings import Readers, template_readers
from ragpulse_assembly.view_repair import restore_missing_request_rows
from ragpulse_core.log_budget import LogBudget
from ragpulse_core.sampling import Shard
from ragpulse_core.store import Store, StoreUnavailable
from ragpulse_core.untrusted import Refusals, quoted

from ragpulse_scorers import refused
from ragpulse_scorers.labels.feedback import ingest_feedback
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.candidates import Selection
from ragpulse_scorers.pipeline.circuit import JudgeCircuit
from ragpulse_scorers.pipeline.limits import JudgeLimits, RequestBudget
from ragpulse_scorers.pipeline.turn import ScorerTurn, TurnPlan
from ragpulse_scorers.pipeline.writer import ScoreWriter
from ragpulse_scorers.registry import build_scorers
from ragpulse_scorers.rules.book import RuleBook, rule_book
from ragpulse_scorers.rules.spend import RuleLedger
from ragpulse_scorers.scorer import Scorer, is_free
from ragpulse_scorers.settings import ScorersSettings

logger = logging.getLogger(__name__)
_T = TypeVar("_T")

ASSEMBLY = "assembly"
# How far back, before the settle delay, each tick looks for root spans the requests view missed: a
# collector's crash is retried within minutes; a wider window would scan more spans every tick.
VIEW_REPAIR_WINDOW = timedelta(hours=1)
FEEDBACK = "feedback"
"""The name :attr:`TickReport.errors` gives end-user feedback."""
REFUSALS = "refusals"
"""The name :attr:`TickReport.errors` gives recording refused items."""


@dataclass
class TickReport:
    """What one tick did: per scorer, how many candidates met each outcome; ``errors`` names the scorers (and
    assembly, as :data:`ASSEMBLY`) whose tick stopped early (store unreachable) and why."""

    counts: dict[str, Counter[str]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    assembled: int = 0
    """Requests assembled from foreign traces before scoring."""
    restored: int = 0
    """Request rows made again for root spans the requests view missed (a collector killed mid-write)."""
    feedback: int = 0
    """End-user feedback spans written as labels."""
    refused: int = 0
    """Items refused this tick: feedback naming no usable request or score, or sent by another service."""

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
        if self.refused:
            parts.insert(0, f"{self.refused} items refused")
        if self.feedback:
            parts.insert(0, f"{self.feedback} feedback labels")
        if self.assembled:
            parts.insert(0, f"{self.assembled} requests assembled")
        return "; ".join(parts) or "no scorers"


class ScoringJob:
    """The scheduler's job. It keeps the scorers, each scorer's rate budget and its judge's circuit from one
    tick to the next. Once ``stopping`` is set, a tick starts no new judgment: what it judged is written,
    the rest waits for the next start (a stop never waits for a backlog to be cleared)."""

    def __init__(
        self,
        settings: ScorersSettings,
        store: Store,
        scorers: Sequence[Scorer] | None = None,
        *,
        write_batch: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        stopping: threading.Event | None = None,
        rules: RuleBook | None = None,
        lookback: timedelta | None = None,
        newest_age: timedelta | None = None,
    ) -> None:
        """``rules`` replaces the rules of ``settings``, ``lookback`` its ``scorer.lookback_hours`` and
        ``newest_age`` its ``scorer.settle_delay_s`` (a backfill of one rule over older requests)."""
        self._settings = settings
        self._store = store
        self._readers: Readers | None = None
        self._rules: RuleBook = rules if rules is not None else rule_book(settings)
        self._lookback = lookback or timedelta(hours=settings.scorer.lookback_hours)
        self._newest_age = newest_age or timedelta(seconds=settings.scorer.settle_delay_s)
        if scorers is None:
            judges = self._rules.judges
            scorers = build_scorers(judges, settings, store)
            self._rules = self._rules.renamed({j: s.name for j, s in zip(judges, scorers, strict=True)})
        self._scorers = list(scorers)
        self._ledger = RuleLedger()
        self._shard = Shard.parse(settings.scorer.shard)
        config = settings.scorer
        self._limits: dict[str, JudgeLimits] = {
            scorer.name: config.free if is_free(scorer) else config for scorer in self._scorers
        }
        self._budgets = {name: RequestBudget(limits.max_per_minute) for name, limits in self._limits.items()}
        self._circuits = {scorer.name: JudgeCircuit(config.circuit_failures) for scorer in self._scorers}
        self._write_batch = write_batch
        self._clock = clock
        self._stopping = stopping
        self._refusals: Refusals | None = None
        # A step that fails every tick (a bug, a refused insert) logs its traceback a few times an hour.
        self._failure_log = LogBudget(lines=3, window_s=600.0)
        shard = f" shard {self._shard}" if self._shard.count > 1 else ""
        self._worker = f"{socket.gethostname()}:{os.getpid()}{shard}"

    @property
    def scorers(self) -> list[Scorer]:
        return list(self._scorers)

    def __call__(self) -> None:
        report = self.run()
        logger.info("scoring tick: %s", report.summary())

    def run(
        self,
        now: datetime | None = None,
        report: TickReport | None = None,
        window: tuple[datetime, datetime] | None = None,
    ) -> TickReport:
        """One tick; its counts go to ``report`` when given (a backfill's progress). ``window`` (oldest,
        newest request start) narrows the requests read to one slice of a backfill; requests still settle
        until ``newest_age`` ago."""
        now = now or datetime.now(UTC)
        report = report if report is not None else TickReport()
        if not self._stop_requested():
            restored = self._step(
                ASSEMBLY, "restoring missing request rows", report, self._restore_view_rows, now
            )
            report.restored = restored or 0
        if self._settings.assembly.enabled and not self._stop_requested():
            report.assembled = self._step(ASSEMBLY, "request assembly", report, self._assemble, now) or 0
        if not self._stop_requested():
            report.feedback = (
                self._step(FEEDBACK, "end-user feedback", report, self._feedback, now, report) or 0
            )
        for scorer in self._scorers:
            report.counts.setdefault(scorer.name, Counter())
            if self._stop_requested():
                continue
            self._step(
                scorer.name, f"scorer {scorer.name}", report, self._run_scorer, scorer, now, report, window
            )
        if self._refusals is not None:
            self._step(REFUSALS, "recording refused items", report, self._record_refusals)
        return report

    def _step(
        self, name: str, what: str, report: TickReport, step: Callable[..., _T], *args: object
    ) -> _T | None:
        """``step(*args)``; a failure is this step's alone: logged, named in ``report.errors``, None."""
        try:
            return step(*args)
        except StoreUnavailable as exc:
            logger.warning("%s stopped this tick: %s", what, exc)
            report.errors[name] = str(exc)
        except Exception as exc:
            note = self._failure_log.admit()
            if note is not None:
                logger.exception("%s failed this tick (the other steps go on)%s", what, note)
            report.errors[name] = f"{type(exc).__name__}: {quoted(str(exc), quotes=False)}"
        return None

    def _feedback(self, now: datetime, report: TickReport) -> int:
        oldest = now - timedelta(hours=self._settings.scorer.lookback_hours)
        if self._refusals is None:
            self._refusals = Refusals(logger, refused.known(self._store, oldest))
        tally = ingest_feedback(self._store, oldest, self._refusals)
        report.refused += tally.refused + tally.quarantined
        return tally.written

    def _record_refusals(self) -> None:
        assert self._refusals is not None
        fresh = self._refusals.drain()
        try:
            refused.record(self._store, fresh)
        except Exception:
            self._refusals.undrain(fresh)
            raise

    def _stop_requested(self) -> bool:
        return self._stopping is not None and self._stopping.is_set()

    def _restore_view_rows(self, now: datetime) -> int:
        settled = now - timedelta(seconds=self._settings.scorer.settle_delay_s)
        oldest = max(
            now - timedelta(hours=self._settings.scorer.lookback_hours), settled - VIEW_REPAIR_WINDOW
        )
        return restore_missing_request_rows(self._store, oldest, settled, self._shard)

    def _assemble(self, now: datetime) -> int:
        config = self._settings.scorer
        templates = self._settings.assembly.templates
        oldest = now - timedelta(hours=config.lookback_hours)
        if self._readers is None:
            # Kept from tick to tick: the templates learnt so far, and the prompts they are learnt from.
            self._readers = template_readers(templates, self._store)
        window = AssemblyWindow(
            oldest=oldest,
            settled=now - timedelta(seconds=config.settle_delay_s),
            shard=self._shard,
            batch_size=self._settings.assembly.batch_size,
            max_traces=self._settings.assembly.max_traces_per_tick,
            mappings=tuple(self._settings.assembly.mappings),
            readers=self._readers,
            template_wait=timedelta(seconds=templates.wait_s),
        )
        return assemble_requests(self._store, window).assembled

    def _run_scorer(
        self, scorer: Scorer, now: datetime, report: TickReport, window: tuple[datetime, datetime] | None
    ) -> None:
        config = self._settings.scorer
        settled = now - self._newest_age
        oldest, newest = window or (now - self._lookback, settled)
        limits = self._limits[scorer.name]
        free = is_free(scorer)
        self._ledger.refresh(self._store, self._rules.rules_for(scorer.name), now)
        selection = Selection(
            scorer=scorer.name,
            version=scorer.version,
            oldest=oldest,
            newest=min(newest, settled),
            settled=settled,
            sample_threshold=self._rules.bound(scorer.name),
            shard=self._shard,
            max_attempts=config.max_attempts,
            limit=config.batch_size,
            rule_set=self._rules.digest(scorer.name),
        )
        plan = TurnPlan(
            selection=selection,
            limits=limits,
            rules=self._rules,
            batch_size=config.batch_size,
            # A free judge's writes gather batches up to a bound in rows (a judgment is at least its log row);
            # a paid judge's stay one batch each, so a refused write stops it before it pays for more.
            write_batch=self._write_batch or (config.free.write_rows if free else config.batch_size),
            write_rows=config.free.write_rows if free else None,
            deadline=self._clock() + config.tick_deadline_s,
            clock=self._clock,
            stopping=self._stopping,
        )
        ScorerTurn(
            self._store,
            scorer,
            plan,
            budget=self._budgets[scorer.name],
            circuit=self._circuits[scorer.name],
            writer=ScoreWriter(self._store, scorer.name, scorer.version, self._worker),
            report=report,
            ledger=self._ledger,
        ).run()


def run_tick(
    settings: ScorersSettings,
    store: Store,
    scorers: Sequence[Scorer] | None = None,
    now: datetime | None = None,
) -> TickReport:
    """One tick of every scorer (built from ``settings.scorer.scorers`` when ``scorers`` is None)."""
    return ScoringJob(settings, store, scorers).run(now)
