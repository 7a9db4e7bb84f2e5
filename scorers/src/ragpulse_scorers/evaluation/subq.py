"""Measuring the coverage scorer's judges against the
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

import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragpulse_scorers.evaluation.datasets import DatasetError, read_jsonl
from ragpulse_scorers.llm.errors import JudgeError
from ragpulse_scorers.metrics.coverage_metrics import SUB_QUESTION_TYPES, SubQuestionType

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


def _grouped(examples: Sequence[Any], key: Callable[[Any], str]) -> dict[str, list[Any]]:
    groups: dict[str, list[Any]] = {}
    for example in examples:
        groups.setdefault(key(example), []).append(example)
    return groups


def _share(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def _text(row: dict[str, Any], key: str, path: Path, line_number: int) -> str:
    value = row.get(key)
    if not isinstance(value, str) or not value.strip():
        raise DatasetError(f"{path}:{line_number}: {key} must be a non-empty string")
    return value
