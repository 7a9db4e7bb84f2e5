"""The free judge's hallucination rate corrected for its measured errors (Rogan-Gladen), with an interval.

A judge that misses hallucinations (sensitivity below 1) or flags grounded answers (specificity below 1)
reports a biased rate. With its sensitivity Se and specificity Sp, the true rate behind an observed rate p is
``(p + Sp - 1) / (Se + Sp - 1)``. The interval carries the uncertainty of all three (the delta method: the
observed rate over the window's requests, Se and Sp over the labels they came from).

The error rates come from reviewer labels on requests the queue drew at random, per service, when both
classes have at least :data:`MIN_PER_CLASS` labels; else from the free judge's agreement with an LLM judge on
the requests both scored (the LLM judge taken as right); else there is no estimate and the page says why.
It assumes the judge errs alike on the labelled requests and on the rest of the service's traffic, and the
LLM judge, when it is the reference, is right.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ragpulse_scorers.stats import Z95

from ragpulse_dashboards.report.agreement import Interval, JudgeAgreement

MIN_PER_CLASS = 5
# Below this Se + Sp - 1 the judge is too near chance: the correction would divide by almost nothing.
MIN_INFORMEDNESS = 0.1


@dataclass(frozen=True)
class ErrorRates:
    sensitivity: float
    specificity: float
    positives: int
    """Requests the reference calls hallucinated (what sensitivity is measured on)."""
    negatives: int
    source: str
    """Where the rates come from, for a person ("14 reviewer labels")."""


@dataclass(frozen=True)
class Corrected:
    service: str
    variant: str
    hallucinated: int
    judged: int
    estimate: Interval | None
    rates: ErrorRates | None
    why_not: str
    """Why there is no estimate ("" when there is one)."""


def error_rates(counts: JudgeAgreement, source: str) -> ErrorRates | None:
    """The free judge's error rates from a 2x2 table against a reference; None below MIN_PER_CLASS a class."""
    positives = counts.both_hallucinated + counts.only_reference
    negatives = counts.neither + counts.only_judge
    if positives < MIN_PER_CLASS or negatives < MIN_PER_CLASS:
        return None
    return ErrorRates(
        counts.both_hallucinated / positives, counts.neither / negatives, positives, negatives, source
    )


def rogan_gladen(hallucinated: int, judged: int, rates: ErrorRates) -> Interval | None:
    """The corrected rate with its 95% interval, clipped to [0, 1]; None when nothing was judged or the
    judge is too near chance to correct."""
    informedness = rates.sensitivity + rates.specificity - 1
    if not judged or informedness < MIN_INFORMEDNESS:
        return None
    observed = hallucinated / judged
    rate = min(1.0, max(0.0, (observed + rates.specificity - 1) / informedness))
    # Variances with half a count added on each side, so a perfect score on a few labels is not taken as
    # known without error.
    se = _shrunk(rates.sensitivity, rates.positives)
    sp = _shrunk(rates.specificity, rates.negatives)
    ob = _shrunk(observed, judged)
    variance = (
        ob * (1 - ob) / judged
        + rate**2 * se * (1 - se) / rates.positives
        + (1 - rate) ** 2 * sp * (1 - sp) / rates.negatives
    ) / informedness**2
    spread = Z95 * math.sqrt(variance)
    return Interval(rate, max(0.0, rate - spread), min(1.0, rate + spread))


def _shrunk(share: float, n: int) -> float:
    return (share * n + 0.5) / (n + 1)


def correct(
    service: str, variant: str, hallucinated: int, judged: int, rates: ErrorRates | None, missing: str
) -> Corrected:
    """The corrected rate of one service's variant, or why there is none (``missing``: no error rates)."""
    if rates is None:
        return Corrected(service, variant, hallucinated, judged, None, None, missing)
    estimate = rogan_gladen(hallucinated, judged, rates)
    why_not = "" if estimate is not None else "the free judge is too near chance here to correct its rate"
    return Corrected(service, variant, hallucinated, judged, estimate, rates, why_not)
