"""``ragpulse eval subq-types`` and ``ragpulse eval subq-coverage``: run the coverage scorer's judges on the
labelled files and print the agreement (the measurements are in :mod:`ragpulse_scorers.evaluation.subq`)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table

from ragpulse_scorers.commands.eval_output import INTERRUPTED_EXIT, judging_progress, print_not_judged
from ragpulse_scorers.evaluation.items import IsolatedJudging
from ragpulse_scorers.evaluation.shipped import resolve_data
from ragpulse_scorers.evaluation.subq import (
    Judged,
    evaluate_coverage,
    evaluate_types,
    load_coverage_examples,
    load_type_examples,
)
from ragpulse_scorers.judges.coverage import CoverageJudge
from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.endpoint import ready_client
from ragpulse_scorers.metrics.coverage_metrics import SubQuestionType
from ragpulse_scorers.settings import ScorersSettings


def run_types(args: argparse.Namespace, http_client: httpx.Client | None = None) -> int:
    """``http_client`` is the seam tests use to put a mock transport under the judge."""
    examples = load_type_examples(resolve_data(args.data), _limit(args))
    judge = _coverage_judge(args, http_client)

    def classify(question: str, sub_questions: list[str]) -> list[Judged[SubQuestionType] | None]:
        typed = judge.classify(question, sub_questions, Usage())
        return [Judged(t.type, t.reasoning) if t else None for t in typed]

    judging = IsolatedJudging()
    label = f"typing sub-questions with {judge.client.model}"
    with judging_progress(label, len(examples), judging) as advance:
        result = evaluate_types(examples, classify, advance, judging)
    return _report(args, result | {"judge_model": judge.client.model}, _types_table)


def run_coverage(args: argparse.Namespace, http_client: httpx.Client | None = None) -> int:
    examples = load_coverage_examples(resolve_data(args.data), _limit(args))
    judge = _coverage_judge(args, http_client)

    def judge_answer(answer: str, sub_questions: list[str]) -> list[Judged[bool] | None]:
        covered = judge.judge_answer(answer, sub_questions, Usage())
        return [Judged(c.answered, c.reasoning, c.text_span) if c else None for c in covered]

    judging = IsolatedJudging()
    label = f"judging coverage with {judge.client.model}"
    with judging_progress(label, len(examples), judging) as advance:
        result = evaluate_coverage(examples, judge_answer, advance, judging)
    return _report(args, result | {"judge_model": judge.client.model}, _coverage_table)


def _coverage_judge(args: argparse.Namespace, http_client: httpx.Client | None) -> CoverageJudge:
    settings = ScorersSettings.load(getattr(args, "config", None), judge={"model": args.model})
    return CoverageJudge(ready_client(settings.judge, http_client))


def _report(
    args: argparse.Namespace, result: dict[str, Any], table: Callable[[dict[str, Any]], Table]
) -> int:
    if args.json:
        print(json.dumps(result))
    else:
        Console().print(table(result))
        print_not_judged(result["items"], result["stopped"])
    if result["interrupted"]:
        return INTERRUPTED_EXIT
    return 1 if result["n"] == 0 else 0


def _types_table(result: dict[str, Any]) -> Table:
    table = Table(title=f"sub-question types: {result['judge_model']} vs annotators' majority")
    for heading in ("majority type", "judged", "accuracy"):
        table.add_column(heading, justify="left" if heading == "majority type" else "right")
    for type_, row in result["per_type"].items():
        table.add_row(type_, _judged(row["coverage"]), _pct(row["accuracy"]))
    table.add_row("all", _judged(result["coverage"]), _pct(result["accuracy"]), style="bold")
    reference = result["reference"]
    table.caption = (
        f"judged = with a verdict / all with a majority type; {result['tied']} tied (no majority). "
        f"Paper: humans {_pct(reference['humans'])}, GPT-4 zero-shot {_pct(reference['gpt4_zero_shot'])}, "
        f"few-shot {_pct(reference['gpt4_few_shot'])}"
    )
    return table


def _coverage_table(result: dict[str, Any]) -> Table:
    table = Table(title=f"sub-question coverage: {result['judge_model']} vs human judgments")
    for heading in ("judged", "agreement", "precision", "recall", "F1"):
        table.add_column(heading, justify="right")
    table.add_row(
        _judged(result["coverage"]),
        *(_pct(result[key]) for key in ("agreement", "precision", "recall", "f1")),
    )
    table.caption = (
        f"positive class: answered; judged = with a verdict / all. "
        f"Paper: GPT-4 agreement {_pct(result['reference']['gpt4'])}"
    )
    return table


def _judged(coverage: dict[str, int]) -> str:
    return f"{coverage['judged']}/{coverage['total']}"


def _limit(args: argparse.Namespace) -> int | None:
    if args.limit is not None and args.limit < 1:
        raise ValueError("--limit must be at least 1")
    return args.limit  # type: ignore[no-any-return]


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"
