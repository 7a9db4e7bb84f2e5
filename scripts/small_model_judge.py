"""The LLM support judge on a small local model: entailment mode beside the TRACe form, on the same responses.

Reproduces the small-model figures of docs/judge-quality.md. The responses are the rows of ``--data`` in the
order of a shuffle seeded with ``--seed``, the first ``--items`` of it (after the first ``--skip``, responses
an earlier run already judged): a fixed rule, not a choice made on results. Each mode judges them in that
order with the judge that ``ragpulse eval support --judge openai`` builds; every item's verdict, each
sentence's chance of "no" (entailment mode) and time go to ``--out`` as one JSON line as soon as it is judged,
so a stopped run resumes where it stopped and the figures cover the items judged so far.

Entailment mode's threshold is chosen on RAGTruth's train split (``--data
judge/training-data/ragtruth_qa_train.jsonl --choose-threshold``) and only then measured on the dev rows:

    export $(RAGPULSE_LLM_PORT=8791 ../shared/llm/local-llm.sh start)
    export RAGPULSE_JUDGE_MODEL=$RAGPULSE_LLM_MODEL
    nice -n 5 .venv/bin/python scripts/small_model_judge.py --modes entailment --choose-threshold \
        --data judge/training-data/ragtruth_qa_train.jsonl --items 12 --seed 7 --out small-model-train.jsonl
    nice -n 5 .venv/bin/python scripts/small_model_judge.py --items 48 --out small-model.jsonl
    .venv/bin/python scripts/small_model_judge.py --items 48 --out small-model.jsonl --report

The model server must be this run's alone: another client's prompts evict its prompt cache.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

from ragpulse_scorers.commands.eval_support import balanced_accuracy_text
from ragpulse_scorers.evaluation.datasets import SupportExample, load_support_dataset
from ragpulse_scorers.evaluation.metrics import Confusion, auroc
from ragpulse_scorers.evaluation.support_task import balanced_accuracy_interval
from ragpulse_scorers.judges.entailment import UNSUPPORTED_ABOVE, EntailmentSupportJudge
from ragpulse_scorers.judges.support import OpenAISupportJudge
from ragpulse_scorers.llm.endpoint import ready_client
from ragpulse_scorers.llm.errors import JudgeError
from ragpulse_scorers.settings import ScorersSettings
from rich.console import Console
from rich.table import Table

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "ragtruth_qa_dev.jsonl"
MODES = ("entailment", "trace")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="RAGTruth-style JSONL")
    parser.add_argument("--items", type=int, default=48, help="the first N responses of the shuffle")
    parser.add_argument("--seed", type=int, default=40, help="seed of the shuffle (default 40)")
    parser.add_argument(
        "--skip", type=int, default=0, help="leave out the first N of the shuffle (judged by an earlier run)"
    )
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES), help="modes, in turn")
    parser.add_argument("--model", help="judge model (default: judge.model, $RAGPULSE_JUDGE_MODEL)")
    parser.add_argument("--out", type=Path, required=True, help="JSONL of per-item results (appended)")
    parser.add_argument("--report", action="store_true", help="print the figures of --out and exit")
    parser.add_argument(
        "--choose-threshold",
        action="store_true",
        help="also print entailment mode's balanced accuracy at each threshold (on a train split only)",
    )
    args = parser.parse_args()
    chosen = chosen_items(args.data, args.items, args.seed, args.skip)
    if not args.report:
        for mode in args.modes:
            judge_items(mode, chosen, args.model, args.out)
    report(chosen, args.modes, args.out)
    if args.choose_threshold:
        threshold_table(chosen, args.out)


def chosen_items(data: Path, items: int, seed: int, skip: int = 0) -> list[SupportExample]:
    examples = load_support_dataset(data).examples
    order = list(range(len(examples)))
    random.Random(seed).shuffle(order)
    # Rows without an id (RAGTruth train rows) are named by their line, so a resumed run finds them.
    return [
        dataclasses.replace(examples[position], id=examples[position].id or f"line{position + 1}")
        for position in order[skip : skip + items]
    ]


def judge_items(mode: str, chosen: list[SupportExample], model: str | None, out: Path) -> None:
    done = {(row["mode"], row["id"]) for row in _rows(out)}
    settings = ScorersSettings.load(None, judge={"model": model, "support_mode": mode}).judge
    client = ready_client(settings)
    judge = EntailmentSupportJudge(client) if mode == "entailment" else OpenAISupportJudge(client)
    console = Console(stderr=True)
    for number, example in enumerate(chosen, 1):
        if (mode, example.id) in done:
            continue
        started = time.monotonic()
        row: dict[str, Any] = {"mode": mode, "id": example.id, "hallucinated": example.hallucinated}
        try:
            verdict = judge.judge_support(example.question, example.context, example.response)
        except JudgeError as exc:
            row |= {"error": str(exc)}
        else:
            row |= {"verdict": verdict.hallucinated, "support_score": verdict.support_score}
            if mode == "entailment":
                row["chances"] = [round(1.0 - sentence.score, 4) for sentence in verdict.sentences]
        row["seconds"] = round(time.monotonic() - started, 1)
        with out.open("a", encoding="utf-8") as sink:
            sink.write(json.dumps(row) + "\n")
        console.print(f"{mode} {number}/{len(chosen)} {example.id}: {row}")


def report(chosen: list[SupportExample], modes: list[str], out: Path) -> None:
    wanted = {example.id for example in chosen}
    table = Table(title=f"support judge on {len(chosen)} chosen responses (from {out})")
    for heading in ("mode", "judged", "halluc./not", "balanced acc. [95%]", "AUROC", "s/item mean", "median"):
        table.add_column(heading, justify="left" if heading == "mode" else "right")
    counts = []
    for mode in modes:
        rows = [row for row in _rows(out) if row["mode"] == mode and row["id"] in wanted]
        judged = [row for row in rows if "verdict" in row]
        truth = [bool(row["hallucinated"]) for row in judged]
        confusion = Confusion.of(truth, [_flagged(row) for row in judged])
        accuracy = confusion.balanced_accuracy
        interval = balanced_accuracy_interval(confusion)
        area = auroc(truth, [1.0 - row["support_score"] for row in judged])
        seconds = [row["seconds"] for row in rows]
        table.add_row(
            mode,
            f"{len(judged)}/{len(rows)}",
            f"{sum(truth)}/{len(truth) - sum(truth)}",
            balanced_accuracy_text(accuracy, interval),
            "n/a" if area is None else f"{area:.3f}",
            f"{statistics.fmean(seconds):.0f}" if seconds else "",
            f"{statistics.median(seconds):.0f}" if seconds else "",
        )
        counts.append(f"{mode}: tp {confusion.tp}, fp {confusion.fp}, tn {confusion.tn}, fn {confusion.fn}")
    table.caption = "; ".join(counts) + " (positive: hallucinated; s/item counts items not judged too)"
    Console().print(table)


def threshold_table(chosen: list[SupportExample], out: Path) -> None:
    """Entailment mode's balanced accuracy if an answer were flagged when its least backed sentence's chance
    of "no" is over each threshold: how ``UNSUPPORTED_ABOVE`` is chosen, on a train split."""
    wanted = {example.id for example in chosen}
    judged = [row for row in _rows(out) if row["mode"] == "entailment" and row["id"] in wanted]
    judged = [row for row in judged if "chances" in row]
    truth = [bool(row["hallucinated"]) for row in judged]
    highest = [max(row["chances"], default=0.0) for row in judged]
    table = Table(title=f"entailment mode by threshold, {len(judged)} responses (now {UNSUPPORTED_ABOVE})")
    for heading in ("flag when max P(no) >", "balanced acc. [95%]", "tp", "fp", "tn", "fn"):
        table.add_column(heading, justify="right")
    for step in range(5, 100, 5):
        threshold = step / 100
        confusion = Confusion.of(truth, [chance > threshold for chance in highest])
        interval = balanced_accuracy_interval(confusion)
        table.add_row(
            f"{threshold:.2f}",
            balanced_accuracy_text(confusion.balanced_accuracy, interval),
            *(str(count) for count in (confusion.tp, confusion.fp, confusion.tn, confusion.fn)),
        )
    Console().print(table)


def _flagged(row: dict[str, Any]) -> bool:
    """The verdict at today's ``UNSUPPORTED_ABOVE`` where the sentences' chances were recorded (a run made
    before the threshold was chosen is read as the judge would now read it), else the recorded verdict."""
    if "chances" in row:
        return max(row["chances"], default=0.0) > UNSUPPORTED_ABOVE
    return bool(row["verdict"])


def _rows(out: Path) -> list[dict[str, Any]]:
    if not out.exists():
        return []
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]


if __name__ == "__main__":
    main()
