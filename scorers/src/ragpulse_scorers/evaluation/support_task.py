"""Running a support judge over labelled data: response-level detection and, for LFQA, sentence agreement."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ragpulse_judge.verdicts import SupportJudge, SupportVerdict

from ragpulse_scorers.evaluation.datasets import SupportDataset, SupportExample
from ragpulse_scorers.evaluation.items import Coverage, IsolatedJudging, ItemResult, judge_each
from ragpulse_scorers.evaluation.metrics import Confusion, auroc
from ragpulse_scorers.labels.agreement import Confusion as AgreementCounts
from ragpulse_scorers.labels.agreement import agreement

Advance = Callable[[int], None]


@dataclass(frozen=True)
class SentenceAgreement:
    """Judge vs people on single sentences; the positive class is "not (fully) supported"."""

    confusion: Confusion
    items: list[ItemResult]

    def as_dict(self) -> dict[str, Any]:
        c = self.confusion
        return {
            "n": c.n,
            "coverage": Coverage.of(self.items).as_dict(),
            "balanced_accuracy": c.balanced_accuracy,
            "balanced_accuracy_interval": balanced_accuracy_interval(c),
            "accuracy": c.accuracy,
            "f1": c.f1,
            "items": [item.as_dict() for item in self.items],
        }


@dataclass(frozen=True)
class SupportReport:
    """Response-level detection of the hallucinated class, with AUROC of 1 - support score, over the judged
    responses; ``items`` has every response, judged or not."""

    confusion: Confusion
    auroc: float | None
    items: list[ItemResult]
    sentences: SentenceAgreement | None = None
    stopped: str = ""
    interrupted: bool = False

    @property
    def coverage(self) -> Coverage:
        return Coverage.of(self.items)

    def as_dict(self) -> dict[str, Any]:
        c = self.confusion
        report: dict[str, Any] = {
            "n": c.n,
            "coverage": self.coverage.as_dict(),
            "balanced_accuracy": c.balanced_accuracy,
            "balanced_accuracy_interval": balanced_accuracy_interval(c),
            "precision": c.precision,
            "recall": c.recall,
            "f1": c.f1,
            "auroc": self.auroc,
            "accuracy": c.accuracy,
            "positives": c.tp + c.fn,
            "confusion": {"tp": c.tp, "fp": c.fp, "tn": c.tn, "fn": c.fn},
            "positive_class": "hallucinated",
            "stopped": self.stopped,
            "items": [item.as_dict() for item in self.items],
        }
        if self.sentences is not None:
            report["sentences"] = self.sentences.as_dict()
        return report


def balanced_accuracy_interval(confusion: Confusion) -> list[float] | None:
    """The 95% interval of the balanced accuracy (delta method, as on the review page); None without it."""
    figure = agreement(
        AgreementCounts(confusion.tp, confusion.fn, confusion.fp, confusion.tn)
    ).balanced_accuracy
    return (
        None if figure.low is None or figure.high is None else [round(figure.low, 4), round(figure.high, 4)]
    )


def total_judgements(dataset: SupportDataset, sentences: bool = True) -> int:
    """How many judge calls :func:`evaluate_support` makes (for a progress bar)."""
    claims = sum(len(e.sentences) for e in dataset.sentence_examples or []) if sentences else 0
    return len(dataset.examples) + claims


def evaluate_support(
    dataset: SupportDataset,
    judge: SupportJudge,
    *,
    workers: int = 1,
    advance: Advance | None = None,
    sentences: bool = True,
    judging: IsolatedJudging | None = None,
) -> SupportReport:
    """Judge every response (and, for LFQA with ``sentences``, every annotated sentence); ``workers`` > 1
    suits network judges. A response the judge fails on is recorded with the reason and left out; once
    ``judging`` stops (Ctrl-C, a judge that is down) the rest are recorded as not tried."""
    judging = judging or IsolatedJudging()
    items = _judge_all(judge, dataset.examples, workers, advance, judging)
    confusion, area = _agreement(items)
    sentence_agreement = None
    if sentences and dataset.sentence_examples is not None:
        claims = [
            SupportExample(f"{e.response.id}#{i}", e.response.group, e.response.question, e.response.context,
                           sentence.text, not sentence.supported)
            for e in dataset.sentence_examples
            for i, sentence in enumerate(e.sentences)
        ]  # fmt: skip
        claim_items = _judge_all(judge, claims, workers, advance, judging)
        sentence_agreement = SentenceAgreement(_agreement(claim_items)[0], claim_items)
    return SupportReport(confusion, area, items, sentence_agreement, judging.stopped, judging.interrupted)


def _agreement(items: Sequence[ItemResult]) -> tuple[Confusion, float | None]:
    judged = [item for item in items if item.judged]
    truth = [bool(item.label) for item in judged]
    confusion = Confusion.of(truth, [bool(item.verdict) for item in judged])
    return confusion, auroc(truth, [1.0 - float(item.fields["support_score"]) for item in judged])


def _judge_all(
    judge: SupportJudge,
    examples: Sequence[SupportExample],
    workers: int,
    advance: Advance | None,
    judging: IsolatedJudging,
) -> list[ItemResult]:
    def judge_one(example: SupportExample) -> ItemResult:
        attempt = judging.attempt(
            lambda: judge.judge_support(example.question, example.context, example.response)
        )
        if advance is not None:
            advance(1)
        if attempt.value is None:
            return ItemResult(example.id, example.hallucinated, not_judged=attempt.failure)
        return _item(example, attempt.value)

    return judge_each(examples, judge_one, judging, workers)


def _item(example: SupportExample, verdict: SupportVerdict) -> ItemResult:
    return ItemResult(
        example.id,
        label=example.hallucinated,
        verdict=verdict.hallucinated,
        reasoning=verdict.explanation,
        fields={"support_score": verdict.support_score, **verdict.trace},
    )
