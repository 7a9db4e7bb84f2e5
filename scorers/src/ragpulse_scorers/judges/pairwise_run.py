"""A pairwise run: variants' answers to the same questions judged head to head, written like any scorer's.

Picks questions that two or more variants answered (the same Question text in ``ragpulse_requests`` within the
window, the latest answer per variant), judges every pair of variants in both orders, and writes one
``pairwise_win`` score per judged trace (1 win, 0.5 tie, 0 loss; the mean when a trace met several variants)
through the scorers' writer: a dedup token on every insert and a scoring-log row per trace. The scoring log is
the ledger, as for every scorer: a trace with a ``scored`` row for this version is done, so a question whose
answers are all done is not judged again and a second run writes nothing twice.
"""

from __future__ import annotations

import itertools
import logging
import os
import socket
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ragpulse_core.store import Store

from ragpulse_scorers.judges.pairwise import PROMPT_VERSION, PairJudgment, PairwiseJudge, pooled_documents
from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.errors import BudgetExceeded, JudgeError
from ragpulse_scorers.metric_names import PAIRWISE_WIN
from ragpulse_scorers.metrics.elo import SCORE_OF_VERDICT, Game
from ragpulse_scorers.models import RagRequest, RequestRowError, Score
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.writer import Judgment, RequestKey, ScoreWriter, score_rows

logger = logging.getLogger(__name__)

SCORER = "pairwise"
SCORER_VERSION = f"1/{PROMPT_VERSION}"
_RESULT_LABEL = {1.0: "win", 0.5: "tie", 0.0: "loss"}


@dataclass(frozen=True)
class PlayedGame:
    question: str
    first: RagRequest
    second: RagRequest
    judgment: PairJudgment

    @property
    def game(self) -> Game:
        return Game(self.first.variant, self.second.variant, SCORE_OF_VERDICT[self.judgment.final])


@dataclass(frozen=True)
class FailedPair:
    first: RagRequest
    second: RagRequest
    reason: str

    def __str__(self) -> str:
        return f"{self.first.variant} vs {self.second.variant} on {self.first.question[:60]!r}: {self.reason}"


@dataclass
class PairwiseRun:
    games: list[PlayedGame] = field(default_factory=list)
    failed: list[FailedPair] = field(default_factory=list)
    stopped: str = ""

    @property
    def failures(self) -> list[str]:
        return [str(pair) for pair in self.failed]


def judged_requests(store: Store, requests: Iterable[RagRequest], since: datetime) -> set[tuple[str, str]]:
    """Those of ``requests`` the scoring log marks scored by this pairwise version, as (trace, span) pairs.

    A log row from before requests had a SpanId (empty) stands for every request of its trace."""
    listed = list(requests)
    rows = store.query(
        f"SELECT DISTINCT TraceId, SpanId FROM {store.table('ragpulse_scoring_log')}"
        " WHERE Scorer = {scorer:String} AND ScorerVersion = {version:String} AND Outcome = {scored:String}"
        " AND LoggedAt >= {since:DateTime64(6)} AND has({ids:Array(String)}, TraceId)",
        {
            "scorer": SCORER,
            "version": SCORER_VERSION,
            "scored": Outcome.SCORED,
            "since": since,
            "ids": sorted({request.trace_id for request in listed}),
        },
    )
    logged = {(str(trace), str(span)) for trace, span in rows}
    return {
        _request_id(request)
        for request in listed
        if _request_id(request) in logged or (request.trace_id, "") in logged
    }


def _request_id(request: RagRequest) -> tuple[str, str]:
    return (request.trace_id, request.span_id)


def candidate_questions(
    store: Store, variants: Sequence[str] | None, since: datetime, limit: int
) -> list[tuple[str, list[RagRequest]]]:
    """Questions answered by two or more of the variants (all of ``variants`` when given) and not all judged
    yet, newest first, with the latest request of each variant."""
    rows = store.query_dicts(
        "SELECT TraceId, SpanId, Timestamp, ServiceName, Pipeline, Variant, Question, Answer, Context"
        f" FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= {since:DateTime64(6)} AND Question != '' AND Answer != ''"
        " AND (empty({variants:Array(String)}) OR has({variants:Array(String)}, Variant))"
        " ORDER BY Timestamp DESC",
        {"since": since, "variants": list(variants or [])},
    )
    latest: dict[str, dict[str, RagRequest]] = {}
    for row in rows:
        try:
            request = RagRequest.from_row(row)
        except RequestRowError as exc:
            logger.warning("skipping a request row: %s", exc)
            continue
        latest.setdefault(request.question, {}).setdefault(request.variant, request)
    needed = len(variants) if variants else 2
    picked = [(q, list(by_variant.values())) for q, by_variant in latest.items() if len(by_variant) >= needed]
    done = judged_requests(store, (r for _, requests in picked for r in requests), since)
    fresh = [(q, requests) for q, requests in picked if any(_request_id(r) not in done for r in requests)]
    return fresh[:limit]


