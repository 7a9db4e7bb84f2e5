"""Argument types the scorers' commands parse with; light, so ``ragpulse --help`` imports nothing heavy."""

from __future__ import annotations

import argparse
from typing import Any


def variant_list(text: str) -> list[str]:
    """``A,B``: two or more distinct variant names."""
    variants = list(dict.fromkeys(v.strip() for v in text.split(",") if v.strip()))
    if len(variants) < 2:
        raise argparse.ArgumentTypeError("name at least two variants, comma-separated: A,B")
    return variants


def scorer_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The ``[scorer]`` settings given as flags to ``score`` or ``serve`` (None where left out)."""
    return {
        "scorers": args.scorers,
        "sample_rate": args.sample_rate,
        "shard": args.shard,
        "interval_s": args.interval,
    }


def add_scorer_flags(parser: argparse._ActionsContainer) -> None:
    """The scheduler's flags, shared by ``score`` and ``serve``; ``scorer_flags`` reads them back."""
    parser.add_argument(
        "--scorer", dest="scorers", action="extend", nargs="+", metavar="NAME",
        help="scorers to run (default: scorer.scorers from the config, lexical)",
    )  # fmt: skip
    parser.add_argument("--sample-rate", type=float, help="share of requests scored, 0 to 1")
    parser.add_argument("--shard", metavar="i/N", help="this worker takes shard i of N")
    parser.add_argument(
        "--interval", type=float, metavar="SECONDS",
        help="seconds between ticks (default: scorer.interval_s, 10)",
    )  # fmt: skip
