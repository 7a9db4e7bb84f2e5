"""Train the learnt judge and write its model file; print its out-of-fold figures beside the rules'.

    python -m ragpulse_judge.training --ragtruth PATH/TO/RAGTruth/dataset \\
        --exclude ../shared/data/ragtruth_qa_dev.jsonl [--data FILE ...] [--folds 5] \\
        --out judge/src/ragpulse_judge/model.json

``--ragtruth`` reads the train split of RAGTruth's release (``response.jsonl``, ``source_info.jsonl``);
``--data`` adds labelled files in the RAGTruth-style or LFQA-style layout of ``ragpulse eval``. Every figure
printed is out-of-fold (grouped by source question) and says so; the rules' figure on the same answers is
printed beside it. The written file depends on nothing but the data: rerun, the same bytes.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from ragpulse_judge.features import FEATURE_NAMES
from ragpulse_judge.model import LearntModel, model_version, serialise
from ragpulse_judge.rules import LexicalJudge
from ragpulse_judge.training.data import LabelledAnswer, load_labelled_file, load_ragtruth_release
from ragpulse_judge.training.figures import Figures, figures_of
from ragpulse_judge.training.fit import (
    OutOfFold,
    ReadAnswer,
    cross_validate,
    read_corrupted,
    read_labelled,
    train,
)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    answers: list[LabelledAnswer] = []
    if args.ragtruth:
        answers.extend(load_ragtruth_release(args.ragtruth, args.exclude))
    for path in args.data:
        answers.extend(load_labelled_file(path))
    if args.tasks:
        answers = [answer for answer in answers if answer.task in args.tasks]
    if not answers:
        print("no labelled answers: give --ragtruth and/or --data", file=sys.stderr)
        return 2
    if args.calibrate_on and not any(answer.task in args.calibrate_on for answer in answers):
        tasks = ", ".join(sorted(args.calibrate_on))
        print(f"no answers of the tasks {tasks} to calibrate on", file=sys.stderr)
        return 2
    print(f"{len(answers)} answers, {len({a.group for a in answers})} questions", file=sys.stderr)
    read = read_labelled(answers, _progress(len(answers)))
    made = read_corrupted(read) if args.corrupt else []
    out_of_fold = cross_validate(read, args.folds, made, args.calibrate_on)
    rules = _rules_verdicts(answers)
    print(f"out-of-fold ({args.folds} folds grouped by question) vs the rules, on the same answers:")
    for task, positions in _by_task(read).items():
        baseline = figures_of(
            [answers[p].hallucinated for p in positions],
            [rules[p][0] for p in positions],
            [1.0 - rules[p][1] for p in positions],
        )
        learnt = _figures(out_of_fold, positions)
        print(f"  {task:<10} learnt {learnt.describe()}\n  {'':<10} rules  {baseline.describe()}")
    if args.splits > 1:
        _print_other_splits(read, made, out_of_fold, args)
    if args.out:
        calibration = [
            (logit, answer.answer.hallucinated)
            for logit, answer in zip(out_of_fold.worst_logits, read, strict=True)
            if args.calibrate_on is None or answer.answer.task in args.calibrate_on
        ]
        _write(args.out, read, made, calibration, args)
    return 0


def _write(
    out: Path,
    read: list[ReadAnswer],
    made: list[ReadAnswer],
    calibration: list[tuple[float, bool]],
    args: argparse.Namespace,
) -> None:
    trained = train(read, calibration, made)
    tasks: dict[str, int] = defaultdict(int)
    for answer in read:
        tasks[answer.answer.task] += 1
    data = LearntModel(
        features=FEATURE_NAMES,
        means=tuple(round(v, 6) for v in trained.claims.means),
        scales=tuple(round(v, 6) for v in trained.claims.scales),
        weights=tuple(round(v, 6) for v in trained.claims.weights),
        bias=round(trained.claims.bias, 6),
        answer_slope=round(trained.slope, 6),
        answer_intercept=round(trained.intercept, 6),
        threshold=round(trained.threshold, 6),
        version="",
        trained_on={
            "answers": dict(sorted(tasks.items())),
            "labelled_claims": sum(label is not None for answer in read for label in answer.labels),
            "sources": sorted(
                {"ragtruth-train" if args.ragtruth else "", *(p.name for p in args.data)} - {""}
            ),
            "folds": args.folds,
            "corrupted_copies": args.corrupt,
            **({"calibrated_on": sorted(args.calibrate_on)} if args.calibrate_on else {}),
        },
    ).as_dict()
    text = serialise(data)
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out} (version {model_version(text)})")


def _figures(out_of_fold: OutOfFold, positions: list[int]) -> Figures:
    return figures_of(
        [out_of_fold.answers[p].answer.hallucinated for p in positions],
        [out_of_fold.verdicts[p] for p in positions],
        [out_of_fold.probabilities[p] for p in positions],
    )


def _print_other_splits(
    read: list[ReadAnswer], made: list[ReadAnswer], first: OutOfFold, args: argparse.Namespace
) -> None:
    """The same cross-validation over other partitions of the questions, and each task's mean over all:
    the figure to choose between variants on, leaving split 0's to report."""
    by_task = _by_task(read)
    accuracies: dict[str, list[float]] = defaultdict(list)
    areas: dict[str, list[float]] = defaultdict(list)
    for split in range(args.splits):
        out_of_fold = cross_validate(read, args.folds, made, args.calibrate_on, split) if split else first
        for task, positions in by_task.items():
            figures = _figures(out_of_fold, positions)
            if split:
                print(f"  split {split:<4} {task:<10} learnt {figures.describe()}")
            if figures.balanced_accuracy is not None and figures.auroc is not None:
                accuracies[task].append(figures.balanced_accuracy)
                areas[task].append(figures.auroc)
    for task in by_task:
        if accuracies[task]:
            accuracy = sum(accuracies[task]) / len(accuracies[task])
            area = sum(areas[task]) / len(areas[task])
            spread = f"{min(accuracies[task]):.3f}-{max(accuracies[task]):.3f}"
            splits = f"mean of {len(accuracies[task])} splits"
            print(
                f"  {splits} {task:<10} learnt balanced accuracy {accuracy:.3f} ({spread}), AUROC {area:.3f}"
            )


