"""``ragpulse migrate``, and the flags that several commands share: the store's, and the collector's (which
``ragpulse collector`` and ``ragpulse serve`` both offer, under the same names)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ragpulse_core.cli import Subparsers, runs


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("migrate", help="create or upgrade the ClickHouse schema")
    add_store_flags(parser)
    parser.add_argument("--ttl-days", type=int, help="how long rows are kept (default 30)")
    parser.add_argument(
        "--cluster",
        metavar="NAME",
        help="create Replicated tables ON CLUSTER NAME with Distributed tables over them (ClickHouse server)",
    )
    parser.add_argument("--dry-run", action="store_true", help="print the DDL instead of running it")
    parser.set_defaults(func=runs("ragpulse_core.migrate_command"))


def add_store_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dsn", help="chdb:///abs/path (embedded) or http(s)://user:pass@host:8123")
    parser.add_argument("--database", help="database name (default ragpulse)")


def add_collector_flags(parser: argparse._ActionsContainer) -> None:
    """The collector's own flags; :func:`collector_flags` reads them back as ``[collector]`` settings."""
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, help="OTLP/HTTP port to listen on (default 4318; 0 picks a free one)"
    )
    parser.add_argument(
        "--grpc-port", type=int, help="also receive OTLP/gRPC on this port (4317 by convention; default off)"
    )
    parser.add_argument(
        "--spool-dir", type=Path, help="where batches wait while ClickHouse is unreachable"
    )
    parser.add_argument("--max-body-bytes", type=int, help="larger requests get 413")
    parser.add_argument(
        "--auth-token",
        help="require 'Authorization: Bearer <token>' (visible in ps: prefer --auth-token-file or "
        "RAGPULSE_COLLECTOR__AUTH_TOKEN)",
    )
    parser.add_argument("--auth-token-file", type=Path, help="read the bearer token from this file")


def collector_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The ``[collector]`` settings given as flags (None where a flag was left out)."""
    return {
        "host": args.host,
        "port": args.port,
        "grpc_port": args.grpc_port,
        "spool_dir": args.spool_dir,
        "max_body_bytes": args.max_body_bytes,
        "auth_token": args.auth_token,
        "auth_token_file": args.auth_token_file,
    }
