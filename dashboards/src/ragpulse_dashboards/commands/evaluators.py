"""``ragpulse evaluators list`` and ``ragpulse evaluators test NAME``: the config's own evaluators, and one of
them tried on stored requests (``--request TRACE_ID`` or ``--last N``). Requests are read from the store or
through the ``ragpulse serve`` that holds it; the evaluator always runs here, from this config."""

from __future__ import annotations

import argparse
import io

from ragpulse_scorers.evaluators.scorers import build_evaluator
from ragpulse_scorers.evaluators.trials import print_trials, run_trial, stored_from_json
from ragpulse_scorers.registry import ENDPOINT_HINT, is_llm_judged
from ragpulse_scorers.rules.book import rule_book
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragpulse_dashboards.commands.read_query import ReadQuery
from ragpulse_dashboards.commands.serve_reads import read
from ragpulse_dashboards.commands.views import reads_document
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_dashboards.since import parse_since

console = Console()
VIEW = "evaluator-requests"


def run_list(args: argparse.Namespace) -> int:
    settings = DashboardsSettings.load(args.config)
    definitions = settings.evaluators.definitions()
    if not definitions:
        console.print(
            "no evaluators: define one as [evaluators.<kind>.<name>] (ragpulse.example.toml has some)"
        )
        return 0
    book = rule_book(settings)
    table = Table(title="evaluators of this config")
    for column in ("name", "kind", "version", "verdict", "run by"):
        table.add_column(column)
    for name, definition in sorted(definitions.items()):
        rules = [rule.name for rule in book.rules_for(name)] if name in book.judges else []
        verdict = (
            "pass/fail" + (" (hallucination)" if definition.measures else "")
            if definition.gives_verdict
            else "–"
        )
        table.add_row(
            escape(name),
            definition.kind,
            definition.version(),
            verdict,
            escape(", ".join(rules)) or "no rule",
        )
    console.print(table)
    return 0


def run_test(args: argparse.Namespace) -> int:
    parse_since(args.since)
    settings = DashboardsSettings.load(args.config, store={"dsn": args.dsn})
    definition = settings.evaluators.definitions().get(args.name)
    if definition is None:
        known = ", ".join(settings.evaluators.names()) or "none defined"
        console.print(
            f"[red]error:[/red] no evaluator {escape(args.name)!r} in the config"
            f" (evaluators: {escape(known)})"
        )
        return 1
    if is_llm_judged(args.name, settings) and not settings.judge.configured:
        console.print(
            f"[red]error:[/red] {escape(args.name)} is an llm evaluator and needs a judge: {ENDPOINT_HINT}"
        )
        return 1
    evaluator = build_evaluator(args.name, definition, settings, None)
    try:
        span, resource = evaluator.attributes
        query = ReadQuery(
            VIEW,
            since=args.since,
            service=args.service or "",
            limit=1 if args.request else args.last,
            trace=args.request or "",
            reads=reads_document(span, resource, evaluator.requires),
        )
        buffer = io.StringIO()
        shown = read(settings, query, Console(file=buffer, width=console.width), errors=console)
        if shown.code != 0:
            console.print(buffer.getvalue(), end="", markup=False, highlight=False)
            return shown.code
        found = stored_from_json(buffer.getvalue())
        if not found:
            which = f"request {args.request}" if args.request else "request"
            console.print(
                f"no stored {escape(which)} since {escape(args.since)}: widen --since, or check the trace id"
            )
            return 1
        print_trials(evaluator, [run_trial(evaluator, stored) for stored in found], console)
        return 0
    finally:
        evaluator.close()
