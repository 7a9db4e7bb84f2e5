"""``ragpulse collector`` and ``ragpulse migrate``."""

from __future__ import annotations

import argparse
import signal
from pathlib import Path
from types import FrameType
from typing import Any

from rich.console import Console
from rich.table import Table

from ragpulse_collector.schema import migrate
from ragpulse_collector.server import TRACES_PATH, CollectorServer, tune_gc_for_collector
from ragpulse_collector.settings import RagpulseSettings
from ragpulse_collector.store import Store, StoreUnavailable, describe_dsn

console = Console()


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    collector = subparsers.add_parser(
        "collector", help="receive OTLP/HTTP (and OTLP/gRPC) traces and write them to ClickHouse"
    )
    _add_store_flags(collector)
    collector.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    collector.add_argument("--port", type=int, help="port to listen on (default 4318; 0 picks a free one)")
    collector.add_argument(
        "--spool-dir", type=Path, help="where batches wait while ClickHouse is unreachable"
    )
    collector.add_argument("--max-body-bytes", type=int, help="larger requests get 413")
    collector.add_argument(
        "--grpc-port", type=int, help="also receive OTLP/gRPC on this port (4317 by convention; default off)"
    )
    collector.add_argument(
        "--auth-token",
        help="require 'Authorization: Bearer <token>' (visible in ps: prefer --auth-token-file or "
        "RAGPULSE_COLLECTOR__AUTH_TOKEN)",
    )
    collector.add_argument("--auth-token-file", type=Path, help="read the bearer token from this file")
    collector.set_defaults(func=run_collector)

    migrate_parser = subparsers.add_parser("migrate", help="create or upgrade the ClickHouse schema")
    _add_store_flags(migrate_parser)
    migrate_parser.add_argument("--ttl-days", type=int, help="how long rows are kept (default 30)")
    migrate_parser.set_defaults(func=run_migrate)


def _add_store_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dsn", help="chdb:///abs/path (embedded) or http(s)://user:pass@host:8123")
    parser.add_argument("--database", help="database name (default ragpulse)")


def _load(args: argparse.Namespace, collector: dict[str, Any] | None = None) -> RagpulseSettings:
    store = {"dsn": args.dsn, "database": args.database, "ttl_days": getattr(args, "ttl_days", None)}
    return RagpulseSettings.load(args.config, store=store, collector=collector or {})


def _migrate(settings: RagpulseSettings, store: Store) -> None:
    applied = migrate(store, settings.store.ttl_days)
    where = f"{describe_dsn(store.dsn)} (database {store.database})"
    if not applied:
        console.print(f"schema up to date on {where}")
        return
    table = Table(title=f"migrations applied on {where}")
    table.add_column("version", justify="right")
    table.add_column("name")
    for migration in applied:
        table.add_row(f"{migration.version:04d}", migration.name)
    console.print(table)


def run_migrate(args: argparse.Namespace) -> int:
    settings = _load(args)
    store = Store(settings.store.dsn, settings.store.database)
    try:
        _migrate(settings, store)
    except StoreUnavailable as exc:
        console.print(f"[red]migrate failed:[/red] {exc}")
        return 1
    return 0


def run_collector(args: argparse.Namespace) -> int:
    settings = _load(
        args,
        {
            "host": args.host,
            "port": args.port,
            "spool_dir": args.spool_dir,
            "max_body_bytes": args.max_body_bytes,
            "auth_token": args.auth_token,
            "auth_token_file": args.auth_token_file,
            "grpc_port": args.grpc_port,
        },
    )
    store = Store(settings.store.dsn, settings.store.database)
    try:
        _migrate(settings, store)
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
    console.print(
        f"collector listening on [bold]{server.url}{TRACES_PATH}[/bold]{grpc}, writing to {describe_dsn(store.dsn)}"
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
