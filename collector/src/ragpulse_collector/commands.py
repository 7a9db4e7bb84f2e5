"""``ragpulse collector``: the command's flags; what it does is in :mod:`ragpulse_collector.service`."""

from __future__ import annotations

from pathlib import Path

from ragpulse_core.cli import Subparsers, runs
from ragpulse_core.commands import add_store_flags


def register(subparsers: Subparsers) -> None:
    collector = subparsers.add_parser(
        "collector",
        help="receive OTLP/HTTP (and OTLP/gRPC) traces and logs and write them to ClickHouse (metrics are "
        "accepted and dropped)",
    )
    add_store_flags(collector)
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
    collector.set_defaults(func=runs("ragpulse_collector.service"))
