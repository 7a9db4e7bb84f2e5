"""``ragpulse score``: score recorded requests, one tick (``--once``, for cron and tests) or on a schedule."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from datetime import timedelta

from ragpulse_core.stop_signals import StopSignals
from ragpulse_core.store_access import open_migrated_store
from rich.console import Console
from rich.table import Table

from ragpulse_scorers.cli_arguments import scorer_flags
from ragpulse_scorers.commands.checks import check_scoring
from ragpulse_scorers.gc_tuning import fewer_collections
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import TickReport, run_tick
from ragpulse_scorers.rules.book import rule_book
from ragpulse_scorers.settings import ScorersSettings

console = Console()

BLAS_THREADS = "OPENBLAS_NUM_THREADS"


def run(args: argparse.Namespace) -> int:
    _one_blas_thread()
    with fewer_collections():
        return _run(args)


def _one_blas_thread() -> None:
    """chDB imports pyarrow and with it numpy, whose OpenBLAS starts a thread per core as it loads: 40-70 ms
    of CPU at every ``score`` start (a cron tick's start-up), in a process that does no linear algebra. numpy
    is loaded here with one BLAS thread, unless the user chose a count or something loaded it already, and the
    environment is left as it was, so no process this one starts inherits the setting."""
    if "numpy" in sys.modules or BLAS_THREADS in os.environ:
        return
    os.environ[BLAS_THREADS] = "1"
    try:
        with contextlib.suppress(ImportError):  # a server store's process may not load numpy at all
            importlib.import_module("numpy")
    finally:
        del os.environ[BLAS_THREADS]


def _run(args: argparse.Namespace) -> int:
    settings = ScorersSettings.load(args.config, store={"dsn": args.dsn}, scorer=scorer_flags(args))
    if args.rule is not None:
        return _backfill(settings, args.rule, args.since)
    check_scoring(settings)
    if args.once:
        return _score_once(settings)
    # The scheduler (apscheduler) and the score export (the OpenTelemetry SDK) are imported only where they
    # run: a cron tick (``--once``) without an export loads neither (160 fewer modules at every tick).
    from ragpulse_scorers.pipeline.scheduler import ScoringSchedule, quiet_scheduler_logs

    with StopSignals() as signals:
        store = open_migrated_store(settings)
        if store is None:
            return 1
        try:
            quiet_scheduler_logs(args.verbose)
            schedule = ScoringSchedule(settings, store)
            schedule.start()
            console.print(
                f"scoring with {', '.join(rule_book(settings).judges)} every {settings.scorer.interval_s:g} s"
                f" (shard {settings.scorer.shard}); Ctrl-C stops"
            )
            try:
                signals.wait()
            finally:
                schedule.stop()
            return 0
        finally:
            store.close()


def _backfill(settings: ScorersSettings, name: str, since: timedelta) -> int:
    from ragpulse_scorers.commands.backfill import backfill
    from ragpulse_scorers.pipeline.backfill import find_rule
    from ragpulse_scorers.registry import check_scorers

    rule = find_rule(settings, name)
    check_scorers(rule.judges, settings)
    return backfill(settings, rule, since)


def _score_once(settings: ScorersSettings) -> int:
    store = open_migrated_store(settings)
    if store is None:
        return 1
    export = None
    if settings.export.enabled:
        from ragpulse_scorers.export.sink import start_export

        export = start_export(settings.export)
    try:
        report = run_tick(settings, store)
    finally:
        store.close()
        if export is not None:
            export.shutdown()
    print_report(report)
    return 1 if report.errors else 0


def print_report(report: TickReport) -> None:
    table = Table(title="scoring tick")
    table.add_column("scorer")
    # Outcomes no scorer met this tick are left out, so the table fits 80 columns.
    shown = [outcome for outcome in Outcome if any(counts[outcome] for counts in report.counts.values())]
    for outcome in shown or [Outcome.SCORED]:
        table.add_column(outcome.value.replace("_", " "), justify="right")
    for scorer, counts in report.counts.items():
        table.add_row(scorer, *(str(counts[outcome]) for outcome in shown or [Outcome.SCORED]))
    console.print(table)
    for scorer, error in report.errors.items():
        console.print(f"[red]{scorer} stopped:[/red] {error}")
