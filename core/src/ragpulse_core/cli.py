"""The ``ragpulse`` command.

Subcommands come from the installed parts through the ``ragpulse.cli`` entry-point group: the core gives
``migrate``, ``ragpulse-collector`` adds ``collector``, ``ragpulse-scorers`` adds the rest. Each part's
``register(subparsers)`` adds its commands and sets ``func(args) -> int`` on each. Registering imports only
argparse code: a command imports its heavy dependencies when it runs, so ``ragpulse --help`` stays fast.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import logging
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, entry_points, version
from pathlib import Path
from typing import TypeAlias

from rich.console import Console
from rich.logging import RichHandler
from rich.markup import escape

from ragpulse_core.errors import ReceiverNotInstalled, StoreUnavailable

console = Console(stderr=True)

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
CommandFunction: TypeAlias = Callable[[argparse.Namespace], int]
COMMANDS_GROUP = "ragpulse.cli"
PARTS = ("ragpulse-core", "ragpulse-collector", "ragpulse-scorers", "ragpulse")


def runs(module_name: str, function_name: str = "run") -> CommandFunction:
    """``module_name.run(args)`` (or another function), imported only when the command runs."""

    def run(args: argparse.Namespace) -> int:
        command: CommandFunction = getattr(importlib.import_module(module_name), function_name)
        return command(args)

    return run


def installed_versions() -> str:
    """``ragpulse-core 0.1.0, ragpulse-collector 0.1.0, ...``: the parts installed here."""
    found = []
    for part in PARTS:
        try:
            found.append(f"{part} {version(part)}")
        except PackageNotFoundError:
            continue
    return ", ".join(found)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ragpulse", description="Watch RAG systems in production.")
    parser.add_argument(
        "--config", type=Path, help="TOML config file (default: $RAGPULSE_CONFIG, ./ragpulse.toml)"
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-vv for debug)")
    parser.add_argument("--version", action="version", version=installed_versions())
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for entry_point in sorted(entry_points(group=COMMANDS_GROUP), key=lambda ep: ep.name):
        entry_point.load()(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    level = logging.WARNING - 10 * min(args.verbose + 1, 2)
    logging.basicConfig(
        level=level, format="%(message)s", handlers=[RichHandler(console=console, show_path=False)]
    )
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        return 130
    except (FileNotFoundError, ValueError) as exc:
        return _fail(_describe(exc), 2)
    except (StoreUnavailable, ReceiverNotInstalled) as exc:
        return _fail(str(exc), 1)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return _fail("address already in use: another process listens on that port (pass --port)", 1)
        return _fail(f"{exc.strerror or exc}{f': {exc.filename}' if exc.filename else ''}", 1)
    return code


def _describe(exc: Exception) -> str:
    from pydantic import ValidationError  # only on this path: --help stays light

    if isinstance(exc, ValidationError):
        from ragpulse_core.settings import describe_invalid

        return describe_invalid(exc)
    return str(exc)


def _fail(message: str, code: int) -> int:
    """One line, never a traceback: the first line of what went wrong, markup-escaped."""
    lines = message.strip().splitlines() or ["failed"]
    console.print(f"[red]error:[/red] {escape(lines[0])}", soft_wrap=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