def _rules_verdicts(answers: Sequence[LabelledAnswer]) -> list[tuple[bool, float]]:
    judge = LexicalJudge()
    verdicts = []
    for answer in answers:
        verdict = judge.judge_support(answer.question, answer.context, answer.answer)
        verdicts.append((verdict.hallucinated, verdict.support_score))
    return verdicts


def _by_task(read: Sequence[ReadAnswer]) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = defaultdict(list)
    for position, answer in enumerate(read):
        groups[answer.answer.task].append(position)
    if len(groups) > 1:
        groups["all"] = list(range(len(read)))
    return dict(groups)


def _progress(total: int) -> Callable[[int], None]:
    def report(done: int) -> None:
        if done % 500 == 0 or done == total:
            print(f"  read {done}/{total}", file=sys.stderr)

    return report


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m ragpulse_judge.training", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--ragtruth", type=Path, help="RAGTruth's dataset/ folder (response.jsonl, source_info.jsonl)"
    )
    parser.add_argument(
        "--exclude", type=Path, help="evaluation file whose questions and passages are left out"
    )
    parser.add_argument(
        "--data", type=Path, action="append", default=[], help="labelled JSONL (eval layouts)"
    )
    parser.add_argument("--tasks", type=lambda v: set(v.split(",")), help="only these tasks (QA,Summary,...)")
    parser.add_argument("--folds", type=int, default=5, help="grouped cross-validation folds (default 5)")
    parser.add_argument(
        "--splits", type=int, default=1,
        help="also cross-validate over this many partitions of the questions in all (split 0 is the "
        "reported one) and print each task's mean: choose between variants on those, not on split 0",
    )  # fmt: skip
    parser.add_argument(
        "--calibrate-on", type=lambda v: frozenset(v.split(",")), metavar="TASKS",
        help="choose the answer calibration and threshold on these tasks' answers only (e.g. QA); "
        "claims are still learnt from all the data",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, help="where to write the model file")
    parser.add_argument(
        "--no-corruptions", dest="corrupt", action="store_false",
        help="learn from people's labels alone, without corrupted copies of supported sentences",
    )  # fmt: skip
    return parser


if __name__ == "__main__":
    raise SystemExit(main())
