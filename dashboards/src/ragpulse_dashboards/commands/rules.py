"""``ragpulse rules preview [NAME]``: the config's rules applied to stored traffic, read from the store or
through the ``ragpulse serve`` that holds it (with this config's rules, not the running process's)."""

from __future__ import annotations

import argparse

from ragpulse_scorers.rules.preview import rules_document
from rich.console import Console

from ragpulse_dashboards.commands.read_query import ReadQuery
from ragpulse_dashboards.commands.serve_reads import read
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_dashboards.since import parse_since

console = Console()
PREVIEW = "rules-preview"


def run(args: argparse.Namespace) -> int:
    parse_since(args.since)
    settings = DashboardsSettings.load(args.config, store={"dsn": args.dsn})
    query = ReadQuery(PREVIEW, since=args.since, rule=args.name or "", rules=rules_document(settings))
    return read(settings, query, console).code
