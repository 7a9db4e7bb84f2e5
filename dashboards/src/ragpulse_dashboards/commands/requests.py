"""``ragpulse requests``: the window's newest requests, a short block each (its verdict, or the reason no
judge may score it, then its question and answer), and a count per reason. It only reads: while ``ragpulse
serve`` holds the embedded database, it reads through serve's live page."""

from __future__ import annotations

import argparse

from rich.console import Console

from ragpulse_dashboards.commands.read_query import ReadQuery
from ragpulse_dashboards.commands.serve_reads import read
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_dashboards.since import parse_since

console = Console()


def run(args: argparse.Namespace) -> int:
    parse_since(args.since)
    settings = DashboardsSettings.load(args.config, store={"dsn": args.dsn})
    query = ReadQuery("requests", args.since, args.service or "", args.unscored, max(args.limit, 1))
    return read(settings, query, console).code
