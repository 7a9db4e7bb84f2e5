"""The lexical judge on labelled answers as written and as models format them, side by side in one run.

Every row of a RAGTruth-style file is judged plain and in each style of
:mod:`ragpulse_scorers.evaluation.formatted_answers` (markdown, citation markers, preambles, tables).
The goal: each style's balanced accuracy within 0.02 of the plain answers'. The table also counts the
responses whose verdict the formatting changed, and checks that every labelled hallucinated span still
reads, word for word, in the sentences the judge sees (the rewriting must not change which claims are
hallucinated).

    python benchmarks/bench_formatted_answers.py --data ../shared/data/ragtruth_qa_dev.jsonl --split holdout
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from ragpulse_judge.text import split_sentences
from ragpulse_scorers.evaluation.datasets import (
    Split,
    SupportDataset,
    SupportExample,
    load_support_dataset,
    read_jsonl,
)
from ragpulse_scorers.evaluation.formatted_answers import STYLES, formatted
from ragpulse_scorers.evaluation.support_task import SupportReport, evaluate_support
from ragpulse_scorers.lexical import LexicalJudge
from rich.console import Console
from rich.markup import escape
from rich.table import Table

GOAL_DIFFERENCE = 0.02
DEFAULT_DATA = Path("../shared/data/ragtruth_qa_dev.jsonl")
_WORDS = re.compile(r"[^\W_]+")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--split", type=Split, choices=list(Split), default=Split.ALL)
    args = parser.parse_args(argv)
    console = Console(width=120)
    if not args.data.exists():
        console.print(f"skipped: no labelled data at {args.data} (pass --data)")
        return 0
    examples = load_support_dataset(args.data, args.split).examples
    spans = _hallucinated_spans(args.data)
    judge = LexicalJudge()
    plain = evaluate_support_quietly(examples, judge)
    table = Table(
        title=f"lexical judge, plain vs formatted answers: {args.data.name} ({args.split}, n={len(examples)})"
    )
    for heading in ("answers", "balanced acc.", "Δ vs plain", "AUROC", "verdicts changed", "spans kept"):
        table.add_column(heading, justify="left" if heading == "answers" else "right", no_wrap=True)
    table.add_row("plain", f"{plain.confusion.balanced_accuracy:.3f}", "", _auroc(plain), "", "")
    worst = 0.0
    for style in STYLES:
        rewritten = formatted(examples, style)
        report = evaluate_support_quietly(rewritten, judge)
        difference = report.confusion.balanced_accuracy - plain.confusion.balanced_accuracy
        worst = max(worst, abs(difference))
        changed = sum(a.verdict != b.verdict for a, b in zip(plain.items, report.items, strict=True))
        kept = sum(_spans_kept(example, spans.get(example.id, [])) for example in rewritten)
        table.add_row(
            escape(style),
            f"{report.confusion.balanced_accuracy:.3f}",
            f"{difference:+.3f}",
            _auroc(report),
            f"{changed}/{len(examples)}",
            f"{kept}/{len(examples)}",
        )
    verdict = "met" if worst <= GOAL_DIFFERENCE else "MISSED"
    table.caption = (
        f"goal: every style within {GOAL_DIFFERENCE} of plain: {verdict} (largest difference {worst:.3f})"
    )
    console.print(table)
    return 0 if worst <= GOAL_DIFFERENCE else 1


def evaluate_support_quietly(examples: list[SupportExample], judge: LexicalJudge) -> SupportReport:
    return evaluate_support(SupportDataset("ragtruth", examples), judge, workers=1)


def _hallucinated_spans(path: Path) -> dict[str, list[str]]:
    """The labelled hallucinated span texts of each row, by id (RAGTruth's ``spans``)."""
    return {
        str(row["id"]): [span["text"] for span in row.get("spans") or []]
        for _, row in read_jsonl(path)
        if "id" in row
    }


def _spans_kept(example: SupportExample, spans: list[str]) -> bool:
    """Each span's words appear, in order and together, in the words of the sentences the judge reads."""
    read = _read_words(example.response)
    return all(_read_words(span) in read for span in spans)


def _read_words(text: str) -> str:
    return " ".join(_WORDS.findall(" ".join(split_sentences(text))))


def _auroc(report: SupportReport) -> str:
    return "n/a" if report.auroc is None else f"{report.auroc:.3f}"


if __name__ == "__main__":
    sys.exit(main())
