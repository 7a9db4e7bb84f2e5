"""``ragpulse label`` and ``ragpulse labels import``: people's labels from the command line and from files."""

from __future__ import annotations

import argparse
import getpass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ragpulse_core.cli import invoked_as
from ragpulse_core.store import Store
from ragpulse_core.store_access import open_migrated_store
from rich.console import Console
from rich.markup import escape

from ragpulse_scorers.labels.importing import ImportProgress, import_labels
from ragpulse_scorers.labels.store import (
    AmbiguousRequest,
    Label,
    Source,
    find_request,
    write_labels,
)
from ragpulse_scorers.review.show import print_next
from ragpulse_scorers.settings import ScorersSettings

console = Console()
# The requests --next chooses from: those of the last day, like the live page's default window.
NEXT_WINDOW = timedelta(hours=24)


def run(args: argparse.Namespace) -> int:
    if args.next:
        return _next(args)
    if not args.trace_id or args.verdict is None:
        console.print("[red]error:[/red] give a trace id and hallucinated or grounded")
        return 2
    store = _open(args)
    if store is None:
        return 1
    try:
        try:
            request = find_request(store, args.trace_id, args.span, at=args.at)
        except AmbiguousRequest as exc:
            console.print(f"[red]error:[/red] {escape(str(exc))} (--span, --at)", soft_wrap=True)
            return 1
        if request is None:
            console.print(f"[red]error:[/red] no stored request has trace id {escape(args.trace_id)}"
                          + (f" and span id {escape(args.span)}" if args.span else ""))  # fmt: skip
            return 1
        label = Label.of(
            request, args.verdict, author=args.author or getpass.getuser(), source=Source.REVIEWER,
            note=args.note,
        )  # fmt: skip
        write_labels(store, [label])
    finally:
        store.close()
    console.print(
        f"labelled {request.trace_id} (span {request.span_id}, {request.service_name}) {label.label}"
        f" as {escape(label.author)}"
    )
    return 0


def _next(args: argparse.Namespace) -> int:
    """The review queue's head, printed with the command that labels it (0 even when nothing is left)."""
    if args.trace_id or args.verdict is not None:
        console.print("[red]error:[/red] --next takes no trace id or label: it says which request to label")
        return 2
    store = _open(args)
    if store is None:
        return 1
    try:
        since = datetime.now(UTC) - NEXT_WINDOW
        print_next(store, console, since=since, service=args.service, command=invoked_as())
    finally:
        store.close()
    return 0


def run_import(args: argparse.Namespace) -> int:
    path: Path = args.file
    try:
        stream = path.open("rb")
    except OSError as exc:
        console.print(f"[red]error:[/red] cannot read {escape(str(path))}: {escape(str(exc))}")
        return 1
    with stream:
        store = _open(args)
        if store is None:
            return 1
        try:
            progress = import_labels(store, stream, args.author or getpass.getuser(), _progress_line)
        finally:
            store.close()
    for number, reason in progress.refused:
        console.print(f"[red]{escape(str(path))}:{number}:[/red] {escape(reason)}", soft_wrap=True)
    unlisted = progress.refused_total - len(progress.refused)
    if unlisted:
        console.print(f"… and {unlisted} more lines refused")
    refused = f"; {progress.refused_total} lines refused" if progress.refused_total else ""
    console.print(f"imported {progress.written} labels from {progress.lines} lines{refused}")
    return 1 if progress.refused_total else 0


def _progress_line(progress: ImportProgress) -> None:
    if console.is_terminal:
        console.print(
            f"[dim]{progress.lines} lines read, {progress.written} labels written,"
            f" {progress.refused_total} refused[/dim]",
            highlight=False,
        )


def _open(args: argparse.Namespace) -> Store | None:
    return open_migrated_store(ScorersSettings.load(args.config, store={"dsn": args.dsn}))
