"""A judge measured against people: sensitivity, specificity, balanced accuracy and Cohen's kappa, each with a
95% interval and its n, from the 2×2 table of the judge's verdicts against the labels.

"Positive" is hallucinated. Sensitivity and specificity are proportions: Wilson intervals. Balanced accuracy
and kappa are not, and their intervals come from the delta method: BA's variance is a quarter of the summed
variances of sensitivity and specificity (independent samples: the positives and the negatives); kappa's is
the large-sample variance of Fleiss, Cohen & Everitt (1969, Psychological Bulletin 72:323). Closed forms keep
the figures reproducible (no resampling seed) and cheap enough to compute per judge, service and variant.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from ragpulse_scorers.stats import Z95, wilson_interval


@dataclass(frozen=True)
class Confusion:
    """Counts of the judge's verdicts against people's labels (positive: hallucinated)."""

    true_positives: int = 0
    false_negatives: int = 0
    false_positives: int = 0
    true_negatives: int = 0

    @classmethod
    def of(cls, pairs: Iterable[tuple[bool, bool]]) -> Confusion:
        """From (judge says hallucinated, person says hallucinated) pairs."""
        counts = [0, 0, 0, 0]
        for judged, labelled in pairs:
            counts[(0 if judged else 1) if labelled else (2 if judged else 3)] += 1
        return cls(*counts)

    @property
    def positives(self) -> int:
        return self.true_positives + self.false_negatives

    @property
    def negatives(self) -> int:
        return self.false_positives + self.true_negatives

    @property
    def n(self) -> int:
        return self.positives + self.negatives


@dataclass(frozen=True)
class Figure:
    """One figure with its 95% interval; None when the counts cannot define it (e.g. no positives)."""

    value: float | None
    low: float | None
    high: float | None
    n: int


@dataclass(frozen=True)
class Agreement:
    sensitivity: Figure
    specificity: Figure
    balanced_accuracy: Figure
    kappa: Figure
    n: int


def agreement(confusion: Confusion, z: float = Z95) -> Agreement:
    sensitivity = _proportion(confusion.true_positives, confusion.positives, z)
    specificity = _proportion(confusion.true_negatives, confusion.negatives, z)
    return Agreement(
        sensitivity=sensitivity,
        specificity=specificity,
        balanced_accuracy=_balanced_accuracy(confusion, z),
        kappa=_kappa(confusion, z),
        n=confusion.n,
    )


def _proportion(successes: int, n: int, z: float) -> Figure:
    if n == 0:
        return Figure(None, None, None, 0)
    low, high = wilson_interval(successes, n, z)
    return Figure(successes / n, low, high, n)


def _balanced_accuracy(confusion: Confusion, z: float) -> Figure:
    if confusion.positives == 0 or confusion.negatives == 0:
        return Figure(None, None, None, confusion.n)
    sensitivity = confusion.true_positives / confusion.positives
    specificity = confusion.true_negatives / confusion.negatives
    value = (sensitivity + specificity) / 2
    variance = (
        proportion_variance(confusion.true_positives, confusion.positives)
        + proportion_variance(confusion.true_negatives, confusion.negatives)
    ) / 4
    half = z * math.sqrt(variance)
    return Figure(value, max(0.0, value - half), min(1.0, value + half), confusion.n)


def _kappa(confusion: Confusion, z: float) -> Figure:
    n = confusion.n
    if n == 0:
        return Figure(None, None, None, 0)
    # Cells p[person][judge], 0 = hallucinated.
    cells = [
        [confusion.true_positives / n, confusion.false_negatives / n],
        [confusion.false_positives / n, confusion.true_negatives / n],
    ]
    rows = [cells[i][0] + cells[i][1] for i in range(2)]
    columns = [cells[0][j] + cells[1][j] for j in range(2)]
    observed = cells[0][0] + cells[1][1]
    chance = rows[0] * columns[0] + rows[1] * columns[1]
    if chance >= 1:  # both sides gave one verdict throughout: kappa is undefined
        return Figure(None, None, None, n)
    kappa = (observed - chance) / (1 - chance)
    a = sum(cells[i][i] * (1 - (rows[i] + columns[i]) * (1 - kappa)) ** 2 for i in range(2))
    b = (1 - kappa) ** 2 * sum(
        cells[i][j] * (columns[i] + rows[j]) ** 2 for i in range(2) for j in range(2) if i != j
    )
    c = (kappa - chance * (1 - kappa)) ** 2
    variance = max(0.0, a + b - c) / (n * (1 - chance) ** 2)
    half = z * math.sqrt(variance)
    return Figure(kappa, max(-1.0, kappa - half), min(1.0, kappa + half), n)


def proportion_variance(successes: int, n: int) -> float:
    """The variance of a proportion, with Agresti–Coull's two added successes and failures, so that a count of
    all successes (or none) does not claim to be exact; the delta-method intervals here build on it."""
    adjusted = (successes + 2) / (n + 4)
    return adjusted * (1 - adjusted) / n
