"""``ragpulse pairwise``: variants' answers to the same questions judged head to head, ranked by Elo.

Picks questions that two or more variants answered (the same Question text in ``ragpulse_requests`` within the
window, the latest answer per variant), judges every pair of variants in both orders, writes one
``pairwise_win`` score per judged trace (1 win, 0.5 tie, 0 loss; the mean when a trace met several variants)
and prints the Elo leaderboard over the reconciled games (RAGElo: K=32, start 1000, mean ± sd over shuffled
tournaments).
"""

from __future__ import annotations

import argparse
import itertools
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ragpulse_core.store import Store
from rich.console import Console
from rich.table import Table

from ragpulse_scorers.commands.store_access import open_migrated_store
from ragpulse_scorers.judges.pairwise import PROMPT_VERSION, PairJudgment, PairwiseJudge, pooled_documents
from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.client import shared_client
from ragpulse_scorers.llm.errors import BudgetExceeded, JudgeError
from ragpulse_scorers.metrics.elo import SCORE_OF_VERDICT, Game, Standing, elo_leaderboard
from ragpulse_scorers.models import RagRequest, RequestRowError, Score
from ragpulse_scorers.pipeline.writer import SCORE_COLUMNS, RequestKey, score_rows
from ragpulse_scorers.settings import ScorersSettings

logger = logging.getLogger(__name__)
console = Console()

SCORER = "pairwise"
SCORER_VERSION = f"1/{PROMPT_VERSION}"
METRIC = "pairwise_win"
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


@dataclass
class PairwiseRun:
    games: list[PlayedGame] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    stopped: str = ""



def run(args: argparse.Namespace) -> int:
    if args.limit < 1 or args.tournaments < 1:
        raise ValueError("--limit and --tournaments must be at least 1")
    settings = ScorersSettings.load(args.config, store={"dsn": args.dsn})
    if not settings.judge.configured:
        console.print("[red]pairwise needs an LLM judge:[/red] set OPENAI_BASE_URL and/or OPENAI_API_KEY")
        return 2
    store = open_migrated_store(settings, console)
    if store is None:
        return 1
    try:
        judge = PairwiseJudge(shared_client(settings.judge, store))
        run = play_pairwise(store, judge, args.variants, datetime.now(UTC) - args.since, args.limit)
        write_pairwise_scores(store, run.games)
    finally:
        store.close()
    if not run.games and not run.failures:
        console.print("no question was answered by two variants in the window; nothing to compare")
        return 0
    print_leaderboard(elo_leaderboard([g.game for g in run.games], args.tournaments, args.seed), run)
    return 1 if run.failures or run.stopped else 0




def candidate_questions(
    store: Store, variants: Sequence[str] | None, since: datetime, limit: int
) -> list[tuple[str, list[RagRequest]]]:
    """Questions answered by two or more of the variants (all of ``variants`` when given), newest first, with
    the latest request of each variant."""
    rows = store.query_dicts(
        "SELECT TraceId, Timestamp, ServiceName, Pipeline, Variant, Question, Answer, Context"
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
    return picked[:limit]


def play_pairwise(
    store: Store, judge: PairwiseJudge, variants: Sequence[str] | None, since: datetime, limit: int
) -> PairwiseRun:
    """Judge every pair of variants on each candidate question; a failed pair is recorded and skipped."""
    run = PairwiseRun()
    for question, requests in candidate_questions(store, variants, since, limit):
        ordered = sorted(requests, key=lambda request: request.variant)
        for first, second in itertools.combinations(ordered, 2):
            documents = pooled_documents(first.context, second.context)
            try:
                judgment = judge.judge_pair(question, first.answer, second.answer, documents)
            except BudgetExceeded as exc:
                run.stopped = f"judge budget spent: {exc}"
                return run
            except JudgeError as exc:
                run.failures.append(f"{first.variant} vs {second.variant} on {question[:60]!r}: {exc}")
                continue
            run.games.append(PlayedGame(question, first, second, judgment))
    return run


def write_pairwise_scores(store: Store, games: Sequence[PlayedGame]) -> None:
    """One ``pairwise_win`` row per trace: the mean result of its games, each game in the details."""
    per_trace: dict[str, tuple[RagRequest, list[Score]]] = {}
    for played in games:
        halves = played.judgment.usage.stamp(
            [_side_score(played, first=True), _side_score(played, first=False)]
        )
        for request, half in zip((played.first, played.second), halves, strict=True):
            per_trace.setdefault(request.trace_id, (request, []))[1].append(half)
    scored_at = datetime.now(UTC)
    rows: list[list[Any]] = []
    for request, halves in per_trace.values():
        key = RequestKey(
            request.trace_id, request.timestamp, request.service_name, request.pipeline, request.variant
        )
        rows += score_rows(key, SCORER, SCORER_VERSION, [_combine(halves)], scored_at)
    store.insert("ragpulse_scores", rows, SCORE_COLUMNS)


def _side_score(played: PlayedGame, first: bool) -> Score:
    judgment = played.judgment
    result = SCORE_OF_VERDICT[judgment.final] if first else 1.0 - SCORE_OF_VERDICT[judgment.final]
    own, opponent = (played.first, played.second) if first else (played.second, played.first)
    return Score(
        metric=METRIC,
        value=result,
        label=_RESULT_LABEL[result],
        explanation=f"{_RESULT_LABEL[result]} against {opponent.variant}"
        f" (judged in both orders: {judgment.forward} / {judgment.swapped})",
        details={
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
        },
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
        metric=METRIC,
        value=sum(values) / len(values),
        label=f"{wins}W {ties}T {len(values) - wins - ties}L",
        explanation=f"mean result of {len(values)} games against other variants",
        details={"games": [game for half in halves for game in half.details["games"]]},
    )
    return usage.stamp([combined])[0]


def print_leaderboard(board: Sequence[Standing], run: PairwiseRun) -> None:
    table = Table(title=f"Elo leaderboard ({len(run.games)} games, judged in both orders)")
    for column in ("rank", "variant", "Elo", "games", "wins", "ties", "losses"):
        table.add_column(column, justify="left" if column == "variant" else "right")
    for rank, standing in enumerate(board, 1):
        table.add_row(
            str(rank), standing.player, f"{standing.mean:.0f} ± {standing.sd:.0f}", str(standing.games),
            str(standing.wins), str(standing.ties), str(standing.losses),
        )  # fmt: skip
    console.print(table)
    for failure in run.failures:
        console.print(f"[yellow]not judged:[/yellow] {failure}")
    if run.stopped:
        console.print(f"[red]stopped early:[/red] {run.stopped}")