def play_pairwise(
    store: Store, judge: PairwiseJudge, variants: Sequence[str] | None, since: datetime, limit: int
) -> PairwiseRun:
    """Judge every pair of variants on each candidate question; a failed pair is recorded and skipped."""
    run = PairwiseRun()
    questions = candidate_questions(store, variants, since, limit)
    # A pair of answers both already scored would be played only for its result to be thrown away.
    done = judged_requests(store, (r for _, requests in questions for r in requests), since)
    for question, requests in questions:
        ordered = sorted(requests, key=lambda request: request.variant)
        for first, second in itertools.combinations(ordered, 2):
            if _request_id(first) in done and _request_id(second) in done:
                continue
            documents = pooled_documents(first.context, second.context)
            try:
                judgment = judge.judge_pair(question, first.answer, second.answer, documents)
            except BudgetExceeded as exc:
                run.stopped = f"judge budget spent: {exc}"
                return run
            except JudgeError as exc:
                run.failed.append(FailedPair(first, second, str(exc)))
                continue
            run.games.append(PlayedGame(question, first, second, judgment))
    return run


def run_pairwise(
    store: Store, judge: PairwiseJudge, variants: Sequence[str] | None, since: datetime, limit: int
) -> PairwiseRun:
    """Play the questions not judged yet and write what was played."""
    run = play_pairwise(store, judge, variants, since, limit)
    write_pairwise_scores(store, run.games, run.failed)
    return run


def write_pairwise_scores(
    store: Store, games: Sequence[PlayedGame], failed: Sequence[FailedPair] = ()
) -> int:
    """Through the scorers' writer, for each request not judged before: one ``pairwise_win`` row (the mean
    result of its games, each game in the details) and a ``scored`` log row, or a ``failed`` log row when
    every pair it was in failed. Returns how many requests were scored."""
    per_request: dict[tuple[str, str], tuple[RagRequest, list[Score]]] = {}
    for played in games:
        halves = played.judgment.usage.stamp(
            [_side_score(played, first=True), _side_score(played, first=False)]
        )
        for request, half in zip((played.first, played.second), halves, strict=True):
            per_request.setdefault(_request_id(request), (request, []))[1].append(half)
    failures = {
        _request_id(request): (request, pair.reason)
        for pair in failed
        for request in (pair.first, pair.second)
        if _request_id(request) not in per_request
    }
    requests = [request for request, _ in (*per_request.values(), *failures.values())]
    if not requests:
        return 0
    # A log row is written after its request: the oldest request bounds the log rows worth reading.
    done = judged_requests(store, requests, min(r.timestamp for r in requests))
    scored_at = datetime.now(UTC)
    judgments = [
        Judgment(
            _key(request),
            Outcome.SCORED,
            f"{len(halves)} games",
            score_rows(_key(request), SCORER, SCORER_VERSION, [_combine(halves)], scored_at),
        )
        for request_id, (request, halves) in per_request.items()
        if request_id not in done
    ]
    judgments += [
        Judgment(_key(request), Outcome.FAILED, reason)
        for request_id, (request, reason) in failures.items()
        if request_id not in done
    ]
    worker = f"{socket.gethostname()}:{os.getpid()}"
    ScoreWriter(store, SCORER, SCORER_VERSION, worker).write(judgments, scored_at)
    return sum(judgment.outcome == Outcome.SCORED for judgment in judgments)


def _key(request: RagRequest) -> RequestKey:
    return RequestKey(
        request.trace_id,
        request.span_id,
        request.timestamp,
        request.service_name,
        request.pipeline,
        request.variant,
    )


def _side_score(played: PlayedGame, first: bool) -> Score:
    judgment = played.judgment
    result = SCORE_OF_VERDICT[judgment.final] if first else 1.0 - SCORE_OF_VERDICT[judgment.final]
    own, opponent = (played.first, played.second) if first else (played.second, played.first)
    details: dict[str, Any] = {
        "games": [
            {
                "opponent_trace": opponent.trace_id,
                "opponent_variant": opponent.variant,
                "result": result,
                "shown_first": own is played.first,
                "verdict_forward": judgment.forward,
                "verdict_swapped": judgment.swapped,
                "reasoning_forward": judgment.forward_reasoning,
                "reasoning_swapped": judgment.swapped_reasoning,
            }
        ]
    }
    return Score(
        metric=PAIRWISE_WIN,
        value=result,
        label=_RESULT_LABEL[result],
        explanation=f"{_RESULT_LABEL[result]} against {opponent.variant}"
        f" (judged in both orders: {judgment.forward} / {judgment.swapped})",
        details=details,
    )


def _combine(halves: list[Score]) -> Score:
    if len(halves) == 1:
        return halves[0]
    values = [half.value or 0.0 for half in halves]
    usage = Usage(
        model=halves[0].judge_model,
        input_tokens=sum(h.input_tokens for h in halves),
        output_tokens=sum(h.output_tokens for h in halves),
        cost_usd=sum(h.cost_usd for h in halves),
        latency_ms=sum(h.latency_ms for h in halves),
    )
    wins, ties = values.count(1.0), values.count(0.5)
    combined = Score(
        metric=PAIRWISE_WIN,
        value=sum(values) / len(values),
        label=f"{wins}W {ties}T {len(values) - wins - ties}L",
        explanation=f"mean result of {len(values)} games against other variants",
        details={"games": [game for half in halves for game in half.details["games"]]},
    )
    return usage.stamp([combined])[0]
