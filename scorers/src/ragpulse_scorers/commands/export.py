"""The work of ``ragpulse export --labelled`` on a store: the labelled requests as JSON Lines for ``ragpulse
eval``, run by the command on the store it opens or by ``ragpulse serve``'s live page for it."""

from __future__ import annotations

from datetime import datetime
from typing import TextIO

from ragpulse_core.store import Store
from rich.console import Console

from ragpulse_scorers.labels.export import labelled_lines


def export_labelled(
    store: Store, out: TextIO, console: Console, *, since: datetime | None, everything: bool
) -> int:
    """Write one line per labelled request to ``out``; how many, on ``console``, and how many more ``--all``
    would add (so a set of 0 beside labels just given says why)."""
    written = 0
    for line in labelled_lines(store, since=since, everything=everything):
        out.write(line + "\n")
        written += 1
    out.flush()
    left = 0 if everything else sum(1 for _ in labelled_lines(store, since=since, everything=True)) - written
    more = (
        f"; {left} more that the review queue picked because judges disagreed or were unsure"
        " (--all adds them)"
        if left
        else ""
    )
    console.print(f"exported {written} labelled requests{more}", soft_wrap=True)
    return 0
