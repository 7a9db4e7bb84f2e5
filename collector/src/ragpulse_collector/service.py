"""Running the collector as a process: migrate (or spool while the store is down), serve until stopped."""

from __future__ import annotations

import argparse
import signal
from types import FrameType

from ragpulse_core.commands import collector_flags
from ragpulse_core.migrate_command import migrate_and_show, settings_from_flags
from ragpulse_core.preflight import check_collector_files, check_listeners, collector_listeners
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store, StoreUnavailable, describe_dsn
from rich.console import Console

from ragpulse_collector.auth import configured_token
from ragpulse_collector.server import CollectorServer, tune_gc_for_collector
from ragpulse_collector.signals import SIGNALS

console = Console()


def run(args: argparse.Namespace) -> int:
    settings = settings_from_flags(args, collector=collector_flags(args))
    # Before the store is opened: a port in use or a missing token file leaves no database behind.
    check_collector_files(settings.collector)
    check_listeners(collector_listeners(settings.collector, settings.origin))
    return serve_collector(settings)


def serve_collector(settings: RagpulseSettings) -> int:
    configured_token(settings.collector)  # a blank or unreadable token file stops start-up here, in one line
    store = Store(settings.store.dsn, settings.store.database)
    try:
        migrate_and_show(settings, store)
    except StoreUnavailable as exc:
        if settings.collector.spool_dir is None:
            console.print(
                f"[red]cannot reach the store and no --spool-dir to hold spans meanwhile:[/red] {exc}"
            )
            return 1
        console.print(
            f"[yellow]store unreachable, spooling to {settings.collector.spool_dir} until it is back:"
            f"[/yellow] {exc}"
        )
    server = CollectorServer(settings, store)
    tune_gc_for_collector()
    signal.signal(signal.SIGTERM, _interrupt)
    server.start()
    grpc = f" and OTLP/gRPC on port {server.grpc_port}" if server.grpc_port is not None else ""
    paths = ", ".join(signal.path for signal in SIGNALS)
    console.print(
        f"collector listening on [bold]{server.url}[/bold] ({paths}){grpc}, "
        f"writing to {describe_dsn(store.dsn)}"
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        console.print("stopping: writing what is queued")
    finally:
        server.stop()
    return 0


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt
