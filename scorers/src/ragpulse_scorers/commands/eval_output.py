"""What every ``ragpulse eval`` run shows: a progress bar while it judges, and under its table the items
without a verdict and why."""

from __future__ import annotations

import signal
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ragpulse_scorers.evaluation.items import IsolatedJudging

SHOWN_REASONS = 3
INTERRUPTED_EXIT = 130
"""The exit status of a run stopped by Ctrl-C (128 + SIGINT), after it printed its figures so far."""


@contextmanager
def judging_progress(label: str, total: int, judging: IsolatedJudging) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr (drawn on a terminal only) and the ``advance(n)`` that moves it.

    Meanwhile the first Ctrl-C stops ``judging`` without raising anywhere: the items being judged finish and
    the figures of those judged are printed. A second Ctrl-C drops the items being judged too."""
    progress = Progress(
        TextColumn(escape(label)),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with progress, _stopping_on_ctrl_c(judging, progress.console):
        task = progress.add_task("judge", total=total)
        yield lambda n: progress.advance(task, n)


@contextmanager
def _stopping_on_ctrl_c(judging: IsolatedJudging, console: Console) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def first_ctrl_c(signum: int, frame: FrameType | None) -> None:
        judging.interrupt()
        signal.signal(signal.SIGINT, previous)
        console.print("[yellow]stopping: the items being judged finish (Ctrl-C again drops them)[/yellow]")

    previous = signal.signal(signal.SIGINT, first_ctrl_c)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def print_not_judged(items: Sequence[dict[str, Any]], stopped: str = "") -> None:
    """Given every item (as in ``--json``), one line per distinct reason an item was not judged, the
    commonest first with an example id; ``--json`` lists them all."""
    unjudged = [item for item in items if "not_judged" in item]
    reasons = Counter(_first_line(item["not_judged"]) for item in unjudged)
    if not reasons:
        return
    console = Console(stderr=True)
    console.print(f"[yellow]{len(unjudged)} of {len(items)} items not judged[/yellow] (listed with --json):")
    for reason, count in reasons.most_common(SHOWN_REASONS):
        example = next(item["id"] for item in unjudged if _first_line(item["not_judged"]) == reason)
        console.print(f"  {count} × {escape(reason)} (e.g. {escape(example)})", soft_wrap=True)
    if len(reasons) > SHOWN_REASONS:
        console.print(f"  and {len(reasons) - SHOWN_REASONS} other reasons")
    if stopped:
        console.print(f"[red]stopped early:[/red] {escape(stopped)}", soft_wrap=True)


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else "no reason given"
    return line if len(line) <= 200 else line[:199] + "…"
