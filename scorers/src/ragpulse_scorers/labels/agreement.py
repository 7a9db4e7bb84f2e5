"""A judge measured against a reference (people's labels, or an LLM judge): sensitivity, specificity,
balanced accuracy and Cohen's kappa, each with a 95% interval and its n, from the 2×2 table of the judge's
verdicts against the reference's. The one place these figures are defined and written out: the report, the
live page and the review page call it, and Grafana's panels compute the same (``dashboards/grafana``).

"Positive" is hallucinated. A figure the table cannot define is None with the reason (a set labelled with one
class has no sensitivity or no specificity, and no balanced accuracy or kappa: a judge right on every answer
of a one-class set is indistinguishable from one that always says that class), written as "undefined (needs
both labels)" by :func:`figure_text`.

Intervals, each chosen so that a small n never gives a zero-width interval:

- sensitivity and specificity: Wilson's;
- balanced accuracy: the delta method, each class's variance Agresti and Coull's (two successes and two
  failures added, Am. Stat. 52:119, 1998), at the effective size under inverse-probability weights;
- kappa: Fleiss, Cohen and Everitt's large-sample variance (Psychological Bulletin 72:323, 1969) evaluated on
  the table with ½ added to every cell (Haldane and Anscombe's correction, the add-counts idea of Agresti and
  Coull), centred at that table's kappa, at Kish's effective size under weights. Computed on the raw table the
  variance is zero whenever a cell is empty ("1.00 [1.00, 1.00]" at n = 41, "0.00 [0.00, 0.00]" when the
  judge gave one verdict throughout), and its 95% interval covered the true kappa 59% of the time at n = 10
  (84% at n = 40); with the correction the least coverage over 108 settings at n = 10, 20 and 40 is 92.6%
  and the mean 96.5% to 98.1% (exact, by enumerating every table: ``python
  benchmarks/bench_kappa_coverage.py``). The figure shown is the raw table's kappa.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from ragpulse_scorers.stats import Z95, WeightedCount, wilson_interval

NEEDS_BOTH_LABELS = "needs both labels"
NEEDS_A_HALLUCINATED_LABEL = "needs a hallucinated label"
NEEDS_A_GROUNDED_LABEL = "needs a grounded label"
UNDEFINED = "undefined"
KAPPA_PSEUDO_COUNT = 0.5
"""Added to each cell of the table for kappa's variance (and the interval's centre)."""


@dataclass(frozen=True)
class Confusion:
    """Counts of the judge's verdicts against the reference's (positive: hallucinated)."""

    true_positives: int = 0
    false_negatives: int = 0
    false_positives: int = 0
    true_negatives: int = 0

    @classmethod
    def of(cls, pairs: Iterable[tuple[bool, bool]]) -> Confusion:
        """From (judge says hallucinated, reference says hallucinated) pairs."""
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
class Cells:
    """A confusion table's cells as sums of weights (TP, FN, FP, TN), and of squared weights beside them;
    with every weight 1 these are the counts and ``squared`` is None."""

    true_positives: float
    false_negatives: float
    false_positives: float
    true_negatives: float
    squared: tuple[float, float, float, float] | None = None

    @classmethod
    def counted(cls, confusion: Confusion) -> Cells:
        return cls(
            float(confusion.true_positives), float(confusion.false_negatives),
            float(confusion.false_positives), float(confusion.true_negatives),
        )  # fmt: skip

    def values(self) -> tuple[float, float, float, float]:
        return (self.true_positives, self.false_negatives, self.false_positives, self.true_negatives)

    def squares(self) -> tuple[float, float, float, float]:
        return self.squared if self.squared is not None else self.values()

    def class_count(self, positive: bool) -> WeightedCount:
        """The judge's right calls among the reference's positives (or negatives), as a weighted count."""
        tp, fn, fp, tn = self.values()
        s_tp, s_fn, s_fp, s_tn = self.squares()
        if positive:
            return WeightedCount(tp + fn, tp, s_tp + s_fn, s_tp)
        return WeightedCount(fp + tn, tn, s_fp + s_tn, s_tn)

    @property
    def effective_n(self) -> float:
        """Kish's effective size (Σw)² / Σw²: the number of requests when unweighted."""
        total, squares = sum(self.values()), sum(self.squares())
        return total * total / squares if squares > 0 else 0.0


@dataclass(frozen=True)
class Figure:
    """One figure with its 95% interval; value None when the table cannot define it, ``undefined`` says
    why."""

    value: float | None
    low: float | None
    high: float | None
    n: int
    undefined: str = ""


@dataclass(frozen=True)
class Agreement:
    sensitivity: Figure
    specificity: Figure
    balanced_accuracy: Figure
    kappa: Figure
    n: int


