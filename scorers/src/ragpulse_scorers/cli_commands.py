"""Registers the scorers' subcommands on the ``ragpulse`` command (see ``ragpulse_core.cli``)."""

from __future__ import annotations

import argparse
import importlib

# Each module defines ``register(subparsers)``; add a module here to add its commands.
COMMAND_MODULES: tuple[str, ...] = (
    "ragpulse_scorers.commands.alerts",
    "ragpulse_scorers.commands.demo",
    "ragpulse_scorers.commands.eval",
    "ragpulse_scorers.commands.pairwise",
    "ragpulse_scorers.commands.report",
    "ragpulse_scorers.commands.score",
    "ragpulse_scorers.commands.serve",
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
