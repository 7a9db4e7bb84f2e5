"""The ``ragpulse`` command.

Subcommands come from the installed parts through the ``ragpulse.cli`` entry-point group: the core gives
``migrate``, ``ragpulse-collector`` adds ``collector``, ``ragpulse-scorers``, ``ragpulse-dashboards`` and the
example's demo add the rest, listed by name. Each part's
``register(subparsers)`` adds its commands and sets ``func(args) -> int`` on each. Registering imports only
argparse code: a command imports its heavy dependencies when it runs, so ``ragpulse --help`` stays fast.

Whatever goes wrong, a person gets one line saying what, and one saying what to do next; never a traceback
(``-v`` shows it). The global options (``--config``, ``-v``, ``--dsn``) are accepted before or after the
command's name.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import logging
import os
import re
import shlex
import shutil
import sys
from collections.abc import Callable, Sequence
from datetime import timedelta
from importlib.metadata import PackageNotFoundError, entry_points, version
from pathlib import Path
from typing import Any, NoReturn, TypeAlias

from rich.console import Console
from rich.logging import RichHandler
from rich.markup import escape

from ragpulse_core.errors import ReceiverNotInstalled, StoreUnavailable

console = Console(stderr=True)

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
CommandFunction: TypeAlias = Callable[[argparse.Namespace], int]
COMMANDS_GROUP = "ragpulse.cli"
PARTS = (
    "ragpulse-core",
    "ragpulse-collector",
    "ragpulse-assembly",
    "ragpulse-scorers",
    "ragpulse-dashboards",
    "ragpulse-example",
    "ragpulse",
)
# Entry points (``ragpulse.cli`` names) whose commands run the store and the ingest path: listed first.
SERVER_PARTS = ("collector", "core")
PROGRAM = "ragpulse"
_WINDOW = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "": 3600}
# Libraries that log every retry of a failed connection; the one-line error says what failed.
NOISY_LOGGERS = ("clickhouse_connect", "urllib3.connectionpool", "grpc")
# HTTP clients that log every request at INFO (a judge's every call, a webhook's every post): shown with -v.
HTTP_CLIENT_LOGGERS = ("httpx", "httpx2", "httpcore", "httpcore2", "openai")


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


def parse_window(text: str) -> timedelta:
    """``90s``, ``30m``, ``24h``, ``7d``; a bare number is hours."""
    match = _WINDOW.match(text)
    if not match or float(match.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"not a window: {text!r} (use e.g. 30m, 24h, 7d)")
    return timedelta(seconds=float(match.group(1)) * _UNIT_SECONDS[match.group(2)])


def add_dsn(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dsn", help="store DSN (default: store.dsn from the config, ./.ragpulse/chdb)")


def invoked_as() -> str:
    """How to run ``ragpulse`` again from a new shell in the same directory, for hints to copy.

    ``ragpulse`` when that name on PATH is this program and stays so in a new shell (not an activated
    venv's); else the path it was started by (``.venv/bin/ragpulse``), or ``python -m ragpulse_core.cli``
    when it ran so.
    """
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is not None and script.resolve() == Path(__file__).resolve():
        return f"{shlex.quote(sys.executable)} -m ragpulse_core.cli"
    if script is None or script.name != PROGRAM:
        return PROGRAM  # called in-process (tests, an embedding application)
    on_path = shutil.which(PROGRAM)
    if on_path is not None and Path(on_path).resolve() == script.resolve() and not _from_active_venv(script):
        return PROGRAM
    absolute = script.absolute()
    try:
        return shlex.quote(str(absolute.relative_to(Path.cwd())))
    except ValueError:
        return shlex.quote(str(absolute))


def _from_active_venv(script: Path) -> bool:
    """The program lives in the activated virtualenv, whose ``bin`` a new shell does not have on PATH."""
    venv = os.environ.get("VIRTUAL_ENV")
    return venv is not None and script.resolve().is_relative_to(Path(venv).resolve())


class CommandParser(argparse.ArgumentParser):
    """An argument mistake in one line, then where the options are listed (argparse prints its usage)."""

    def error(self, message: str) -> NoReturn:
        console.print(f"[red]error:[/red] {escape(message)}", soft_wrap=True, highlight=False)
        console.print(f"`{escape(self.prog)} --help` lists the options", soft_wrap=True, highlight=False)
        sys.exit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(prog=invoked_as(), description="Watch RAG systems in production.")
    parser.add_argument(
        "--config", type=Path, help="TOML config file (default: $RAGPULSE_CONFIG, ./ragpulse.toml)"
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging, and tracebacks")
    parser.add_argument("--dsn", help="store DSN, for the commands that open the store")
    parser.add_argument("--version", action="version", version=installed_versions())
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    server_commands = 0
    # The ingest path's commands first, then every other part's commands by name, wherever they live.
    found = sorted(entry_points(group=COMMANDS_GROUP), key=lambda ep: (ep.name not in SERVER_PARTS, ep.name))
    for entry_point in found:
        entry_point.load()(subparsers)
        if entry_point.name in SERVER_PARTS:
            server_commands = len(subparsers._choices_actions)
    subparsers._choices_actions[server_commands:] = sorted(
        subparsers._choices_actions[server_commands:], key=lambda action: action.dest
    )
    for command in _command_parsers(subparsers):
        _accept_global_options(command)
    return parser


def _command_parsers(subparsers: argparse._SubParsersAction[Any]) -> list[argparse.ArgumentParser]:
    """Every command's parser, nested ones (``eval support``) included."""
    found = []
    for command in dict.fromkeys(subparsers.choices.values()):
        found.append(command)
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                found.extend(_command_parsers(action))
    return found


def _accept_global_options(command: argparse.ArgumentParser) -> None:
    """``ragpulse report --config X`` as well as ``ragpulse --config X report``.

    The command's copies default to SUPPRESS so that, when left out, they do not overwrite what was given
    before the command's name; ``-v`` after the name counts on top of ``-v`` before it.
    """
    shared = command.add_argument_group("global options (also before the command's name)")
    shared.add_argument("--config", type=Path, default=argparse.SUPPRESS, help="TOML config file")
    shared.add_argument(
        "-v", "--verbose", dest="verbose_after", action="count", default=argparse.SUPPRESS,
        help="more logging, and tracebacks",
    )  # fmt: skip
    takes_dsn = False
    for action in command._actions:
        if action.dest == "dsn":
            action.default = argparse.SUPPRESS
            takes_dsn = True
    command.set_defaults(command_parser=command, takes_dsn=takes_dsn)


def parse_arguments(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parsed arguments with the global options merged; a mistake exits with the command's own message."""
    args, unknown = parser.parse_known_args(argv)
    command: argparse.ArgumentParser = getattr(args, "command_parser", parser)
    if unknown:
        command.error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.dsn is not None and not getattr(args, "takes_dsn", True):
        command.error("this command opens no store, so --dsn means nothing to it")
    args.verbose += getattr(args, "verbose_after", 0)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parse_arguments(parser, argv)
    _configure_logging(args.verbose)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        return 130
    except (FileNotFoundError, ValueError) as exc:
        return print_error(_describe(exc), 2)
    except StoreUnavailable as exc:
        return print_error(str(exc), 1, hint=store_hint(exc))
    except ReceiverNotInstalled as exc:
        return print_error(str(exc), 1)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return print_error("address already in use: another process listens there", 1, "pass --port")
        return print_error(f"{exc.strerror or exc}{f': {exc.filename}' if exc.filename else ''}", 1)
    except Exception as exc:  # the last guard: a person gets one line, -v gets the traceback
        if args.verbose:
            console.print_exception()
            return print_error(f"unexpected {type(exc).__name__}: {exc}", 1)
        rerun = shlex.join(["-v", *(sys.argv[1:] if argv is None else argv)])
        return print_error(
            f"unexpected {type(exc).__name__}: {exc}", 1, hint=f"for the traceback: {invoked_as()} {rerun}"
        )
    return code


def _configure_logging(verbose: int) -> None:
    level = logging.WARNING - 10 * min(verbose + 1, 2)
    logging.basicConfig(
        level=level, format="%(message)s", handlers=[RichHandler(console=console, show_path=False)]
    )
    if not verbose:
        for name in NOISY_LOGGERS:
            logging.getLogger(name).setLevel(logging.ERROR)
        for name in HTTP_CLIENT_LOGGERS:
            logging.getLogger(name).setLevel(logging.WARNING)
    os.environ.setdefault("GRPC_VERBOSITY", "NONE" if not verbose else "ERROR")


def store_hint(exc: StoreUnavailable) -> str | None:
    """What to do about a store that cannot be reached (a held chDB path says so itself)."""
    if str(exc).startswith("cannot connect to"):
        return "start the database, or pass --dsn (store.dsn) naming one that runs"
    return None


def _describe(exc: Exception) -> str:
    from pydantic import ValidationError  # only on this path: --help stays light

    if isinstance(exc, ValidationError):
        from ragpulse_core.settings import describe_invalid

        return describe_invalid(exc)
    if isinstance(exc, FileNotFoundError) and exc.filename is not None:
        return f"no such file or directory: {exc.filename}"
    return str(exc)


def print_error(message: str, code: int = 1, hint: str | None = None) -> int:
    """One line, never a traceback: the first line of what went wrong, markup-escaped; then what to do.
    Returns ``code``, for ``return print_error(...)``."""
    lines = message.strip().splitlines() or ["failed"]
    console.print(f"[red]error:[/red] {escape(lines[0])}", soft_wrap=True, highlight=False)
    if hint:
        console.print(escape(hint), soft_wrap=True, highlight=False)
    return code


if __name__ == "__main__":
    sys.exit(main())
