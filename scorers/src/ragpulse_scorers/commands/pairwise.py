"""``ragpulse pairwise``: variants' answers to the same questions judged head to head, ranked by Elo.

The run itself (choosing questions, playing both orders, writing scores and log rows) is
:mod:`ragpulse_scorers.judges.pairwise_run`; this prints the Elo leaderboard over the games it played
(RAGElo: K=32, start 1000, mean ± sd over shuffled tournaments).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from datetime import UTC, datetime

from ragpulse_core.store_access import open_migrated_store
from rich.console import Console
from rich.table import Table

from ragpulse_scorers.export.sink import start_export
from ragpulse_scorers.judges.pairwise import PairwiseJudge
from ragpulse_scorers.judges.pairwise_run import PairwiseRun, run_pairwise
from ragpulse_scorers.llm.client import shared_client
from ragpulse_scorers.metrics.elo import Standing, elo_leaderboard
from ragpulse_scorers.settings import ScorersSettings

console = Console()


def run(args: argparse.Namespace) -> int:
    if args.limit < 1 or args.tournaments < 1:
        raise ValueError("--limit and --tournaments must be at least 1")
    settings = ScorersSettings.load(args.config, store={"dsn": args.dsn})
    if not settings.judge.configured:
        console.print("[red]pairwise needs an LLM judge:[/red] set OPENAI_BASE_URL and/or OPENAI_API_KEY")
        return 2
    store = open_migrated_store(settings)
    if store is None:
        return 1
    export = start_export(settings.export)
    try:
        judge = PairwiseJudge(shared_client(settings.judge, store))
        played = run_pairwise(store, judge, args.variants, datetime.now(UTC) - args.since, args.limit)
    finally:
        store.close()
        if export is not None:
            export.shutdown()
    if not played.games and not played.failed:
        console.print(
            "no question in the window was answered by two variants and not judged yet; nothing to compare"
        )
        return 0
    print_leaderboard(elo_leaderboard([g.game for g in played.games], args.tournaments, args.seed), played)
    return 1 if played.failed or played.stopped else 0


def print_leaderboard(board: Sequence[Standing], played: PairwiseRun) -> None:
    table = Table(title=f"Elo leaderboard ({len(played.games)} games, judged in both orders)")
    for column in ("rank", "variant", "Elo", "games", "wins", "ties", "losses"):
        table.add_column(column, justify="left" if column == "variant" else "right")
    for rank, standing in enumerate(board, 1):
        table.add_row(
            str(rank), standing.player, f"{standing.mean:.0f} ± {standing.sd:.0f}", str(standing.games),
            str(standing.wins), str(standing.ties), str(standing.losses),
        )  # fmt: skip
    console.print(table)
    for failure in played.failures:
        console.print(f"[yellow]not judged:[/yellow] {failure}")
    if played.stopped:
        console.print(f"[red]stopped early:[/red] {played.stopped}")
