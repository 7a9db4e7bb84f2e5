"""``ragpulse export --labelled``: the labelled requests, as JSONL on stdout, for ``ragpulse eval``."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime

from ragpulse_core.store_access import open_for_reading
from rich.console import Console

from ragpulse_scorers.labels.export import labelled_lines
from ragpulse_scorers.settings import ScorersSettings

console = Console(stderr=True)


def run(args: argparse.Namespace) -> int:
    store = open_for_reading(ScorersSettings.load(args.config, store={"dsn": args.dsn}), console)
    if store is None:
        return 1
    since = datetime.now(UTC) - args.since if args.since is not None else None
    written = 0
    try:
        for line in labelled_lines(store, since=since, everything=args.all):
            sys.stdout.write(line + "\n")
            written += 1
    finally:
        store.close()
    console.print(f"exported {written} labelled requests")
    return 0
