"""``ragpulse migrate``, and the store flags every command that opens the store shares."""

from __future__ import annotations

import argparse

from ragpulse_core.cli import Subparsers, runs


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("migrate", help="create or upgrade the ClickHouse schema")
    add_store_flags(parser)
    parser.add_argument("--ttl-days", type=int, help="how long rows are kept (default 30)")
    parser.set_defaults(func=runs("ragpulse_core.migrate_command"))


def add_store_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dsn", help="chdb:///abs/path (embedded) or http(s)://user:pass@host:8123")
    parser.add_argument("--database", help="database name (default ragpulse)")
