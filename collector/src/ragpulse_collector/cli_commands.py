"""Registers the collector's subcommands (``collector``, ``migrate``) on the ``ragpulse`` command."""

from __future__ import annotations

import argparse
import importlib

COMMAND_MODULES: tuple[str, ...] = ("ragpulse_collector.commands",)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
