"""Which support judges ``ragpulse eval support --judge NAME`` can measure.

To add a judge, add ``SUPPORT_JUDGES["name"] = factory`` where ``factory(args)`` builds it from the parsed
command line, and add the flags it needs in :func:`add_judge_arguments`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ragpulse_scorers.evaluation.support_judge import SupportJudge
from ragpulse_scorers.lexical.judge import LexicalJudge

JudgeFactory = Callable[[argparse.Namespace], SupportJudge]


def _openai_judge(args: argparse.Namespace) -> SupportJudge:
    # Imported when chosen: the openai package takes about a second to import.
    from ragpulse_scorers.judges.support import openai_support_judge

    return openai_support_judge(args)


SUPPORT_JUDGES: dict[str, JudgeFactory] = {
    "lexical": lambda args: LexicalJudge(),
    "openai": _openai_judge,
}


def add_judge_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags that choose and configure a judge."""
    parser.add_argument("--judge", choices=sorted(SUPPORT_JUDGES), default="lexical", help="judge to measure")
    parser.add_argument("--model", help="model of an LLM judge (default: judge.model, $RAGPULSE_JUDGE_MODEL)")


def build_judge(args: argparse.Namespace) -> SupportJudge:
    return SUPPORT_JUDGES[args.judge](args)
