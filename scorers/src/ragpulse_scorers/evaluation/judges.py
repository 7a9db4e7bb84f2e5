"""Which support judges ``ragpulse eval support --judge NAME`` can measure.

To add a judge, add ``SUPPORT_JUDGES["name"] = factory`` where ``factory(args)`` builds it from the parsed
command line, and its name to ``SUPPORT_JUDGE_NAMES`` in :mod:`ragpulse_scorers.cli`. An evaluator of the
config that ``measures = "hallucination"`` is measured under its own name.
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
    if args.judge in SUPPORT_JUDGES:
        return SUPPORT_JUDGES[args.judge](args)
    return _evaluator_judge(args)


def _evaluator_judge(args: argparse.Namespace) -> SupportJudge:
    from ragpulse_scorers.evaluators.config import LlmEvaluator
    from ragpulse_scorers.evaluators.scorers import build_evaluator
    from ragpulse_scorers.evaluators.support_judge import EvaluatorSupportJudge
    from ragpulse_scorers.registry import ENDPOINT_HINT, MissingJudgeEndpoint, is_llm_judged
    from ragpulse_scorers.settings import ScorersSettings

    settings = ScorersSettings.load(args.config)
    definition = settings.evaluators.definitions().get(args.judge)
    if definition is None or definition.measures is None:
        measuring = [n for n, d in settings.evaluators.definitions().items() if d.measures is not None]
        raise ValueError(
            f"--judge {args.judge!r}: not {', '.join(SUPPORT_JUDGES)} nor an evaluator of the config that"
            f" measures hallucination (measures = \"hallucination\");"
            f" such evaluators: {', '.join(measuring) or 'none'}"
        )
    if is_llm_judged(args.judge, settings) and not settings.judge.configured:
        raise MissingJudgeEndpoint(f"--judge {args.judge} needs an LLM judge endpoint: {ENDPOINT_HINT}")
    if isinstance(definition, LlmEvaluator) and args.model:
        judge = settings.judge.model_copy(update={"model": args.model})
        settings = settings.model_copy(update={"judge": judge})
    evaluator = build_evaluator(args.judge, definition, settings, None)
    score_range = definition.range if isinstance(definition, LlmEvaluator) else None
    return EvaluatorSupportJudge(evaluator, score_range)
