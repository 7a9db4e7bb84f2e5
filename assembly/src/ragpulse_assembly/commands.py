"""What ``ragpulse assembly preview`` does: read a service's recent traces, print what would be extracted."""

from __future__ import annotations

import argparse

from ragpulse_core.printable import excerpt, shown
from ragpulse_core.store_access import open_for_reading
from rich.console import Console
from rich.table import Table

from ragpulse_assembly.preview import Preview, preview
from ragpulse_assembly.reasons import explain
from ragpulse_assembly.settings import AssemblyPartSettings

console = Console()


def run_preview(args: argparse.Namespace) -> int:
    if args.last < 1:
        raise ValueError("--last must be at least 1")
    settings = AssemblyPartSettings.load(args.config, store={"dsn": args.dsn})
    store = open_for_reading(settings, console)
    if store is None:
        return 1
    try:
        found = preview(store, args.service, tuple(settings.assembly.mappings), args.last, args.since)
    finally:
        store.close()
    print_preview(found, console)
    return 0


def print_preview(found: Preview, out: Console) -> None:
    if not found.traces:
        out.print(f"No traces of service {shown(found.service)!r} from other instrumentations in the window.")
        return
    title = f"{shown(found.service)}: the {len(found.traces)} newest traces"
    table = Table(title=title, title_justify="left")
    table.add_column("trace", no_wrap=True, min_width=16)
    table.add_column("scored?", min_width=12)
    table.add_column("question", ratio=1, overflow="fold")
    table.add_column("documents", ratio=2, overflow="fold")
    table.add_column("answer", ratio=1, overflow="fold")
    for traced in found.traces:
        request = traced.mapped
        if request is None:
            table.add_row(shown(traced.trace_id[:16]), "[yellow]not a request[/yellow]", "", "", "")
            continue
        documents = traced.documents
        listed = " · ".join(f"[{n}] {shown(excerpt(text, 60))}" for n, text in enumerate(documents[:3], 1))
        more = f" (+{len(documents) - 3})" if len(documents) > 3 else ""
        table.add_row(
            shown(traced.trace_id[:16]),
            "yes" if not request.unscorable else f"[yellow]{_label(request.unscorable.value)}[/yellow]",
            shown(excerpt(request.question, 120)),
            f"{len(documents)}: {listed}{more}" if documents else "–",
            shown(excerpt(request.answer, 120)),
        )
    out.print(table)
    mapped = sum(1 for traced in found.traces if traced.mapping is not None)
    out.print(
        f"{found.scorable} of {len(found.traces)} would be scored"
        f" ({found.scorable_by_rules} by the rules alone; {mapped} read through a mapping)."
    )
    for code, count in found.reasons.most_common():
        explanation = explain(code)
        what = f"{explanation.label}: {explanation.hint}" if explanation else code.replace("_", " ")
        out.print(f"  {count} × {shown(what)}", soft_wrap=True)


def _label(code: str) -> str:
    explanation = explain(code)
    return explanation.label if explanation is not None else code
