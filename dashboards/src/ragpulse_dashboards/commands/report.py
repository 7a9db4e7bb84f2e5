"""``ragpulse report``: the report over data already in the store, in the terminal and optionally as HTML.

It only reads: an embedded path that does not exist is reported, not created.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ragpulse_core.cli import invoked_as
from ragpulse_core.store import StoreUnavailable, describe_dsn
from ragpulse_core.store_access import open_for_reading
from rich.console import Console
from rich.markup import escape

from ragpulse_dashboards.report import render_html, render_terminal
from ragpulse_dashboards.report.collect import collect_alerting_report, parse_since
from ragpulse_dashboards.settings import DashboardsSettings

console = Console()


def run(args: argparse.Namespace) -> int:
    since = parse_since(args.since)
    settings = DashboardsSettings.load(args.config, store={"dsn": args.dsn})
    store = open_for_reading(settings, console)
    if store is None:
        return 1
    try:
        data = collect_alerting_report(store, since, args.service, settings.alerts)
    except StoreUnavailable as exc:
        reason = str(exc).strip().splitlines()[0]
        missing = "UNKNOWN_TABLE" in str(exc) or "UNKNOWN_DATABASE" in str(exc)
        console.print(
            f"[red]cannot read the ragpulse tables at {escape(describe_dsn(settings.store.dsn))}[/red]:"
            f" {escape(reason)}"
            + (f"\nRun `{invoked_as()} migrate` (or `demo`) first, or pass --dsn." if missing else ""),
            soft_wrap=True,
        )
        return 1
    finally:
        store.close()
    render_terminal(data, console)
    if args.html:
        write_html(args.html, render_html(data))
        console.print(f"HTML report: {args.html.resolve()}")
    return 0


def write_html(path: Path, page: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
