"""The work of ``ragpulse label``, ``label --next`` and ``labels import`` on a store.

The commands (``ragpulse_dashboards.commands.labels``) run it on the store they open, or, while ``ragpulse
serve`` holds the embedded database, serve's live page runs it on its own store for them: either way the
same lines are printed. Each function prints on ``console`` and returns the command's exit status.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import IO

from ragpulse_core.store import Store
from rich.console import Console
from rich.markup import escape

from ragpulse_scorers.labels.importing import ImportProgress, import_labels
from ragpulse_scorers.labels.store import (
    AmbiguousPrefix,
    AmbiguousRequest,
    Label,
    Source,
    find_request,
    write_labels,
)
from ragpulse_scorers.review.show import UnknownService, print_next

# The requests --next chooses from: those of the last day, like the live page's default window.
NEXT_WINDOW = timedelta(hours=24)


@dataclass(frozen=True)
class LabelOrder:
    """One reviewer's label of one request, as ``ragpulse label`` is given it."""

    trace_id: str
    """The request's trace id, or a prefix of it (8 characters at least)."""
    verdict: str
    author: str
    span_id: str | None = None
    at: datetime | None = None
    note: str = ""


def label_request(store: Store, order: LabelOrder, console: Console) -> int:
    try:
        request = find_request(store, order.trace_id, order.span_id, at=order.at)
    except AmbiguousRequest as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))} (--span, --at)", soft_wrap=True)
        return 1
    except (AmbiguousPrefix, ValueError) as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        return 1
    if request is None:
        span = f" and span id {order.span_id}" if order.span_id else ""
        console.print(
            f"[red]error:[/red] no stored request has trace id {escape(order.trace_id)}{escape(span)}"
        )
        return 1
    label = Label.of(request, order.verdict, author=order.author, source=Source.REVIEWER, note=order.note)
    write_labels(store, [label])
    console.print(
        f"labelled {request.trace_id} (span {request.span_id}, {escape(request.service_name)}) {label.label}"
        f" as {escape(label.author)}",
        soft_wrap=True,
    )
    return 0


def show_next(store: Store, console: Console, *, service: str | None, command: str) -> int:
    """The review queue's head, printed with the command that labels it (0 even when nothing is left; 1 for a
    service with no requests in the window). ``command`` is how the user runs ragpulse."""
    since = datetime.now(UTC) - NEXT_WINDOW
    try:
        print_next(store, console, since=since, service=service, command=command)
    except UnknownService as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        return 1
    return 0


def import_file(store: Store, stream: IO[bytes], name: str, author: str, console: Console) -> int:
    """The labels of the JSON Lines ``stream`` (read from the file ``name``), as ``author`` unless a line
    names its own; bad lines are listed by number and cost only themselves."""
    try:
        progress = import_labels(store, stream, author, lambda progress: _progress_line(console, progress))
    except OSError as exc:
        console.print(f"[red]error:[/red] cannot read {escape(name)}: {escape(str(exc))}", soft_wrap=True)
        return 1
    for number, reason in sorted(progress.refused):
        console.print(f"[red]{escape(name)}:{number}:[/red] {escape(reason)}", soft_wrap=True)
    unlisted = progress.refused_total - len(progress.refused)
    if unlisted:
        console.print(f"… and {unlisted} more lines refused")
    refused = f"; {progress.refused_total} lines refused" if progress.refused_total else ""
    console.print(f"imported {progress.written} labels from {progress.lines} lines{refused}")
    return 1 if progress.refused_total else 0


def _progress_line(console: Console, progress: ImportProgress) -> None:
    """A line after each batch, for a person watching a terminal (not in what serve sends back)."""
    if console.is_terminal and console.file.isatty():
        console.print(
            f"[dim]{progress.lines} lines read, {progress.written} labels written,"
            f" {progress.refused_total} refused[/dim]",
            highlight=False,
        )
