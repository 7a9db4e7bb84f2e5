"""``ragpulse eval subq-types`` and ``ragpulse eval subq-coverage``: the coverage scorer's judges against the
human annotations of Xie et al. 2024 (``subq_types.jsonl``, ``subq_coverage.jsonl`` in ../shared/data).

- subq-types: the judge types all sub-questions of a question in one call (as the ``coverage`` scorer does);
  accuracy against the annotators' majority type. Sub-questions whose annotators tie (2-2 of 4) have no
  majority and are left out of the accuracy (counted as ``tied``). The paper: humans agree with the majority
  74.6% of the time; GPT-4 reaches 77.5% zero-shot and 84.8% few-shot, its few-shot examples being these very
  annotated questions. Our prompt is zero-shot, so 77.5% is the like-for-like reference.
- subq-coverage: the judge decides, for each answer, which of its sub-questions it answers, in one call per
  answer; agreement with the human judgment (the paper: GPT-4 83%).

A judge failure (after the client's retries and repair) leaves that call's examples out, counted as
``failed``; they are never guessed.
"""

from __future__ import annotations

import argparse
import json
import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table

from ragpulse_scorers.evaluation.datasets import DatasetError, read_jsonl
from ragpulse_scorers.judges.coverage import CoverageJudge
from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.llm.errors import JudgeError
from ragpulse_scorers.metrics.coverage_metrics import SUB_QUESTION_TYPES, SubQuestionType
from ragpulse_scorers.settings import ScorersSettings

logger = logging.getLogger(__name__)

TYPES_REFERENCE = {"humans": 0.746, "gpt4_zero_shot": 0.775, "gpt4_few_shot": 0.848}
COVERAGE_REFERENCE = {"gpt4": 0.83}

Classify = Callable[[str, list[str]], list[SubQuestionType]]
JudgeAnswer = Callable[[str, list[str]], list[bool]]


@dataclass(frozen=True)
class TypeExample:
    question: str
    sub_question: str
    annotator_types: tuple[SubQuestionType, ...]

    @property
    def majority(self) -> SubQuestionType | None:
        """The most frequent annotated type; ``None`` when two types tie for most."""
        ranked = Counter(self.annotator_types).most_common()
        if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
            return None
        return ranked[0][0]


@dataclass(frozen=True)
class CoverageExample:
    answer: str
    sub_question: str
    answered: bool


def load_type_examples(path: Path, limit: int | None = None) -> list[TypeExample]:
    """Rows with ``question``, ``sub_question``, ``annotator_types``; ``limit`` counts questions."""
    examples = []
    for line_number, row in read_jsonl(path):
        types = row.get("annotator_types")
        if not isinstance(types, list) or not types or any(t not in SUB_QUESTION_TYPES for t in types):
            raise DatasetError(
                f"{path}:{line_number}: annotator_types must be a list of {SUB_QUESTION_TYPES}"
            )
        examples.append(TypeExample(_text(row, "question", path, line_number),
                                    _text(row, "sub_question", path, line_number), tuple(types)))  # fmt: skip
    if limit is not None:
        kept = list(dict.fromkeys(e.question for e in examples))[:limit]
        examples = [e for e in examples if e.question in kept]
    return examples


def load_coverage_examples(path: Path, limit: int | None = None) -> list[CoverageExample]:
    """Rows with ``answer``, ``sub_question``, ``judgment``; ``limit`` counts answers."""
    examples = []
    for line_number, row in read_jsonl(path):
        judgment = row.get("judgment")
        if judgment not in ("answered", "unanswered"):
            raise DatasetError(f"{path}:{line_number}: judgment must be 'answered' or 'unanswered'")
        examples.append(CoverageExample(_text(row, "answer", path, line_number),
                                        _text(row, "sub_question", path, line_number),
                                        judgment == "answered"))  # fmt: skip
    if limit is not None:
        kept = list(dict.fromkeys(e.answer for e in examples))[:limit]
        examples = [e for e in examples if e.answer in kept]
    return examples


