"""``ragpulse alerts``: the built-in alerts, current and past; ``--evaluate`` runs one evaluation first.

Listing only reads: it creates no directory and no table. Each alert is a short block (its labels, the
value and interval that fired it, when, and its summary) that stays readable in an 80-column terminal.
"""

from __future__ import annotations

import argparse
from datetime import datetime

from ragpulse_core.cli import print_error, store_hint
from ragpulse_core.printable import printable, shown
from ragpulse_core.schema import migrate
from ragpulse_core.store import Store, StoreMissing, StoreUnavailable
from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table

from ragpulse_dashboards.alerts import AlertRecord, evaluate_alerts, load_alerts
from ragpulse_dashboards.alerts.rules import SCORING_STALLED
from ragpulse_dashboards.alerts.state import FIRING
from ragpulse_dashboards.settings import DashboardsSettings

console = Console()


def run(args: argparse.Namespace) -> int:
    settings = DashboardsSettings.load(args.config, store={"dsn": args.dsn})
    try:
        store = Store(settings.store.dsn, settings.store.database, read_only=not args.evaluate)
    except StoreMissing as exc:
        console.print(f"no alerts recorded: {escape(str(exc))}", soft_wrap=True)
        return 0
    try:
        if args.evaluate:
            migrate(store, settings.store.ttl_days)
            evaluation = evaluate_alerts(store, settings.alerts, sample_rate=settings.scorer.sample_rate)
            console.print(
                f"evaluated: {len(evaluation.fired)} fired, {len(evaluation.resolved)} resolved, "
                f"{len(evaluation.firing)} firing"
            )
        elif not store.query(f"EXISTS TABLE {store.table('ragpulse_alerts')}")[0][0]:
            console.print("no alerts recorded (no alert has been evaluated on this store yet)")
            return 0
        records = load_alerts(store, include_resolved=args.all)
    except StoreUnavailable as exc:
        return print_error(str(exc), hint=store_hint(exc))
    finally:
        store.close()
    if not records:
        console.print("no alerts firing" if not args.all else "no alerts recorded")
        return 0
    console.print(listing(records))
    return 0


def listing(records: list[AlertRecord]) -> Group:
    firing = sum(record.state == FIRING for record in records)
    title = f"[bold]ragpulse alerts[/bold]: {firing} firing, {len(records) - firing} resolved (times UTC)"
    blocks = Table.grid(padding=(0, 1))
    blocks.add_column(width=8, no_wrap=True)
    blocks.add_column(overflow="fold")
    for index, record in enumerate(records):
        if index:
            blocks.add_row("", "")
        blocks.add_row(*_block(record))
    return Group(title, blocks)


def _block(record: AlertRecord) -> tuple[str, str]:
    key = record.key
    labels = " · ".join(printable(part) for part in (key.rule, key.service, key.variant, key.scorer) if part)
    if key.rule == SCORING_STALLED:
        value = f"{record.value:.0f} scores for {record.samples} requests"
    else:
        interval = f" [{record.lower:.3f}–{record.upper:.3f}]" if record.upper > record.lower else ""
        value = f"{record.value:.3f}{interval}, n={record.samples}, threshold {record.threshold:.3f}"
    when = f"fired {_when(record.fired_at)}"
    if record.resolved_at is not None:
        when += f", resolved {_when(record.resolved_at)}"
    lines = [f"[bold]{escape(labels)}[/bold]", escape(value), when, shown(record.summary)]
    if record.notify_error:
        lines.append(f"[yellow]notify failed: {shown(record.notify_error)}[/yellow]")
    state = (
        f"[bold red]{record.state}[/bold red]" if record.state == FIRING else f"[green]{record.state}[/green]"
    )
    return state, "\n".join(lines)


def _when(value: datetime) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S")
