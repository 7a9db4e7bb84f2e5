"""``ragpulse report``: the report over data already in the store, in the terminal and optionally as HTML."""

from __future__ import annotations

import argparse
from pathlib import Path

from ragpulse_core.store import Store, StoreUnavailable, describe_dsn
from rich.console import Console

from ragpulse_scorers.report import collect_report, render_html, render_terminal
from ragpulse_scorers.report.data import parse_since
from ragpulse_scorers.settings import ScorersSettings

console = Console()


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "report",
        help="print the quality report (and write it as HTML)",
        description="Hallucination rate per variant with 95%% intervals, support, utilization and the other "
        "metrics, latency per step, the worst requests, judge spend and scoring lag.",
    )
    parser.add_argument("--dsn", help="store DSN (default: the configured one, ./.ragpulse/chdb)")
    parser.add_argument("--html", type=Path, help="also write a self-contained HTML report to this file")
    parser.add_argument("--since", default="24h", help="window start: 24h, 90m, 7d or an ISO timestamp")
    parser.add_argument("--service", help="only this service")
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
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
