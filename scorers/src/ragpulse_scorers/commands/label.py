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

from ragpulse_scorers.labels.lines import BadLine, parse_line
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
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        console.print(f"[red]error:[/red] cannot read {escape(str(path))}: {escape(str(exc))}")
        return 1
    store = _open(args)
    if store is None:
        return 1
    author = args.author or getpass.getuser()
    labels: list[Label] = []
    bad: list[tuple[int, str]] = []
    try:
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                labels.append(_label_of(store, line, author))
            except (BadLine, AmbiguousRequest, LookupError, ValueError) as exc:
                bad.append((number, str(exc)))
        written = write_labels(store, labels)
    finally:
        store.close()
    for number, reason in bad:
        console.print(f"[red]{escape(str(path))}:{number}:[/red] {escape(reason)}", soft_wrap=True)
    console.print(f"imported {written} labels" + (f"; {len(bad)} lines refused" if bad else ""))
    return 1 if bad else 0


def _label_of(store: Store, text: str, author: str) -> Label:
    line = parse_line(text)
    request = find_request(store, line.trace_id, line.span_id, at=line.request_time)
    if request is None:
        raise LookupError(f"no stored request has trace id {line.trace_id}")
    return Label.of(
        request, line.label, author=line.author or author, source=Source.IMPORT, sentences=line.sentences,
        score=line.score, note=line.note,
    )  # fmt: skip


def _open(args: argparse.Namespace) -> Store | None:
    return open_migrated_store(ScorersSettings.load(args.config, store={"dsn": args.dsn}))
