"""Online agreement: on the requests both judged, how far the free judge's hallucination verdicts follow an
LLM judge's, so a user sees whether the free judge can be trusted on their own traffic.

The LLM judge is taken as the reference (it reads the documents as a person would; the free judge matches
words). Balanced accuracy weighs a missed hallucination and a false alarm equally whatever the base rate;
Cohen's kappa discounts the agreement two judges would reach by chance. Both are the figures of
:mod:`ragpulse_scorers.labels.agreement`, with their intervals, so twelve shared requests do not read like
twelve hundred and a perfect table does not read as certain.

Under directed sampling the LLM judge saw the requests the free judge was unsure of more often than others:
each shared request then weighs 1 / the chance the LLM judge had of judging it (Hájek), so the figures speak
for all traffic rather than for the uncertain share, at the weighted figures' effective sizes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ragpulse_scorers.labels.agreement import Cells, Figure, balanced_accuracy, kappa

NEEDS_BOTH_VERDICTS = "needs both verdicts from the reference"
# Per cell of the table: both hallucinated, only the free judge, only the reference, neither.
CellSums = tuple[float, float, float, float]


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
    weights: CellSums | None = None
    """Σw of each cell (the order above), w = 1 / the LLM judge's inclusion probability; None when every
    weight is 1."""
    squared_weights: CellSums | None = None
    """Σw² of each cell, beside ``weights``."""

    @property
    def n(self) -> int:
        return self.both_hallucinated + self.only_judge + self.only_reference + self.neither

    @property
    def is_weighted(self) -> bool:
        return self.weights is not None

    def cells(self) -> Cells:
        """The table in the reference's terms (the reference is the truth): TP, FN, FP, TN."""
        both, only_judge, only_reference, neither = self.weights or (
            float(self.both_hallucinated), float(self.only_judge), float(self.only_reference),
            float(self.neither),
        )  # fmt: skip
        squared = None
        if self.squared_weights is not None:
            s_both, s_judge, s_reference, s_neither = self.squared_weights
            squared = (s_both, s_reference, s_judge, s_neither)
        return Cells(both, only_reference, only_judge, neither, squared)

    @property
    def balanced_accuracy(self) -> Figure:
        """Mean of the hallucinations the free judge caught and the grounded answers it passed; undefined
        until the reference has called at least one answer of each kind."""
        return balanced_accuracy(self.cells(), self.n, one_class=NEEDS_BOTH_VERDICTS)

    @property
    def kappa(self) -> Figure:
        """Cohen's kappa; undefined until the reference has called at least one answer of each kind."""
        return kappa(self.cells(), self.n, one_class=NEEDS_BOTH_VERDICTS)
