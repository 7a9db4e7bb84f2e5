"""Online agreement: on the requests both judged, how far the free judge's hallucination verdicts follow an
LLM judge's, so a user sees whether the free judge can be trusted on their own traffic.

The LLM judge is taken as the reference (it reads the documents as a person would; the free judge matches
words). Balanced accuracy weighs a missed hallucination and a false alarm equally whatever the base rate;
Cohen's kappa discounts the agreement two judges would reach by chance. Both carry a 95% interval from their
normal approximations, so twelve shared requests do not read like twelve hundred.

Under directed sampling the LLM judge saw the requests the free judge was unsure of more often than others:
each shared request then weighs 1 / the chance the LLM judge had of judging it (Hájek), so the figures speak
for all traffic rather than for the uncertain share, with the linearised variance of each weighted share.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ragpulse_scorers.stats import Z95

# Per cell of the table: both hallucinated, only the free judge, only the reference, neither.
Cells = tuple[float, float, float, float]


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float


@dataclass(frozen=True)
class JudgeAgreement:
    """Counts over the requests of one service and variant that both judges scored; "positive" is
    hallucinated. ``reference`` is the LLM judge, ``judge`` the free one."""

    service: str
    variant: str
    judge: str
    reference: str
    both_hallucinated: int
    only_judge: int
    only_reference: int
    neither: int
    weights: Cells | None = None
    """Σw of each cell (the order above), w = 1 / the LLM judge's inclusion probability; None when every
    weight is 1."""
    squared_weights: Cells | None = None
    """Σw² of each cell, beside ``weights``."""

    @property
    def n(self) -> int:
        return self.both_hallucinated + self.only_judge + self.only_reference + self.neither

    @property
    def is_weighted(self) -> bool:
        return self.weights is not None

    def _cells(self) -> Cells:
        if self.weights is not None:
            return self.weights
        counts = (self.both_hallucinated, self.only_judge, self.only_reference, self.neither)
        return (float(counts[0]), float(counts[1]), float(counts[2]), float(counts[3]))

    @property
    def balanced_accuracy(self) -> Interval | None:
        """Mean of the hallucinations the free judge caught and the grounded answers it passed; None until
        the reference has called at least one answer of each kind."""
        both, only_judge, only_reference, neither = self._cells()
        positives = both + only_reference
        negatives = neither + only_judge
        if not positives or not negatives:
            return None
        caught = both / positives
        passed = neither / negatives
        value = (caught + passed) / 2
        if self.squared_weights is None:
            variance = caught * (1 - caught) / positives + passed * (1 - passed) / negatives
        else:
            s_both, s_judge, s_reference, s_neither = self.squared_weights
            variance = ((1 - caught) ** 2 * s_both + caught**2 * s_reference) / positives**2 + (
                (1 - passed) ** 2 * s_neither + passed**2 * s_judge
            ) / negatives**2
        spread = Z95 * 0.5 * math.sqrt(variance)
        return Interval(value, max(0.0, value - spread), min(1.0, value + spread))

    @property
    def kappa(self) -> Interval | None:
        """Cohen's kappa with the large-sample standard error of Cohen (1960); None without requests or
        when chance agreement is total (both judges gave one verdict throughout)."""
        both, only_judge, only_reference, neither = self._cells()
        n = both + only_judge + only_reference + neither
        if not n:
            return None
        observed = (both + neither) / n
        judge_yes = (both + only_judge) / n
        reference_yes = (both + only_reference) / n
        chance = judge_yes * reference_yes + (1 - judge_yes) * (1 - reference_yes)
        if chance >= 1:
            return None
        value = (observed - chance) / (1 - chance)
        if self.squared_weights is None:
            spread = Z95 * math.sqrt(observed * (1 - observed) / (n * (1 - chance) ** 2))
        else:
            s_both, s_judge, s_reference, s_neither = self.squared_weights
            agreeing, disagreeing = s_both + s_neither, s_judge + s_reference
            variance = ((1 - observed) ** 2 * agreeing + observed**2 * disagreeing) / n**2
            spread = Z95 * math.sqrt(variance) / (1 - chance)
        return Interval(value, max(-1.0, value - spread), min(1.0, value + spread))
