"""``ragpulse score --rule NAME --since 7d``: one rule over past requests, with a progress bar."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from ragpulse_core.stop_signals import POLL_S, StopSignals
from ragpulse_core.store_access import open_migrated_store
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.backfill import Backfill, BackfillResult, requests_in_window
from ragpulse_scorers.rules.model import Rule
from ragpulse_scorers.settings import ScorersSettings

console = Console()


def backfill(settings: ScorersSettings, rule: Rule, since: timedelta) -> int:
    with StopSignals() as signals:
        store = open_migrated_store(settings)
        if store is None:
            return 1
        try:
            stopping = threading.Event()
            job = Backfill(settings, store, rule, since, stopping=stopping)
            if since > timedelta(hours=settings.scorer.lookback_hours):
                console.print(
                    f"backfilling rule {rule.name} over requests from {_window(since)} to"
                    f" {_window(job.newest_age)} ago (newer ones are the scheduler's: scorer.lookback_hours)"
                )
            else:
                console.print(
                    f"backfilling rule {rule.name} over the requests of the last {_window(since)}, all within"
                    " the scheduler's lookback: a running scheduler applies the rule to them too, and no"
                    " request is judged twice"
                )
            total = requests_in_window(store, rule, since, job.newest_age, datetime.now(UTC))
            results: list[BackfillResult] = []
            columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn())
            with Progress(*columns, TimeElapsedColumn(), console=console) as progress:
                tasks = {
                    judge: progress.add_task(f"{rule.name}: {judge}", total=total) for judge in rule.judges
                }

                def advance(scorer: str, outcome: Outcome) -> None:
                    if scorer in tasks and outcome not in (Outcome.THROTTLED, Outcome.DEFERRED):
                        progress.advance(tasks[scorer])

                worker = threading.Thread(target=lambda: results.append(job.run(advance)), name="backfill")
                worker.start()
                while worker.is_alive():
                    if signals.requested:
                        stopping.set()
                    worker.join(POLL_S)
            return _summary(rule, results[0]) if results else 1
        finally:
            store.close()


def _window(since: timedelta) -> str:
    hours = since.total_seconds() / 3600
    if hours < 1:
        return f"{since.total_seconds() / 60:g} min"
    return f"{hours / 24:g} d" if hours >= 48 else f"{hours:g} h"


def _summary(rule: Rule, result: BackfillResult) -> int:
    table = Table(title=f"backfill of rule {rule.name}")
    table.add_column("judge")
    shown = [o for o in Outcome if any(counts.get(o) for counts in result.counts.values())] or [
        Outcome.SCORED
    ]
    for outcome in shown:
        table.add_column(outcome.value.replace("_", " "), justify="right")
    for judge, counts in result.counts.items():
        table.add_row(judge, *(str(counts.get(outcome, 0)) for outcome in shown))
    console.print(table)
    resumed = (
        f", starting after the slices an earlier run finished ({result.resumed_from:%Y-%m-%d %H:%M} UTC)"
        if result.resumed_from
        else ""
    )
    console.print(f"{result.slices} time slices walked{resumed}")
    for judge, error in result.errors.items():
        console.print(f"[red]{judge} stopped:[/red] {error}")
    if result.stopped:
        console.print("stopped: run the same command again to resume (nothing is judged twice)")
    elif result.waiting:
        console.print(
            f"{result.waiting} requests wait for a budget, a rate limit or the judge:"
            " run the same command again later to resume"
        )
    return 1 if result.errors else 0
