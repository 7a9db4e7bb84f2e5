"""``ragpulse report``: the report over data already in the store, in the terminal and optionally as HTML."""

from __future__ import annotations

import argparse
from pathlib import Path

from ragpulse_core.store import Store, StoreUnavailable, describe_dsn
from rich.console import Console

from ragpulse_scorers.report import collect_report, render_html, render_terminal
from ragpulse_scorers.report.collect import parse_since
from ragpulse_scorers.settings import ScorersSettings

console = Console()



def run(args: argparse.Namespace) -> int:
    since = parse_since(args.since)
    settings = ScorersSettings.load(args.config, store={"dsn": args.dsn})
    store = Store(settings.store.dsn, settings.store.database)
    try:
        data = collect_report(store, since, args.service)
    except StoreUnavailable as exc:
        console.print(
            f"[red]cannot read the ragpulse tables at {describe_dsn(settings.store.dsn)}[/red]: {exc}\n"
            "Run `ragpulse migrate` (or `ragpulse demo`) first, or pass --dsn."
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
