"""``ragpulse requests``: the window's newest requests, one line each, with the reason for those no judge may
score and a count per reason. It only reads: a store ``ragpulse serve`` holds is reported, not waited for."""

from __future__ import annotations

import argparse
from collections import Counter

from ragpulse_core.printable import excerpt, shown
from ragpulse_core.store import StoreUnavailable
from ragpulse_core.store_access import open_for_reading
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragpulse_dashboards.report import queries
from ragpulse_dashboards.report.collect import parse_since
from ragpulse_dashboards.report.format import unscored_hint, unscored_label
from ragpulse_dashboards.report.model import RequestLine
from ragpulse_dashboards.settings import DashboardsSettings

console = Console()


def run(args: argparse.Namespace) -> int:
    since = parse_since(args.since)
    settings = DashboardsSettings.load(args.config, store={"dsn": args.dsn})
    store = open_for_reading(settings, console)
    if store is None:
        return 1
    try:
        params = {"since_ms": int(since.timestamp() * 1000), "service": args.service or ""}
        lines = queries.request_lines(store, params, args.unscored, max(args.limit, 1))
    except StoreUnavailable as exc:
        console.print(f"[red]cannot read the requests:[/red] {escape(str(exc).strip().splitlines()[0])}")
        return 1
    finally:
        store.close()
    console.print(_table(lines, args.unscored, f"{since:%Y-%m-%d %H:%M} UTC"))
    _print_reasons(lines)
    return 0


def _table(lines: list[RequestLine], unscored_only: bool, since: str) -> Table | str:
    if not lines:
        kind = "unscorable requests" if unscored_only else "requests"
        return f"No {kind} since {since}."
    title = f"{'Unscorable requests' if unscored_only else 'Requests'} since {since}, newest first"
    table = Table(title=title, title_justify="left")
    # A trace id and a reason must stay whole on a narrow terminal: the question gives way first.
    table.add_column("time (UTC)", no_wrap=True, overflow="crop")
    table.add_column("trace", no_wrap=True, min_width=16)
    table.add_column("service · source · context from", overflow="fold")
    table.add_column("scorable?", no_wrap=True, min_width=19)
    table.add_column("question", ratio=1, overflow="ellipsis", no_wrap=True)
    for line in lines:
        scorable = f"[yellow]{escape(unscored_label(line.unscorable))}[/yellow]" if line.unscorable else "yes"
        table.add_row(
            f"{line.timestamp:%H:%M:%S}",
            shown(line.trace_id[:16]),
            shown(f"{line.service_name} · {line.source} · {line.context_source or '–'}"),
            scorable,
            escape(excerpt(line.question, 100)) if line.question else "[dim](none recorded)[/dim]",
        )
    return table


def _print_reasons(lines: list[RequestLine]) -> None:
    counts = Counter(line.unscorable for line in lines if line.unscorable)
    for code, count in counts.most_common():
        console.print(
            f"[yellow]{count} not scored: {escape(unscored_label(code))}[/yellow]"
            f" · {escape(unscored_hint(code))}",
            soft_wrap=True,
        )