def agreement(confusion: Confusion, z: float = Z95) -> Agreement:
    cells = Cells.counted(confusion)
    return Agreement(
        sensitivity=_proportion(confusion.true_positives, confusion.positives, NEEDS_A_HALLUCINATED_LABEL, z),
        specificity=_proportion(confusion.true_negatives, confusion.negatives, NEEDS_A_GROUNDED_LABEL, z),
        balanced_accuracy=balanced_accuracy(cells, confusion.n, z=z),
        kappa=kappa(cells, confusion.n, z=z),
        n=confusion.n,
    )


def figure_text(figure: Figure, digits: int = 2) -> str:
    """``0.81 [0.70, 0.89]``, or ``undefined (needs both labels)``: how every surface writes a figure."""
    if figure.value is None or figure.low is None or figure.high is None:
        return undefined_text(figure.undefined or "the table cannot define it")
    return f"{figure.value:.{digits}f} [{figure.low:.{digits}f}, {figure.high:.{digits}f}]"


def undefined_text(reason: str = NEEDS_BOTH_LABELS) -> str:
    """``undefined (needs both labels)``: a figure a one-class set cannot have, as ``eval`` writes it too."""
    return f"{UNDEFINED} ({reason})"


def _proportion(successes: int, n: int, undefined: str, z: float) -> Figure:
    if n == 0:
        return Figure(None, None, None, 0, undefined)
    low, high = wilson_interval(successes, n, z)
    return Figure(successes / n, low, high, n)


def balanced_accuracy(
    cells: Cells, n: int, *, one_class: str = NEEDS_BOTH_LABELS, z: float = Z95
) -> Figure:
    """The mean of sensitivity and specificity (weighted: Hájek ratios), with the delta method's interval."""
    caught, passed = cells.class_count(positive=True), cells.class_count(positive=False)
    if caught.weights <= 0 or passed.weights <= 0:
        return Figure(None, None, None, n, one_class)
    value = (caught.rate + passed.rate) / 2
    half = z * math.sqrt((adjusted_variance(caught) + adjusted_variance(passed)) / 4)
    return Figure(value, max(0.0, value - half), min(1.0, value + half), n)


def kappa(cells: Cells, n: int, *, one_class: str = NEEDS_BOTH_LABELS, z: float = Z95) -> Figure:
    """Cohen's kappa of the (weighted) table, with the interval of the module's docstring."""
    tp, fn, fp, tn = cells.values()
    if tp + fn <= 0 or fp + tn <= 0:
        return Figure(None, None, None, n, one_class)
    value = _kappa(tp, fn, fp, tn)
    size = cells.effective_n
    total = tp + fn + fp + tn
    shift = KAPPA_PSEUDO_COUNT * total / size  # ½ of a request, in the table's (weighted) units
    smoothed = (tp + shift, fn + shift, fp + shift, tn + shift)
    centre = _kappa(*smoothed)
    half = z * math.sqrt(_fleiss_variance(*smoothed) / size)
    low, high = max(-1.0, centre - half), min(1.0, centre + half)
    return Figure(value, min(low, value), max(high, value), n)


def _kappa(tp: float, fn: float, fp: float, tn: float) -> float:
    total = tp + fn + fp + tn
    observed = (tp + tn) / total
    chance = ((tp + fn) * (tp + fp) + (fp + tn) * (fn + tn)) / (total * total)
    return (observed - chance) / (1 - chance) if chance < 1 else 0.0


def _fleiss_variance(tp: float, fn: float, fp: float, tn: float) -> float:
    """n · Var(kappa), Fleiss, Cohen and Everitt's large-sample form, from the table's proportions."""
    total = tp + fn + fp + tn
    cells = [[tp / total, fn / total], [fp / total, tn / total]]  # [reference][judge], 0 = hallucinated
    rows = [cells[i][0] + cells[i][1] for i in range(2)]
    columns = [cells[0][j] + cells[1][j] for j in range(2)]
    chance = rows[0] * columns[0] + rows[1] * columns[1]
    value = _kappa(tp, fn, fp, tn)
    a = sum(cells[i][i] * (1 - (rows[i] + columns[i]) * (1 - value)) ** 2 for i in range(2))
    b = (1 - value) ** 2 * sum(
        cells[i][j] * (columns[i] + rows[j]) ** 2 for i in range(2) for j in range(2) if i != j
    )
    c = (value - chance * (1 - value)) ** 2
    return max(0.0, a + b - c) / (1 - chance) ** 2


def adjusted_variance(count: WeightedCount) -> float:
    """The variance of a (weighted) proportion with Agresti and Coull's two added successes and failures, at
    its effective size, so that a count of all successes (or none) does not claim to be exact."""
    size = count.effective_n
    if size <= 0:
        return 0.25
    adjusted = (count.rate * size + 2) / (size + 4)
    return adjusted * (1 - adjusted) / size


def proportion_variance(successes: int, n: int) -> float:
    """:func:`adjusted_variance` of ``successes`` of ``n`` unweighted requests."""
    return adjusted_variance(WeightedCount.unweighted(successes, n))
