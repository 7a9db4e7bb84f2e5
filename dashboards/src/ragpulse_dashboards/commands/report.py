"""``ragpulse report``: the report over data already in the store, in the terminal and optionally as HTML.

It only reads: an embedded path that does not exist is reported, not created; while ``ragpulse serve`` holds
the embedded database, it reads through serve's live page.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from ragpulse_dashboards.commands.read_query import ReadQuery
from ragpulse_dashboards.commands.serve_reads import read
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_dashboards.since import parse_since

console = Console()


def run(args: argparse.Namespace) -> int:
    parse_since(args.since)
    settings = DashboardsSettings.load(args.config, store={"dsn": args.dsn})
    query = ReadQuery("report", args.since, args.service or "", html=args.html is not None)
    shown = read(settings, query, console)
    if shown.code == 0 and args.html and shown.html is not None:
        write_html(args.html, shown.html)
        console.print(f"HTML report: {args.html.resolve()}", soft_wrap=True)  # one piece to copy
    return shown.code


def write_html(path: Path, page: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
