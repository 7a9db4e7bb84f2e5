"""``ragpulse alerts``: the built-in alerts, current and past; ``--evaluate`` runs one evaluation first.

Listing only reads: it creates no directory and no table, and while ``ragpulse serve`` holds the embedded
database it reads through serve's live page. Each alert is a short block (its labels, the value and interval
that fired it, when, and its summary) that stays readable in an 80-column terminal.
"""

from __future__ import annotations

import argparse

from ragpulse_core.cli import print_error, store_hint
from ragpulse_core.schema import migrate
from ragpulse_core.store import Store, StoreMissing, StoreUnavailable, embedded_path
from rich.console import Console
from rich.markup import escape

from ragpulse_dashboards.alerts import evaluate_alerts
from ragpulse_dashboards.commands.read_query import ReadQuery
from ragpulse_dashboards.commands.serve_reads import read
from ragpulse_dashboards.commands.views import listing, print_alerts
from ragpulse_dashboards.settings import DashboardsSettings

__all__ = ["listing", "run"]

console = Console()
errors = Console(stderr=True)


def run(args: argparse.Namespace) -> int:
    settings = DashboardsSettings.load(args.config, store={"dsn": args.dsn})
    if args.evaluate:
        return _evaluate_and_list(settings, args.all)
    path = embedded_path(settings.store.dsn)
    if path is not None and not path.exists():
        console.print(f"no alerts recorded: no ragpulse database at {escape(str(path))}", soft_wrap=True)
        return 0
    return read(settings, ReadQuery("alerts", include_resolved=args.all), console, errors).code


def _evaluate_and_list(settings: DashboardsSettings, include_resolved: bool) -> int:
    try:
        store = Store(settings.store.dsn, settings.store.database)
    except StoreMissing as exc:
        console.print(f"no alerts recorded: {escape(str(exc))}", soft_wrap=True)
        return 0
    except StoreUnavailable as exc:
        return print_error(str(exc), hint=store_hint(exc))
    try:
        migrate(store, settings.store.ttl_days)
        evaluation = evaluate_alerts(store, settings.alerts, sample_rate=settings.scorer.sample_rate)
        console.print(
            f"evaluated: {len(evaluation.fired)} fired, {len(evaluation.resolved)} resolved, "
            f"{len(evaluation.firing)} firing"
        )
        print_alerts(store, console, include_resolved=include_resolved)
    except StoreUnavailable as exc:
        return print_error(str(exc), hint=store_hint(exc))
    finally:
        store.close()
    return 0
