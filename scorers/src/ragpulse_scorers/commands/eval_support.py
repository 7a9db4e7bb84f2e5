"""``ragpulse eval support``: how well a judge finds hallucinated responses (and unsupported sentences)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ragpulse_scorers.commands.eval_output import INTERRUPTED_EXIT, judging_progress, print_not_judged
from ragpulse_scorers.evaluation.datasets import load_support_dataset
from ragpulse_scorers.evaluation.items import IsolatedJudging
from ragpulse_scorers.evaluation.judges import build_judge
from ragpulse_scorers.evaluation.shipped import resolve_data
from ragpulse_scorers.evaluation.support_task import evaluate_support, total_judgements
from ragpulse_scorers.registry import ENDPOINT_HINT, MissingJudgeEndpoint
from ragpulse_scorers.settings import ScorersSettings


def run(args: argparse.Namespace) -> int:
    if args.limit is not None and args.limit < 0:
        raise ValueError("--limit must not be negative")
    if args.workers < 1:
        raise ValueError("--workers must be at least 1")
    if args.judge == "openai" and not ScorersSettings.load(args.config).judge.configured:
        # Checked first: without an endpoint the openai client would retry the public API for half a minute.
        raise MissingJudgeEndpoint(f"--judge openai needs an LLM judge endpoint: {ENDPOINT_HINT}")
    dataset = load_support_dataset(resolve_data(args.data), args.split, args.limit)
    judge = build_judge(args)
    total = total_judgements(dataset, args.sentences)
    judging = IsolatedJudging()
    with judging_progress(f"judging with {judge.name}", total, judging) as advance:
        report = evaluate_support(
            dataset, judge, workers=args.workers, advance=advance, sentences=args.sentences, judging=judging
        )
    result = {**report.as_dict(), "judge": judge.name, "split": str(args.split), "format": dataset.format}
    if args.json:
        print(json.dumps(result))
    else:
        _print_table(result, args.data)
        print_not_judged(result["items"], report.stopped)
    if report.interrupted:
        return INTERRUPTED_EXIT
    return 0 if report.coverage.judged else 1


def _print_table(result: dict[str, Any], data: Path) -> None:
    console = Console()
    table = Table(title=f"support judge '{result['judge']}' on {data.name} ({result['split']})")
    table.add_column("level")
    for heading in ("judged", "balanced acc.", "precision", "recall", "F1", "AUROC"):
        table.add_column(heading, justify="right")
    auroc = "n/a" if result["auroc"] is None else f"{result['auroc']:.3f}"
    table.add_row(
        "response",
        _judged(result),
        *(f"{result[key]:.3f}" for key in ("balanced_accuracy", "precision", "recall", "f1")),
        auroc,
    )
    sentences = result.get("sentences")
    if sentences is not None:
        table.add_row("sentence", _judged(sentences), f"{sentences['balanced_accuracy']:.3f}", "", "",
                      f"{sentences['f1']:.3f}", "")  # fmt: skip
        table.caption = (
            f"sentence accuracy {sentences['accuracy']:.3f}; positive class: not fully supported; "
            "judged = items with a verdict / all items"
        )
    else:
        table.caption = "positive class: hallucinated; AUROC of 1 - support score; judged: with a verdict/all"
    console.print(table)


def _judged(result: dict[str, Any]) -> str:
    coverage = result["coverage"]
    return f"{coverage['judged']}/{coverage['total']}"
