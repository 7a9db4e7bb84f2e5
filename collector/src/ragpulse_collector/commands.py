"""``ragpulse collector``: the command's flags; what it does is in :mod:`ragpulse_collector.service`."""

from __future__ import annotations

from ragpulse_core.cli import Subparsers, runs
from ragpulse_core.commands import add_collector_flags, add_store_flags


def register(subparsers: Subparsers) -> None:
    collector = subparsers.add_parser(
        "collector",
        help="receive OTLP/HTTP (and OTLP/gRPC) traces and logs and write them to ClickHouse (metrics are "
        "accepted and dropped)",
    )
    add_store_flags(collector)
    add_collector_flags(collector)
    collector.set_defaults(func=runs("ragpulse_collector.service"))
