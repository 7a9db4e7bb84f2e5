"""``ragpulse eval support``: how well a judge finds hallucinated responses (and unsupported sentences)."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ragpulse_judge.rules import LexicalJudge
from rich.console import Console
from rich.table import Table

from ragpulse_scorers.commands.eval_output import INTERRUPTED_EXIT, judging_progress, print_not_judged
from ragpulse_scorers.evaluation.datasets import in_split, load_support_dataset
from ragpulse_scorers.evaluation.items import IsolatedJudging
from ragpulse_scorers.evaluation.judges import build_judge
from ragpulse_scorers.evaluation.shipped import resolve_data
from ragpulse_scorers.evaluation.support_task import evaluate_support, total_judgements
from ragpulse_scorers.registry import ENDPOINT_HINT, MissingJudgeEndpoint
from ragpulse_scorers.settings import ScorersSettings

ONE_CLASS = "undefined (needs both labels)"


def run(args: argparse.Namespace) -> int:
    if args.limit is not None and args.limit < 0:
        raise ValueError("--limit must not be negative")
    if args.workers < 1:
        raise ValueError("--workers must be at least 1")
    if args.folds is not None:
        return cross_validate_learnt(args)
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
        balanced_accuracy_text(result["balanced_accuracy"], result["balanced_accuracy_interval"]),
        *(f"{result[key]:.3f}" for key in ("precision", "recall", "f1")),
        auroc,
    )
    sentences = result.get("sentences")
    if sentences is not None:
        accuracy = balanced_accuracy_text(
            sentences["balanced_accuracy"], sentences["balanced_accuracy_interval"]
        )
        table.add_row("sentence", _judged(sentences), accuracy, "", "", f"{sentences['f1']:.3f}", "")
        table.caption = (
            f"sentence accuracy {sentences['accuracy']:.3f}; positive class: not fully supported; "
            "judged = items with a verdict / all items"
        )
    else:
        table.caption = "positive class: hallucinated; AUROC of 1 - support score; judged: with a verdict/all"
    console.print(table)


def balanced_accuracy_text(value: float | None, interval: list[float] | None) -> str:
    """ "0.804 [0.745, 0.862]", or the reason there is no figure: one class alone would read as 1.000."""
    if value is None:
        return ONE_CLASS
    return f"{value:.3f}" if interval is None else f"{value:.3f} [{interval[0]:.3f}, {interval[1]:.3f}]"


def cross_validate_learnt(args: argparse.Namespace) -> int:
    """``--folds K``: grouped k-fold cross-validation of the learnt judge on the labelled file."""
    # Imported here: training code loads only for this command.
    from ragpulse_judge.training.data import load_labelled_file
    from ragpulse_judge.training.figures import figures_of
    from ragpulse_judge.training.fit import cross_validate, read_corrupted, read_labelled

    if args.judge != "learnt":
        raise ValueError("--folds cross-validates the learnt free judge: use it with --judge learnt")
    if args.folds < 2:
        raise ValueError("--folds must be at least 2")
    answers = [a for a in load_labelled_file(resolve_data(args.data)) if in_split(a.group, args.split)]
    answers = answers[: args.limit] if args.limit is not None else answers
    if len({answer.group for answer in answers}) < args.folds:
        raise ValueError(f"--folds {args.folds} needs at least as many questions; the data has fewer")
    read = read_labelled(answers)
    out_of_fold = cross_validate(read, args.folds, read_corrupted(read))
    rules = LexicalJudge()
    truth = [answer.hallucinated for answer in answers]
    rule_verdicts = [rules.judge_support(a.question, a.context, a.answer) for a in answers]
    rows = {
        f"learnt, out-of-fold ({args.folds} folds by question)": figures_of(
            truth, out_of_fold.verdicts, out_of_fold.probabilities
        ),
        "rules (nothing trained)": figures_of(
            truth, [v.hallucinated for v in rule_verdicts], [1.0 - v.support_score for v in rule_verdicts]
        ),
    }
    if args.json:
        print(json.dumps({name: asdict(figures) for name, figures in rows.items()}))
        return 0
    table = Table(title=f"free judge cross-validated on {args.data.name} ({args.split})")
    for heading in ("judge", "n", "hallucinated", "balanced acc. [95%]", "AUROC"):
        table.add_column(heading, justify="left" if heading == "judge" else "right")
    for name, figures in rows.items():
        interval = None if figures.low is None or figures.high is None else [figures.low, figures.high]
        auroc = "n/a" if figures.auroc is None else f"{figures.auroc:.3f}"
        table.add_row(name, str(figures.n), str(figures.positives),
                      balanced_accuracy_text(figures.balanced_accuracy, interval), auroc)  # fmt: skip
    Console().print(table)
    return 0


def _judged(result: dict[str, Any]) -> str:
    coverage = result["coverage"]
    return f"{coverage['judged']}/{coverage['total']}"
