"""``ragpulse eval TASK``: measure the judges against human-labelled data.

Each task is a module with ``register(tasks)`` that adds its own subparser; list it in ``EVAL_TASK_MODULES``.
"""

from __future__ import annotations

import argparse
import importlib

EVAL_TASK_MODULES: tuple[str, ...] = (
    "ragpulse_scorers.commands.eval_support",
    "ragpulse_scorers.evaluation.subq",
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("eval", help="measure the judges against human-labelled data")
    tasks = parser.add_subparsers(dest="eval_task", metavar="TASK", required=True)
    for module_name in EVAL_TASK_MODULES:
        importlib.import_module(module_name).register(tasks)
