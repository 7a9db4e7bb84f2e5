"""A judge's raw hallucination rate corrected for its measured errors: the Rogan–Gladen estimator.

A judge of sensitivity Se and specificity Sp flags a share q = p·Se + (1 − p)·(1 − Sp) of requests whose true
rate is p, so p = (q + Sp − 1) / (Se + Sp − 1) (Rogan & Gladen 1978, American Journal of Epidemiology
107:71). It assumes the judge's error rates on the traffic it flags are those measured on the labelled
requests: labels drawn from the same traffic (the review queue keeps a uniform share for that), and Se and Sp
that do not change with the true rate.

The interval is the delta method's (Greenland 1996, Epidemiology 7:498) over three independent samples: the
judged requests (q, at its effective size when weighted), the labelled positives (Se) and negatives (Sp):
Var(p) ≈ [Var(q) + p²·Var(Se) + (1 − p)²·Var(Sp)] / (Se + Sp − 1)². The point estimate and the interval are
clipped to [0, 1].

The error rates come from reviewer labels when there are at least :data:`MIN_PER_CLASS` hallucinated and as
many grounded ones; else from the judge's agreement with an LLM judge on the requests both judged, with the
same minimum; else there is no number, only the reason.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ragpulse_scorers.labels.agreement import Confusion, adjusted_variance, proportion_variance
from ragpulse_scorers.stats import Z95, WeightedCount

MIN_PER_CLASS = 10
"""Labelled positives and negatives each needed before Se and Sp are trusted. Below ten, one more label moves
either rate by ten points or more, and the correction divides by Se + Sp − 1."""


@dataclass(frozen=True)
class ErrorRates:
    """A judge's confusion against a reference, and what that reference is ("reviewer labels", ...)."""

    confusion: Confusion
    source: str

    @property
    def sensitivity(self) -> float:
        return self.confusion.true_positives / self.confusion.positives

    @property
    def specificity(self) -> float:
        return self.confusion.true_negatives / self.confusion.negatives


@dataclass(frozen=True)
class CorrectedRate:
    raw: float
    estimate: float
    low: float
    high: float
    source: str


@dataclass(frozen=True)
class NotCorrected:
    """Why no corrected rate is shown."""

    reason: str


def choose_error_rates(candidates: Sequence[ErrorRates]) -> ErrorRates | NotCorrected:
    """The first of ``candidates`` (in order of preference) with enough of both classes, or why none has."""
    for rates in candidates:
        if enough(rates.confusion):
            return rates
    shortfalls = "; ".join(
        f"{rates.source}: {rates.confusion.positives} hallucinated and {rates.confusion.negatives} grounded"
        for rates in candidates
    )
    return NotCorrected(
        f"not enough labels: need {MIN_PER_CLASS} hallucinated and {MIN_PER_CLASS} grounded"
        + (f" ({shortfalls})" if shortfalls else " (none yet)")
    )


def enough(confusion: Confusion) -> bool:
    return confusion.positives >= MIN_PER_CLASS and confusion.negatives >= MIN_PER_CLASS


def corrected_rate(
    apparent: WeightedCount, rates: ErrorRates, z: float = Z95
) -> CorrectedRate | NotCorrected:
    """The true rate behind the judge's ``apparent`` rate (the flagged share of judged requests, weighted by
    1 / inclusion probability under directed sampling, as the rate it corrects is shown), for a judge with
    these error ``rates``."""
    if apparent.weights <= 0:
        return NotCorrected("no judged requests")
    if not 0 <= apparent.weighted_events <= apparent.weights:
        raise ValueError(f"flagged must lie in [0, judged]: {apparent.weighted_events} of {apparent.weights}")
    if rates.confusion.positives == 0 or rates.confusion.negatives == 0:
        return NotCorrected(f"not enough labels: {rates.source} has no hallucinated or no grounded request")
    raw = apparent.rate
    sensitivity, specificity = rates.sensitivity, rates.specificity
    youden = sensitivity + specificity - 1
    if youden <= 0:
        return NotCorrected(
            f"undefined: the judge's sensitivity ({sensitivity:.2f}) plus specificity ({specificity:.2f})"
            f" is not above 1 against {rates.source}, so its verdicts say nothing about the true rate"
        )
    unclipped = (raw + specificity - 1) / youden
    variance = (
        adjusted_variance(apparent)
        + unclipped**2 * proportion_variance(rates.confusion.true_positives, rates.confusion.positives)
        + (1 - unclipped) ** 2
        * proportion_variance(rates.confusion.true_negatives, rates.confusion.negatives)
    ) / youden**2
    half = z * math.sqrt(variance)
    return CorrectedRate(
        raw=raw,
        estimate=_clip(unclipped),
        low=_clip(unclipped - half),
        high=_clip(unclipped + half),
        source=rates.source,
    )


def _clip(value: float) -> float:
    return min(1.0, max(0.0, value))
