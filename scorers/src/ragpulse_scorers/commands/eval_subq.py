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

from ragpulse_scorers.evaluation.subq import (
    evaluate_coverage,
    evaluate_types,
    load_coverage_examples,
    load_type_examples,
)
from ragpulse_scorers.judges.coverage import CoverageJudge
from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.settings import ScorersSettings


def run_types(args: argparse.Namespace, http_client: httpx.Client | None = None) -> int:
    """``http_client`` is the seam tests use to put a mock transport under the judge."""
    examples = load_type_examples(args.data, _limit(args))
    judge = _coverage_judge(args, http_client)
    if judge is None:
        return 2
    result = evaluate_types(examples, lambda q, subs: judge.classify(q, subs, Usage()))
    return _report(args, result | {"judge_model": judge.client.model}, _types_table)


def run_coverage(args: argparse.Namespace, http_client: httpx.Client | None = None) -> int:
    examples = load_coverage_examples(args.data, _limit(args))
    judge = _coverage_judge(args, http_client)
    if judge is None:
        return 2
    result = evaluate_coverage(
        examples, lambda answer, subs: [c.answered for c in judge.judge_answer(answer, subs, Usage())]
    )
    return _report(args, result | {"judge_model": judge.client.model}, _coverage_table)


def _coverage_judge(args: argparse.Namespace, http_client: httpx.Client | None) -> CoverageJudge | None:
    settings = ScorersSettings.load(getattr(args, "config", None), judge={"model": args.model})
    if not settings.judge.configured:
        Console(stderr=True).print("[red]no judge endpoint:[/red] set OPENAI_BASE_URL and/or OPENAI_API_KEY")
        return None
    return CoverageJudge(JudgeClient(settings.judge, http_client=http_client))


def _report(
    args: argparse.Namespace, result: dict[str, Any], table: Callable[[dict[str, Any]], Table]
) -> int:
    if args.json:
        print(json.dumps(result))
    else:
        Console().print(table(result))
    return 1 if result["n"] == 0 else 0


def _types_table(result: dict[str, Any]) -> Table:
    table = Table(title=f"sub-question types: {result['judge_model']} vs annotators' majority")
    for heading in ("majority type", "n", "accuracy"):
        table.add_column(heading, justify="left" if heading == "majority type" else "right")
    for type_, row in result["per_type"].items():
        table.add_row(type_, str(row["n"]), _pct(row["accuracy"]))
    table.add_row("all", str(result["n"]), _pct(result["accuracy"]), style="bold")
    reference = result["reference"]
    table.caption = (
        f"{result['tied']} tied, {result['failed']} failed (left out). "
        f"Paper: humans {_pct(reference['humans'])}, GPT-4 zero-shot {_pct(reference['gpt4_zero_shot'])}, "
        f"few-shot {_pct(reference['gpt4_few_shot'])}"
    )
    return table


def _coverage_table(result: dict[str, Any]) -> Table:
    table = Table(title=f"sub-question coverage: {result['judge_model']} vs human judgments")
    for heading in ("n", "agreement", "precision", "recall", "F1"):
        table.add_column(heading, justify="right")
    table.add_row(
        str(result["n"]), *(_pct(result[key]) for key in ("agreement", "precision", "recall", "f1"))
    )
    table.caption = (
        f"positive class: answered; {result['failed']} failed (left out). "
        f"Paper: GPT-4 agreement {_pct(result['reference']['gpt4'])}"
    )
    return table


def _limit(args: argparse.Namespace) -> int | None:
    if args.limit is not None and args.limit < 1:
        raise ValueError("--limit must be at least 1")
    return args.limit  # type: ignore[no-any-return]


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"
