"""``ragpulse assembly preview``: what the rules and a service's mapping make of its recent traces, read from
the store or through the ``ragpulse serve`` that holds it; ``ragpulse assembly templates``: the prompt
templates learnt from each service's traffic, and the mapping that pins one; ``ragpulse assembly rerun``:
those traces assembled again, superseding what was judged on requests that changed."""

from __future__ import annotations

import argparse
from datetime import timedelta

from ragpulse_assembly.readings import template_readers
from ragpulse_core.store_access import open_migrated_store
from ragpulse_scorers.pipeline.reassembly import reassemble
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from ragpulse_dashboards.commands.read_query import MAX_LIMIT, ReadQuery
from ragpulse_dashboards.commands.serve_reads import read
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_dashboards.since import parse_since

console = Console()
PREVIEW = "assembly-preview"
TEMPLATES = "assembly-templates"


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.last <= MAX_LIMIT:
        raise ValueError(f"--last must lie in [1, {MAX_LIMIT}]")
    parse_since(args.since)
    settings = DashboardsSettings.load(args.config, store={"dsn": args.dsn})
    query = ReadQuery(PREVIEW, since=args.since, service=args.service, limit=args.last)
    return read(settings, query, console).code


def run_templates(args: argparse.Namespace) -> int:
    parse_since(args.since)
    settings = DashboardsSettings.load(args.config, store={"dsn": args.dsn})
    query = ReadQuery(TEMPLATES, since=args.since, service=args.service or "", pin=args.pin or "")
    return read(settings, query, console).code


def run_rerun(args: argparse.Namespace) -> int:
    settings = DashboardsSettings.load(args.config, store={"dsn": args.dsn})
    store = open_migrated_store(settings)
    if store is None:
        return 1
    try:
        with Progress(
            TextColumn("reassembling traces"), BarColumn(), MofNCompleteColumn(), console=console
        ) as bar:
            task = bar.add_task("reassembling", total=None)
            readers = template_readers(settings.assembly.templates, store)
            done = reassemble(
                store,
                settings.assembly.mappings,
                args.since,
                timedelta(seconds=settings.scorer.settle_delay_s),
                service=args.service,
                batch_size=settings.assembly.batch_size,
                progress=lambda finished, total: bar.update(task, completed=finished, total=total),
                readers=readers,
            )
    finally:
        store.close()
    console.print(
        f"{done.traces} traces read again: {done.changed} requests changed (what was judged on them no longer"
        f" counts; they are judged again at the next tick), {done.added} new"
    )
    return 0
