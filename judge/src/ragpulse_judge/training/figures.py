"""Balanced accuracy with its 95% interval and AUROC: the figures the training script and docs print.

The interval is the delta method's, as in the scorers' agreement figures: a quarter of the summed binomial
variances of sensitivity and specificity (the positives and the negatives are independent samples).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959964


@dataclass(frozen=True)
class Figures:
    n: int
    positives: int
    balanced_accuracy: float | None
    low: float | None
    high: float | None
    auroc: float | None

    def describe(self) -> str:
        if self.balanced_accuracy is None or self.low is None or self.high is None:
            accuracy = "balanced accuracy undefined (needs both labels)"
        else:
            accuracy = f"balanced accuracy {self.balanced_accuracy:.3f} [{self.low:.3f}, {self.high:.3f}]"
        area = "n/a" if self.auroc is None else f"{self.auroc:.3f}"
        return f"{accuracy}, AUROC {area}, n={self.n} ({self.positives} hallucinated)"


def figures_of(labels: Sequence[bool], verdicts: Sequence[bool], scores: Sequence[float]) -> Figures:
    """``scores`` rise with the chance of the hallucinated class."""
    positives = sum(labels)
    negatives = len(labels) - positives
    if not positives or not negatives:
        return Figures(len(labels), positives, None, None, None, None)
    sensitivity = sum(v and t for v, t in zip(verdicts, labels, strict=True)) / positives
    specificity = sum(not v and not t for v, t in zip(verdicts, labels, strict=True)) / negatives
    value = (sensitivity + specificity) / 2
    variance = (sensitivity * (1 - sensitivity) / positives + specificity * (1 - specificity) / negatives) / 4
    half = Z95 * math.sqrt(variance)
    return Figures(
        len(labels), positives, value, max(0.0, value - half), min(1.0, value + half), auroc(labels, scores)
    )


def auroc(labels: Sequence[bool], scores: Sequence[float]) -> float | None:
    """The chance a random positive outscores a random negative, ties counting half."""
    positives = [s for s, t in zip(scores, labels, strict=True) if t]
    negatives = [s for s, t in zip(scores, labels, strict=True) if not t]
    if not positives or not negatives:
        return None
    ranked = sorted(scores)
    below: dict[float, float] = {}
    for position, score in enumerate(ranked):
        below.setdefault(score, position)
    counts: dict[float, int] = {}
    for score in ranked:
        counts[score] = counts.get(score, 0) + 1
    rank_sum = sum(below[s] + (counts[s] + 1) / 2 for s in positives)
    u_statistic = rank_sum - len(positives) * (len(positives) + 1) / 2
    return u_statistic / (len(positives) * len(negatives))
