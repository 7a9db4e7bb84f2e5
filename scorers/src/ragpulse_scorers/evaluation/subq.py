"""Measuring the coverage scorer's judges against the
human annotations of Xie et al. 2024 (``subq_types.jsonl``, ``subq_coverage.jsonl`` in ../shared/data).

- subq-types: the judge types all sub-questions of a question in one call (as the ``coverage`` scorer does);
  accuracy against the annotators' majority type. Sub-questions whose annotators tie (2-2 of 4) have no
  majority and are left out of the accuracy (counted as ``tied``). The paper: humans agree with the majority
  74.6% of the time; GPT-4 reaches 77.5% zero-shot and 84.8% few-shot, its few-shot examples being these very
  annotated questions. Our prompt is zero-shot, so 77.5% is the like-for-like reference.
- subq-coverage: the judge decides, for each answer, which of its sub-questions it answers, in one call per
  answer; agreement with the human judgment (the paper: GPT-4 83%).

Every sub-question is an item (its id is its line in the file): the judge's verdict with its reasoning, or
the reason it has none. A failed call (after the client's retries and repairs) leaves that call's items
unjudged, and a sub-question the judge gave no valid verdict for (after being asked about again) stays
unjudged; neither is ever guessed. Agreement is over the judged items, shown with judged / total.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Generic, TypeVar

from ragpulse_scorers.evaluation.datasets import DatasetError, read_jsonl
from ragpulse_scorers.evaluation.items import Coverage, IsolatedJudging, ItemResult, judge_each
from ragpulse_scorers.metrics.coverage_metrics import SUB_QUESTION_TYPES, SubQuestionType

TYPES_REFERENCE = {"humans": 0.746, "gpt4_zero_shot": 0.775, "gpt4_few_shot": 0.848}
COVERAGE_REFERENCE = {"gpt4": 0.83}
NO_VERDICT = "the judge gave no valid verdict for this sub-question, also when asked again"

V = TypeVar("V")


@dataclass(frozen=True)
class Judged(Generic[V]):
    """A judge's verdict on one sub-question with its reasoning (and, for coverage, the quoted span)."""

    verdict: V
    reasoning: str
    text_span: str = ""


Classify = Callable[[str, list[str]], list[Judged[SubQuestionType] | None]]
JudgeAnswer = Callable[[str, list[str]], list[Judged[bool] | None]]
Advance = Callable[[int], None]


@dataclass(frozen=True)
class TypeExample:
    line: int
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
    line: int
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
        examples.append(TypeExample(line_number, _text(row, "question", path, line_number),
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
        examples.append(CoverageExample(line_number, _text(row, "answer", path, line_number),
                                        _text(row, "sub_question", path, line_number),
                                        judgment == "answered"))  # fmt: skip
    if limit is not None:
        kept = list(dict.fromkeys(e.answer for e in examples))[:limit]
        examples = [e for e in examples if e.answer in kept]
    return examples


def evaluate_types(
    examples: Sequence[TypeExample],
    classify: Classify,
    advance: Advance | None = None,
    judging: IsolatedJudging | None = None,
) -> dict[str, Any]:
    """Accuracy of ``classify`` (one call per question) against the annotators' majority; ``advance(n)``
    is called as the n sub-questions of each question are done."""
    judging = judging or IsolatedJudging()

    def judge_group(group: list[TypeExample]) -> list[ItemResult]:
        attempt = judging.attempt(partial(classify, group[0].question, [e.sub_question for e in group]))
        verdicts = attempt.value if attempt.value is not None else [None] * len(group)
        if advance is not None:
            advance(len(group))
        return [
            _item(str(example.line), example.majority, judged, attempt.failure)
            for example, judged in zip(group, verdicts, strict=True)
        ]

    groups = list(_grouped(examples, lambda e: e.question).values())
    items = [item for done in judge_each(groups, judge_group, judging) for item in done]
    labelled = [item for item in items if item.label is not None]
    judged_items = [item for item in labelled if item.judged]
    confusion = Counter((item.label, item.verdict) for item in judged_items)
    per_type = {}
    for type_ in SUB_QUESTION_TYPES:
        of_type = [item for item in labelled if item.label == type_]
        judged_of_type = sum(item.judged for item in of_type)
        per_type[type_] = {
            "n": judged_of_type,
            "coverage": Coverage.of(of_type).as_dict(),
            "accuracy": _share(confusion[(type_, type_)], judged_of_type),
        }
    return {
        "task": "subq-types",
        "n": len(judged_items),
        "coverage": Coverage.of(labelled).as_dict(),
        "tied": len(items) - len(labelled),
        "not_judged": sum(not item.judged for item in items),
        "accuracy": _share(sum(confusion[(t, t)] for t in SUB_QUESTION_TYPES), len(judged_items)),
        "per_type": per_type,
        "confusion": {t: {p: confusion[(t, p)] for p in SUB_QUESTION_TYPES} for t in SUB_QUESTION_TYPES},
        "reference": TYPES_REFERENCE,
        "stopped": judging.stopped,
        "interrupted": judging.interrupted,
        "items": [item.as_dict() for item in items],
    }


def evaluate_coverage(
    examples: Sequence[CoverageExample],
    judge_answer: JudgeAnswer,
    advance: Advance | None = None,
    judging: IsolatedJudging | None = None,
) -> dict[str, Any]:
    """Agreement of ``judge_answer`` (one call per answer) with the human answered/unanswered judgments;
    ``advance(n)`` is called as the n sub-questions of each answer are done."""
    judging = judging or IsolatedJudging()

    def judge_group(group: list[CoverageExample]) -> list[ItemResult]:
        attempt = judging.attempt(partial(judge_answer, group[0].answer, [e.sub_question for e in group]))
        verdicts = attempt.value if attempt.value is not None else [None] * len(group)
        if advance is not None:
            advance(len(group))
        return [
            _item(str(example.line), example.answered, judged, attempt.failure)
            for example, judged in zip(group, verdicts, strict=True)
        ]

    groups = list(_grouped(examples, lambda e: e.answer).values())
    items = [item for done in judge_each(groups, judge_group, judging) for item in done]
    judged_items = [item for item in items if item.judged]
    outcomes = Counter((bool(item.label), bool(item.verdict)) for item in judged_items)
    n = len(judged_items)
    true_positive = outcomes[(True, True)]
    precision = _share(true_positive, true_positive + outcomes[(False, True)])
    recall = _share(true_positive, true_positive + outcomes[(True, False)])
    return {
        "task": "subq-coverage",
        "n": n,
        "coverage": Coverage.of(items).as_dict(),
        "not_judged": len(items) - n,
        "agreement": _share(outcomes[(True, True)] + outcomes[(False, False)], n),
        "precision": precision,
        "recall": recall,
        "f1": _share(2 * precision * recall, precision + recall)
        if precision is not None and recall
        else None,
        "human_answered_share": _share(outcomes[(True, True)] + outcomes[(True, False)], n),
        "positive_class": "answered",
        "reference": COVERAGE_REFERENCE,
        "stopped": judging.stopped,
        "interrupted": judging.interrupted,
        "items": [item.as_dict() for item in items],
    }


def _item(item_id: str, label: Any, judged: Judged[Any] | None, failure: str) -> ItemResult:
    if judged is None:
        return ItemResult(item_id, label, not_judged=failure or NO_VERDICT)
    fields = {"text_span": judged.text_span} if judged.text_span else {}
    return ItemResult(item_id, label, judged.verdict, judged.reasoning, fields=fields)


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
