"""``ragpulse serve``: the collector and the scoring scheduler in one process.

Embedded chDB lets one process open a database path, so a single-machine deployment runs both here.
"""

from __future__ import annotations

import argparse

from ragpulse_core.receivers import load_receiver
from rich.console import Console

from ragpulse_scorers.commands.score import quiet_scheduler_logs
from ragpulse_scorers.commands.store_access import open_migrated_store
from ragpulse_scorers.pipeline.scheduler import build_scheduler, wait_for_shutdown
from ragpulse_scorers.settings import ScorersSettings

console = Console()



def run(args: argparse.Namespace) -> int:
    settings = ScorersSettings.load(
        args.config, store={"dsn": args.dsn}, collector={"host": args.host, "port": args.port}
    )
    store = open_migrated_store(settings, console)
    if store is None:
        return 1
    try:
        server = load_receiver()(settings, store)
        quiet_scheduler_logs(args.verbose)
        scheduler = build_scheduler(settings, store)
        server.tune_process()  # this process is a long-running collector too
        server.start()
        try:
            scheduler.start()
            console.print(
                f"collector on {server.url}; scoring with {', '.join(settings.scorer.scorers)}"
                f" every {settings.scorer.interval_s:g} s; Ctrl-C stops"
            )
            wait_for_shutdown()
        finally:
            # The collector goes first so its last batch is written before the final tick ends.
            server.stop()
            if scheduler.running:
                scheduler.shutdown(wait=True)
        return 0
    finally:
        store.close()
