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

from ragpulse_scorers.labels.lines import BadLine, parse_line
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
        text = stream.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        console.print(f"[red]error:[/red] cannot read {escape(name)}: {escape(str(exc))}", soft_wrap=True)
        return 1
    labels: list[Label] = []
    bad: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            labels.append(_label_of(store, line, author))
        except (BadLine, AmbiguousRequest, LookupError, ValueError) as exc:
            bad.append((number, str(exc)))
    written = write_labels(store, labels)
    for number, reason in bad:
        console.print(f"[red]{escape(name)}:{number}:[/red] {escape(reason)}", soft_wrap=True)
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
