"""What every ``ragpulse eval`` table prints under it: the items without a verdict, and why."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape

SHOWN_REASONS = 3


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
