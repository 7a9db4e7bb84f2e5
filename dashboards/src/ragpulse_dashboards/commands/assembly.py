"""``ragpulse assembly preview``: what the rules and a service's mapping make of its recent traces, read from
the store or through the ``ragpulse serve`` that holds it."""

from __future__ import annotations

import argparse

from rich.console import Console

from ragpulse_dashboards.commands.serve_reads import read
from ragpulse_dashboards.commands.views import MAX_LIMIT, ReadQuery
from ragpulse_dashboards.report.collect import parse_since
from ragpulse_dashboards.settings import DashboardsSettings

console = Console()
PREVIEW = "assembly-preview"


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.last <= MAX_LIMIT:
        raise ValueError(f"--last must lie in [1, {MAX_LIMIT}]")
    parse_since(args.since)
    settings = DashboardsSettings.load(args.config, store={"dsn": args.dsn})
    query = ReadQuery(PREVIEW, since=args.since, service=args.service, limit=args.last)
    return read(settings, query, console).code