def evaluate_types(examples: Sequence[TypeExample], classify: Classify) -> dict[str, Any]:
    """Accuracy of ``classify`` (one call per question) against the annotators' majority."""
    confusion: Counter[tuple[str, str]] = Counter()
    tied = failed = 0
    for question, group in _grouped(examples, lambda e: e.question).items():
        try:
            predicted = classify(question, [e.sub_question for e in group])
        except JudgeError as exc:
            logger.warning("judge failed on question %r: %s", question[:60], exc)
            failed += len(group)
            continue
        for example, prediction in zip(group, predicted, strict=True):
            majority = example.majority
            if majority is None:
                tied += 1
            else:
                confusion[(majority, prediction)] += 1
    n = sum(confusion.values())
    per_type = {}
    for type_ in SUB_QUESTION_TYPES:
        of_type = sum(count for (truth, _), count in confusion.items() if truth == type_)
        per_type[type_] = {"n": of_type, "accuracy": _share(confusion[(type_, type_)], of_type)}
    return {
        "task": "subq-types",
        "n": n,
        "tied": tied,
        "failed": failed,
        "accuracy": _share(sum(confusion[(t, t)] for t in SUB_QUESTION_TYPES), n),
        "per_type": per_type,
        "confusion": {t: {p: confusion[(t, p)] for p in SUB_QUESTION_TYPES} for t in SUB_QUESTION_TYPES},
        "reference": TYPES_REFERENCE,
    }


def evaluate_coverage(examples: Sequence[CoverageExample], judge_answer: JudgeAnswer) -> dict[str, Any]:
    """Agreement of ``judge_answer`` (one call per answer) with the human answered/unanswered judgments."""
    outcomes: Counter[tuple[bool, bool]] = Counter()
    failed = 0
    for answer, group in _grouped(examples, lambda e: e.answer).items():
        try:
            predicted = judge_answer(answer, [e.sub_question for e in group])
        except JudgeError as exc:
            logger.warning("judge failed on an answer: %s", exc)
            failed += len(group)
            continue
        for example, prediction in zip(group, predicted, strict=True):
            outcomes[(example.answered, prediction)] += 1
    n = sum(outcomes.values())
    true_positive = outcomes[(True, True)]
    precision = _share(true_positive, true_positive + outcomes[(False, True)])
    recall = _share(true_positive, true_positive + outcomes[(True, False)])
    return {
        "task": "subq-coverage",
        "n": n,
        "failed": failed,
        "agreement": _share(outcomes[(True, True)] + outcomes[(False, False)], n),
        "precision": precision,
        "recall": recall,
        "f1": _share(2 * precision * recall, precision + recall)
        if precision is not None and recall
        else None,
        "human_answered_share": _share(outcomes[(True, True)] + outcomes[(True, False)], n),
        "reference": COVERAGE_REFERENCE,
    }


def register(tasks: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for name, help_text, data_help, run in (
        ("subq-types", "sub-question typing (core / background / follow-up) vs annotators' majority",
         "JSONL like subq_types.jsonl", run_types),
        ("subq-coverage", "sub-question coverage of answers vs human judgments",
         "JSONL like subq_coverage.jsonl", run_coverage),
    ):  # fmt: skip
        parser = tasks.add_parser(name, help=help_text, description=help_text)
        parser.add_argument("--data", type=Path, required=True, help=data_help)
        parser.add_argument("--judge", choices=["openai"], default="openai", help="judge to measure")
        parser.add_argument("--model", help="judge model (default: judge.model, $RAGPULSE_JUDGE_MODEL)")
        parser.add_argument(
            "--limit", type=int, help="at most this many questions (types) or answers (coverage)"
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
        parser.set_defaults(func=run)


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


def _grouped(examples: Sequence[Any], key: Callable[[Any], str]) -> dict[str, list[Any]]:
    groups: dict[str, list[Any]] = {}
    for example in examples:
        groups.setdefault(key(example), []).append(example)
    return groups


def _share(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def _text(row: dict[str, Any], key: str, path: Path, line_number: int) -> str:
    value = row.get(key)
    if not isinstance(value, str) or not value.strip():
        raise DatasetError(f"{path}:{line_number}: {key} must be a non-empty string")
    return value
