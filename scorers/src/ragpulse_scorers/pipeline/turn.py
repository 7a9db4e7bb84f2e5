"""One scorer's turn in a tick: read candidates in batches, sample, limit, judge, write.

The turn reads ``batch_size`` candidates at a time, oldest first, each batch after the last, until none
remain, its window of candidates is read, or its deadline passes. A paid judge's scores and log rows go out
in batches of the same size; a free judge's gather across batches up to ``scorer.free.write_rows`` rows,
since a write costs the views on the scores table much the same whatever its size. The next batch is read on
a thread of its own while this one is judged (the database works without Python's lock), so the judge's
thread does not wait for reads; memory is bounded by two batches and two writes, not by the backlog, and a
free judge clears a backlog in one tick. A judge that cannot be reached opens the
scorer's circuit (:mod:`ragpulse_scorers.pipeline.circuit`): the turn stops calling it, defers the rest of its
batch and logs one summary line.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Protocol

from ragpulse_assembly.reasons import skip_reason
from ragpulse_core.log_budget import LogBudget
from ragpulse_core.store import Store
from ragpulse_core.untrusted import quoted

from ragpulse_scorers.models import RagRequest, RequestRowError, Score
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.candidates import (
    Candidate,
    RequestId,
    RequestRow,
    Selection,
    load_requests,
    select_candidates,
    with_attributes,
    with_free_support,
)
from ragpulse_scorers.pipeline.circuit import JudgeCircuit
from ragpulse_scorers.pipeline.errors import JudgeUnreachable, OverBudget
from ragpulse_scorers.pipeline.limits import JudgeLimits, RequestBudget, TickAllowance
from ragpulse_scorers.pipeline.writer import Judgment, RequestKey, ScoreWriter, error_score, score_rows
from ragpulse_scorers.rules.book import RuleBook
from ragpulse_scorers.rules.inclusion import FREE_JUDGE, directed_plans
from ragpulse_scorers.rules.model import Rule
from ragpulse_scorers.rules.spend import RuleLedger
from ragpulse_scorers.scorer import NotApplicable, Scorer, attributes_read, is_free

logger = logging.getLogger(__name__)
# A judge failing on request after request (a reply it cannot parse) logs a few lines a minute; each failure
# is in the scoring log all the same.
_FAILURE_LOG = LogBudget(lines=20)

# Candidates read per turn, as a multiple of the per-tick limit: enough to see what the limits throttle and
# to log out-of-sample requests in bulk, without reading a whole backlog.
CANDIDATE_WINDOW = 4
MAX_REASON_CHARS = 2000


@dataclass(frozen=True)
class _Batch:
    candidates: list[Candidate]
    rows: dict[RequestId, RequestRow]
    """The request rows of the candidates a rule may include, by request."""


class OutcomeCounter(Protocol):
    def add(self, scorer: str, outcome: Outcome, n: int = 1) -> None: ...


@dataclass(frozen=True)
class TurnPlan:
    """What a turn may do: where to look, its limits, batch sizes, its deadline on ``clock``, and the event
    that says the process is stopping (the turn then starts no new judgment). A write goes out once
    ``write_batch`` judgments or ``write_rows`` score and log rows are gathered, whichever comes first."""

    selection: Selection
    limits: JudgeLimits
    rules: RuleBook
    batch_size: int
    write_batch: int
    deadline: float
    write_rows: int | None = None
    clock: Callable[[], float] = time.monotonic
    stopping: threading.Event | None = None

    def expired(self) -> bool:
        return self.stop_reason() is not None

    def stop_reason(self) -> str | None:
        if self.stopping is not None and self.stopping.is_set():
            return "stopping"
        return "deadline" if self.clock() >= self.deadline else None


class ScorerTurn:
    def __init__(
        self,
        store: Store,
        scorer: Scorer,
        plan: TurnPlan,
        *,
        budget: RequestBudget,
        circuit: JudgeCircuit,
        writer: ScoreWriter,
        report: OutcomeCounter,
        ledger: RuleLedger,
    ) -> None:
        self._store = store
        self._scorer = scorer
        self._plan = plan
        self._circuit = circuit
        self._writer = writer
        self._report = report
        self._ledger = ledger
        self._wanting: dict[RequestId, tuple[Rule, ...]] = {}
        self._probabilities: dict[RequestId, float] = {}
        self._weighted: set[RequestId] = set()
        """Requests a directed rule matched: their score rows carry the inclusion probability."""
        rule_span, rule_resource = plan.rules.attribute_keys(scorer.name)
        read_span, read_resource = attributes_read(scorer)
        self._attribute_keys = (
            sorted({*rule_span, *read_span}),
            sorted({*rule_resource, *read_resource}),
        )
        self._rule_set = plan.rules.digest(scorer.name)
        self._allowance = TickAllowance[Candidate](
            lambda c: (c.service_name, c.variant),
            per_variant_quota=plan.limits.per_variant_quota,
            per_tick_limit=plan.limits.per_tick_limit,
            budget=budget,
        )
        self._pending: list[Judgment] = []
        self._pending_rows = 0
        self._writes: ThreadPoolExecutor | None = None
        self._in_flight: Future[None] | None = None
        self._budget_spent = threading.Event()
        self._judge_down = threading.Event()
        self._deferred = 0
        self._stopped = ""

    def run(self) -> None:
        window = CANDIDATE_WINDOW * self._plan.limits.per_tick_limit
        selection = self._plan.selection
        with self._writing(), self._judging_pool() as pool, self._reading() as reader:
            limit = min(self._plan.batch_size, window)
            ahead = reader.submit(self._read, replace(selection, limit=limit))
            # A spent budget ends the turn: the requests behind it wait for the next tick unjudged.
            while window > 0 and not self._stopped and not self._budget_spent.is_set():
                reason = self._plan.stop_reason()
                if reason is not None:
                    self._stopped = reason
                    break
                batch = ahead.result()
                if not batch.candidates:
                    break
                window -= len(batch.candidates)
                selection = replace(selection, after=batch.candidates[-1].position)
                more = len(batch.candidates) == limit and window > 0
                if more:
                    limit = min(self._plan.batch_size, window)
                    ahead = reader.submit(self._read, replace(selection, limit=limit))
                elif self._writes is not None:
                    # What is gathered is written while the last batch is judged: the wait for the turn's
                    # last write, once nothing is left to judge beside it, stays one batch's.
                    self._flush()
                self._take(batch, pool)
                if not more:
                    break
            self._flush()
        self._log_stop()

    @contextmanager
    def _reading(self) -> Iterator[ThreadPoolExecutor]:
        reader = ThreadPoolExecutor(1, thread_name_prefix=f"read-{self._scorer.name}")
        try:
            yield reader
        finally:
            reader.shutdown(wait=True, cancel_futures=True)

    def _read(self, selection: Selection) -> _Batch:
        """The next batch: its candidates with the attributes the rules and the scorer read, and the request
        rows of those the rules may include (none is judged outside the highest sample rate)."""
        candidates = select_candidates(self._store, selection)
        candidates = with_attributes(self._store, candidates, *self._attribute_keys)
        if self._plan.rules.directed(self._scorer.name):
            candidates = with_free_support(self._store, candidates, FREE_JUDGE)
        rows = load_requests(self._store, [candidate for candidate in candidates if candidate.in_sample])
        return _Batch(candidates, rows)

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """A free judge's batches are written on a thread of their own while the next batch is judged (the
        database works without Python's lock: chDB in-process, or the server over HTTP), one write at a time
        and in order. The turn ends once the last is written, and a failed write fails the turn as an
        inline one does, one batch later. A paid judge's writes stay inline: a store that refuses them stops
        the turn before it pays for another batch of judgments that could not be written."""
        if not is_free(self._scorer):
            yield
            return
        self._writes = ThreadPoolExecutor(1, thread_name_prefix=f"write-{self._scorer.name}")
        try:
            yield
            self._written()
        finally:
            self._writes.shutdown(wait=True)
            self._writes = None

    @contextmanager
    def _judging_pool(self) -> Iterator[ThreadPoolExecutor | None]:
        # One judgment at a time needs no threads: a CPU-bound judge runs fastest on the calling thread.
        if self._plan.limits.concurrency == 1:
            yield None
            return
        threads = self._plan.limits.concurrency
        pool = ThreadPoolExecutor(threads, thread_name_prefix=f"judge-{self._scorer.name}")
        try:
            yield pool
        finally:
            # On a store error, judging what can no longer be written would only spend judge budget.
            pool.shutdown(wait=True, cancel_futures=True)

    def _take(self, batch: _Batch, pool: ThreadPoolExecutor | None) -> None:
        candidates = batch.candidates
        directed = self._plan.rules.directed(self._scorer.name)
        plans = directed_plans(directed, candidates)
        eligible: list[Candidate] = []
        for candidate in candidates:
            wanted = self._plan.rules.wanted(self._scorer.name, candidate, plans)
            if not wanted.rules:
                # The query returns a sampled-out request only until its sampled_out row is written.
                judgment = Judgment(
                    _key(candidate), Outcome.SAMPLED_OUT, wanted.reason, rule_set=self._rule_set
                )
                self._record(candidate, judgment)
                continue
            paying = tuple(rule for rule in wanted.rules if self._ledger.exhausted(rule) is None)
            if not paying:
                # Final for this request: a spent rule's extra requests are not judged on a later day.
                _, reason = self._ledger.claim(wanted.rules)
                judgment = Judgment(_key(candidate), Outcome.OVER_BUDGET, reason, rule=wanted.rules[0].name)
                self._record(candidate, judgment)
                continue
            self._wanting[candidate.request_id] = paying
            self._probabilities[candidate.request_id] = wanted.probability
            if wanted.directed:
                self._weighted.add(candidate.request_id)
            eligible.append(candidate)
        # Where limits are short, the requests of higher-priority rules go first.
        eligible.sort(key=lambda candidate: -self._wanting[candidate.request_id][0].priority)
        allotment = self._allowance.allot(eligible)
        for candidate, reason in allotment.throttled:
            self._wanting.pop(candidate.request_id, None)
            self._probabilities.pop(candidate.request_id, None)
            self._record(candidate, Judgment(_key(candidate), Outcome.THROTTLED, reason))
        self._judge_batch(allotment.chosen, pool, batch.rows)

    def _judge_batch(
        self, chosen: list[Candidate], pool: ThreadPoolExecutor | None, rows: dict[RequestId, RequestRow]
    ) -> None:
        # The probe: until the judge has answered (or the circuit opened), one judgment at a time.
        while chosen and not self._circuit.closed and not self._judge_down.is_set():
            probe, chosen = chosen[0], chosen[1:]
            self._record(probe, self._judge(probe, rows.get(probe.request_id), probe=True))
        if pool is None:
            for candidate in chosen:
                self._record(candidate, self._judge(candidate, rows.get(candidate.request_id)))
            return
        futures = {pool.submit(self._judge, c, rows.get(c.request_id)): c for c in chosen}
        for future in as_completed(futures):
            self._record(futures[future], future.result())

    def _judge(self, candidate: Candidate, row: RequestRow | None, probe: bool = False) -> Judgment | None:
        """One request's judgment, or None when the deadline or a stop left it for later; never raises for
        anything the request or the scorer does."""
        if row is None:
            return Judgment(_key(candidate), Outcome.SKIPPED, "request row is gone (expired or deleted)")
        if row.problem:
            return Judgment(_key(candidate), Outcome.SKIPPED, row.problem)
        if self._budget_spent.is_set():
            return Judgment(_key(candidate), Outcome.OVER_BUDGET, "judge budget spent earlier in this tick")
        if self._judge_down.is_set() or (not probe and not self._circuit.closed):
            return self._deferral(_key(candidate))
        reason = self._plan.stop_reason()
        if reason is not None:
            self._stopped = reason
            return None
        key = _key(candidate, row.values.get("Pipeline", ""))
        unscorable = skip_reason(
            row.values.get("Unscorable", ""), self._scorer.requires, row.values.get("Failure", "")
        )
        if unscorable is not None:
            return Judgment(key, Outcome.SKIPPED, unscorable)
        try:
            request = RagRequest.from_row(row.values)
        except RequestRowError as exc:
            return Judgment(key, Outcome.SKIPPED, _clip(str(exc)))
        request.span_attributes = dict(candidate.span_attributes)
        request.resource_attributes = dict(candidate.resource_attributes)
        for name in self._scorer.requires:
            if not getattr(request, name, None):
                return Judgment(key, Outcome.SKIPPED, f"request has no {name}")
        payer, spent = self._ledger.claim(self._wanting.get(candidate.request_id, ()))
        if payer is None:
            rule = self._wanting.get(candidate.request_id, (None,))[0]
            return Judgment(key, Outcome.OVER_BUDGET, spent, rule=rule.name if rule else "")
        return self._score(candidate, key, request, payer.name)

    def _score(self, candidate: Candidate, key: RequestKey, request: RagRequest, payer: str) -> Judgment:
        """The judgment of ``request``; one the judge was paid for (scored, failed) names ``payer``, its rule,
        and carries the request's inclusion probability, built once rather than copied twice a request."""
        scorer = self._scorer
        probability = self._probabilities.get(candidate.request_id, 1.0)
        started = time.monotonic()
        try:
            scores = scorer.score(request)
        except NotApplicable as exc:
            self._circuit.reached()
            return Judgment(key, Outcome.SKIPPED, _clip(str(exc)) or "not applicable")
        except OverBudget as exc:
            self._budget_spent.set()
            return Judgment(key, Outcome.OVER_BUDGET, _clip(str(exc)) or "judge budget spent")
        except JudgeUnreachable as exc:
            if self._circuit.unreachable(_clip(f"{type(exc).__name__}: {exc}")):
                self._judge_down.set()
                return self._deferral(key)
            logger.info("scorer %s could not reach its judge on trace %s: %s", scorer.name, key.trace_id, exc)
            return _failed(scorer, key, f"{type(exc).__name__}: {exc}", payer, probability)
        except Exception as exc:
            self._circuit.reached()
            note = _FAILURE_LOG.admit()
            if note is not None:
                said = quoted(f"{type(exc).__name__}: {exc}", 300, quotes=False)
                logger.warning(
                    "scorer %s failed on trace %s: %s%s", scorer.name, candidate.trace_id, said, note
                )
            return _failed(scorer, key, f"{type(exc).__name__}: {exc}", payer, probability)
        self._circuit.reached()
        elapsed_ms = (time.monotonic() - started) * 1000.0
        if not isinstance(scores, (list, tuple)) or not all(isinstance(score, Score) for score in scores):
            message = f"scorer returned {type(scores).__name__}, not a list of Score"
            return _failed(scorer, key, message, payer, probability)
        if not scores:
            return Judgment(key, Outcome.SKIPPED, "scorer returned no scores")
        if candidate.request_id in self._weighted and probability < 1.0:
            scores = [score.model_copy(update={"inclusion_probability": probability}) for score in scores]
        try:
            rows = score_rows(key, scorer.name, scorer.version, list(scores), datetime.now(UTC))
        except (TypeError, ValueError, OverflowError) as exc:
            message = f"scorer returned a value no column can hold: {exc}"
            return _failed(scorer, key, message, payer, probability)
        reason = f"{len(scores)} metrics in {elapsed_ms:.0f} ms"
        return Judgment(
            key,
            Outcome.SCORED,
            reason,
            rows,
            replaces_error=candidate.failures > 0,
            rule=payer,
            inclusion_probability=probability,
        )

    def _deferral(self, key: RequestKey) -> Judgment:
        return Judgment(key, Outcome.DEFERRED, f"judge unreachable: {self._circuit.last_failure}")

    def _record(self, candidate: Candidate, judgment: Judgment | None) -> None:
        if judgment is None:
            return
        self._wanting.pop(candidate.request_id, None)
        probability = self._probabilities.pop(candidate.request_id, None)
        self._weighted.discard(candidate.request_id)
        if judgment.rule and judgment.outcome in (Outcome.SCORED, Outcome.FAILED):
            self._ledger.charge(judgment.rule, judgment.cost_usd)
            if probability is not None and probability != judgment.inclusion_probability:
                judgment = replace(judgment, inclusion_probability=probability)
        self._report.add(self._scorer.name, judgment.outcome)
        if judgment.outcome == Outcome.DEFERRED:
            self._deferred += 1
            self._stopped = "judge unreachable"
        # A deferral is logged once per request, not once per tick. A request its rules leave out is logged
        # once per set of rules (the query reads it again only for another set): unlogged, a backfill's rule
        # would read it again on every turn and never finish.
        if judgment.outcome in candidate.logged_deferrals and not (
            judgment.outcome == Outcome.SAMPLED_OUT and judgment.rule_set
        ):
            return
        self._pending.append(judgment)
        self._pending_rows += len(judgment.score_rows) + 1
        rows = self._plan.write_rows
        if len(self._pending) >= self._plan.write_batch or (rows is not None and self._pending_rows >= rows):
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        batch, self._pending, self._pending_rows = self._pending, [], 0
        if self._writes is None:
            self._writer.write(batch, datetime.now(UTC))
            return
        self._written()  # the batch before must be in before this one starts: scores, then their log rows
        self._in_flight = self._writes.submit(self._writer.write, batch, datetime.now(UTC))

    def _written(self) -> None:
        """Wait for the write in flight; its error, if any, is raised here."""
        in_flight, self._in_flight = self._in_flight, None
        if in_flight is not None:
            in_flight.result()

    def _log_stop(self) -> None:
        name = self._scorer.name
        if self._deferred:
            logger.warning(
                "scorer %s: judge unreachable (%d failures in a row, last: %s); %d requests deferred,"
                " the next tick probes the judge once before resuming",
                name, self._circuit.failures, self._circuit.last_failure, self._deferred,
            )  # fmt: skip
        elif self._stopped == "deadline":
            logger.info("scorer %s: tick deadline reached; the rest waits for the next tick", name)
        elif self._stopped == "stopping":
            logger.info("scorer %s: stopping; the rest waits for the next start", name)


def _key(candidate: Candidate, pipeline: str = "") -> RequestKey:
    return RequestKey(
        candidate.trace_id,
        candidate.span_id,
        candidate.timestamp,
        candidate.service_name,
        pipeline,
        candidate.variant,
    )


def _failed(scorer: Scorer, key: RequestKey, message: str, payer: str, probability: float) -> Judgment:
    message = _clip(message)
    rows = score_rows(key, scorer.name, scorer.version, [error_score(message)], datetime.now(UTC))
    return Judgment(key, Outcome.FAILED, message, rows, rule=payer, inclusion_probability=probability)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_REASON_CHARS else text[: MAX_REASON_CHARS - 1] + "…"
