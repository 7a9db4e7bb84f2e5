"""``ragpulse alerts``: the built-in alerts, current and past; ``--evaluate`` runs one evaluation first."""

from __future__ import annotations

import argparse
from datetime import datetime

from ragpulse_core.schema import migrate
from ragpulse_core.store import Store, StoreUnavailable
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragpulse_scorers.alerts import AlertRecord, evaluate_alerts, load_alerts
from ragpulse_scorers.alerts.state import FIRING
from ragpulse_scorers.settings import ScorersSettings

console = Console()



def run(args: argparse.Namespace) -> int:
    settings = ScorersSettings.load(args.config, store={"dsn": args.dsn})
    store = Store(settings.store.dsn, settings.store.database)
    try:
        migrate(store, settings.store.ttl_days)
        if args.evaluate:
            evaluation = evaluate_alerts(store, settings.alerts)
            console.print(
                f"evaluated: {len(evaluation.fired)} fired, {len(evaluation.resolved)} resolved, "
                f"{len(evaluation.firing)} firing"
            )
        records = load_alerts(store, include_resolved=args.all)
    except StoreUnavailable as exc:
        console.print(f"[red]store unavailable:[/red] {exc}")
        return 1
    finally:
        store.close()
    if not records:
        console.print("no alerts firing" if not args.all else "no alerts recorded")
        return 0
    console.print(_table(records))
    return 0


def _when(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S") if value else ""


def _table(records: list[AlertRecord]) -> Table:
    table = Table(title="ragpulse alerts", show_lines=False)
    columns = ("state", "rule", "service", "variant", "scorer", "value", "95% CI", "n", "fired", "resolved")
    for column in columns:
        table.add_column(column, justify="right" if column in ("value", "n") else "left")
    table.add_column("summary", overflow="fold")
    for record in records:
        firing = record.state == FIRING
        interval = f"{record.lower:.3f}–{record.upper:.3f}" if record.upper > record.lower else ""
        summary = escape(record.summary)
        if record.notify_error:
            summary += f" [yellow](notify: {escape(record.notify_error)})[/yellow]"
        table.add_row(
            f"[bold red]{record.state}[/bold red]" if firing else f"[green]{record.state}[/green]",
            record.key.rule,
            escape(record.key.service),
            escape(record.key.variant),
            escape(record.key.scorer),
            f"{record.value:.3f}",
            interval,
            str(record.samples),
            _when(record.fired_at),
            _when(record.resolved_at),
            summary,
        )
    return table
