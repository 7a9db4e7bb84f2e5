"""Which support judges ``ragpulse eval support --judge NAME`` can measure.

To add a judge, add ``SUPPORT_JUDGES["name"] = factory`` where ``factory(args)`` builds it from the parsed
command line, and its name to ``SUPPORT_JUDGE_NAMES`` in :mod:`ragpulse_scorers.cli`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ragpulse_judge.learnt import LearntJudge
from ragpulse_judge.rules import LexicalJudge
from ragpulse_judge.verdicts import SupportJudge

JudgeFactory = Callable[[argparse.Namespace], SupportJudge]


def _openai_judge(args: argparse.Namespace) -> SupportJudge:
    # Imported when chosen: the openai package takes about a second to import.
    from ragpulse_scorers.judges.support import openai_support_judge

    return openai_support_judge(args)


SUPPORT_JUDGES: dict[str, JudgeFactory] = {
    # What the lexical scorer runs by default: the hand-written rules.
    "lexical": lambda args: LexicalJudge(),
    # The learnt model over the same evidence ([scorer.free] judge = "learnt").
    "learnt": lambda args: LearntJudge(),
    "openai": _openai_judge,
}


def build_judge(args: argparse.Namespace) -> SupportJudge:
    return SUPPORT_JUDGES[args.judge](args)
