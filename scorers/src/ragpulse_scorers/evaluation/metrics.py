"""Binary-classification metrics for judge evaluations, with the hallucinated class as the positive one.

Written out rather than taken from scikit-learn so the scorers need no numeric stack.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Confusion:
    tp: int
    fp: int
    tn: int
    fn: int

    @classmethod
    def of(cls, truth: Sequence[bool], predicted: Sequence[bool]) -> Confusion:
        if len(truth) != len(predicted):
            raise ValueError(f"{len(truth)} labels but {len(predicted)} predictions")
        pairs = list(zip(truth, predicted, strict=True))
        return cls(
            tp=sum(t and p for t, p in pairs),
            fp=sum(p and not t for t, p in pairs),
            tn=sum(not t and not p for t, p in pairs),
            fn=sum(t and not p for t, p in pairs),
        )

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.tn + self.fn

    @property
    def accuracy(self) -> float:
        return (self.tp + self.tn) / self.n if self.n else 0.0

    @property
    def precision(self) -> float:
        return _ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float:
        return _ratio(self.tp, self.tp + self.fn)

    @property
    def specificity(self) -> float:
        return _ratio(self.tn, self.tn + self.fp)

    @property
    def f1(self) -> float:
        return _ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn)

    @property
    def balanced_accuracy(self) -> float | None:
        """Mean of recall on each class; None unless both classes are present (one class alone would read as
        a perfect 1.000 for a judge that says the same thing every time)."""
        if not (self.tp + self.fn) or not (self.tn + self.fp):
            return None
        return (self.recall + self.specificity) / 2


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else 0.0


def auroc(truth: Sequence[bool], scores: Sequence[float]) -> float | None:
    """Area under the ROC curve: the chance a random positive outscores a random negative, ties counting half.

    Computed from ranks (Mann-Whitney U) with tied scores given their average rank. ``None`` when one class is
    absent, since the area is then undefined.
    """
    if len(truth) != len(scores):
        raise ValueError(f"{len(truth)} labels but {len(scores)} scores")
    positives = sum(1 for t in truth if t)
    negatives = len(truth) - positives
    if positives == 0 or negatives == 0:
        return None
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    ranks = [0.0] * len(scores)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and scores[order[end + 1]] == scores[order[start]]:
            end += 1
        average_rank = (start + end) / 2 + 1
        for position in range(start, end + 1):
            ranks[order[position]] = average_rank
        start = end + 1
    positive_rank_sum = sum(rank for rank, t in zip(ranks, truth, strict=True) if t)
    u_statistic = positive_rank_sum - positives * (positives + 1) / 2
    return u_statistic / (positives * negatives)
