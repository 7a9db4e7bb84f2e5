"""Running a support judge over labelled data: response-level detection and, for LFQA, sentence agreement."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ragpulse_scorers.evaluation.datasets import SupportDataset, SupportExample
from ragpulse_scorers.evaluation.metrics import Confusion, auroc
from ragpulse_scorers.verdicts import SupportJudge, SupportVerdict

Advance = Callable[[int], None]


@dataclass(frozen=True)
class SentenceAgreement:
    """Judge vs people on single sentences; the positive class is "not (fully) supported"."""

    confusion: Confusion

    def as_dict(self) -> dict[str, Any]:
        c = self.confusion
        return {"n": c.n, "balanced_accuracy": c.balanced_accuracy, "accuracy": c.accuracy, "f1": c.f1}


@dataclass(frozen=True)
class SupportReport:
    """Response-level detection of the hallucinated class, with AUROC of 1 - support score."""

    confusion: Confusion
    auroc: float | None
    sentences: SentenceAgreement | None = None

    def as_dict(self) -> dict[str, Any]:
        c = self.confusion
        report: dict[str, Any] = {
            "n": c.n,
            "balanced_accuracy": c.balanced_accuracy,
            "precision": c.precision,
            "recall": c.recall,
            "f1": c.f1,
            "auroc": self.auroc,
            "accuracy": c.accuracy,
            "positives": c.tp + c.fn,
            "confusion": {"tp": c.tp, "fp": c.fp, "tn": c.tn, "fn": c.fn},
        }
        if self.sentences is not None:
            report["sentences"] = self.sentences.as_dict()
        return report


def total_judgements(dataset: SupportDataset) -> int:
    """How many judge calls :func:`evaluate_support` makes (for a progress bar)."""
    sentences = sum(len(e.sentences) for e in dataset.sentence_examples or [])
    return len(dataset.examples) + sentences


def evaluate_support(
    dataset: SupportDataset, judge: SupportJudge, *, workers: int = 1, advance: Advance | None = None
) -> SupportReport:
    """Judge every response (and every annotated sentence, for LFQA); ``workers`` > 1 suits network judges."""
    verdicts = list(_judge_all(judge, dataset.examples, workers, advance))
    truth = [example.hallucinated for example in dataset.examples]
    confusion = Confusion.of(truth, [verdict.hallucinated for verdict in verdicts])
    area = auroc(truth, [1.0 - verdict.support_score for verdict in verdicts])
    sentence_agreement = None
    if dataset.sentence_examples is not None:
        claims = [
            SupportExample(f"{e.response.id}#{i}", e.response.group, e.response.question, e.response.context,
                           sentence.text, not sentence.supported)
            for e in dataset.sentence_examples
            for i, sentence in enumerate(e.sentences)
        ]  # fmt: skip
        claim_verdicts = _judge_all(judge, claims, workers, advance)
        sentence_agreement = SentenceAgreement(
            Confusion.of([c.hallucinated for c in claims], [v.hallucinated for v in claim_verdicts])
        )
    return SupportReport(confusion, area, sentence_agreement)


def _judge_all(
    judge: SupportJudge, examples: Iterable[SupportExample], workers: int, advance: Advance | None
) -> Iterator[SupportVerdict]:
    def judge_one(example: SupportExample) -> SupportVerdict:
        verdict = judge.judge_support(example.question, example.context, example.response)
        if advance is not None:
            advance(1)
        return verdict

    if workers <= 1:
        yield from map(judge_one, examples)
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(judge_one, examples)
