"""Online agreement: on the requests both judged, how far the free judge's hallucination verdicts follow an
LLM judge's, so a user sees whether the free judge can be trusted on their own traffic.

The LLM judge is taken as the reference (it reads the documents as a person would; the free judge matches
words). Balanced accuracy weighs a missed hallucination and a false alarm equally whatever the base rate;
Cohen's kappa discounts the agreement two judges would reach by chance. Both carry a 95% interval from their
normal approximations, so twelve shared requests do not read like twelve hundred.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ragpulse_scorers.stats import Z95


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

    @property
    def n(self) -> int:
        return self.both_hallucinated + self.only_judge + self.only_reference + self.neither

    @property
    def balanced_accuracy(self) -> Interval | None:
        """Mean of the hallucinations the free judge caught and the grounded answers it passed; None until
        the reference has called at least one answer of each kind."""
        positives = self.both_hallucinated + self.only_reference
        negatives = self.neither + self.only_judge
        if not positives or not negatives:
            return None
        caught = self.both_hallucinated / positives
        passed = self.neither / negatives
        value = (caught + passed) / 2
        spread = Z95 * 0.5 * math.sqrt(caught * (1 - caught) / positives + passed * (1 - passed) / negatives)
        return Interval(value, max(0.0, value - spread), min(1.0, value + spread))

    @property
    def kappa(self) -> Interval | None:
        """Cohen's kappa with the large-sample standard error of Cohen (1960); None without requests or
        when chance agreement is total (both judges gave one verdict throughout)."""
        n = self.n
        if not n:
            return None
        observed = (self.both_hallucinated + self.neither) / n
        judge_yes = (self.both_hallucinated + self.only_judge) / n
        reference_yes = (self.both_hallucinated + self.only_reference) / n
        chance = judge_yes * reference_yes + (1 - judge_yes) * (1 - reference_yes)
        if chance >= 1:
            return None
        value = (observed - chance) / (1 - chance)
        spread = Z95 * math.sqrt(observed * (1 - observed) / (n * (1 - chance) ** 2))
        return Interval(value, max(-1.0, value - spread), min(1.0, value + spread))
