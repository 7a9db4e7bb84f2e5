"""Directed sampling: part of a rule's LLM calls go preferentially to requests the free judge is unsure of.

A rule samples ``rate`` of its traffic. With ``directed_share`` d, a request of uncertainty u gets the
inclusion probability

    pi(u) = min(1, (1 - d) * rate + scale * u)

where ``scale`` is set from recent traffic so that the mean of pi is ``rate``: the expected number of LLM
calls is the same as uniform sampling at ``rate``, a share (1 - d) of them spread uniformly and the rest in
proportion to uncertainty (requests that would exceed 1 are capped and the others get their excess). Every
request keeps pi > 0 (uncertainties are positive, and pi is at least one bucket), so the inverse-probability
weighted (Hájek) estimates of ``ragpulse_scorers.stats`` stay unbiased.

The draw is the one ``sampling`` already uses, ``SampleKey % SAMPLE_BUCKETS``: a request is sampled when its
bucket is below ``pi * SAMPLE_BUCKETS``. Probabilities are rounded to whole buckets so the recorded
probability is exactly the chance the hash gives; at d = 0 the decision is today's uniform one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ragpulse_core.sampling import SAMPLE_BUCKETS

# Bisection steps for the scale: 60 halvings take any start interval below float precision.
_BISECTION_STEPS = 60


@dataclass(frozen=True)
class DirectedPlan:
    """How a rule turns a request's uncertainty into an inclusion probability (see the module docstring)."""

    rate: float
    directed_share: float
    scale: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.rate <= 1.0:
            raise ValueError(f"sample rate must be between 0 and 1, got {self.rate}")
        if not 0.0 <= self.directed_share <= 1.0:
            raise ValueError(f"directed_share must be between 0 and 1, got {self.directed_share}")
        if self.scale < 0.0 or not math.isfinite(self.scale):
            raise ValueError(f"scale must be a finite number >= 0, got {self.scale}")

    @classmethod
    def uniform(cls, rate: float) -> DirectedPlan:
        return cls(rate, 0.0, 0.0)


def plan_directed(rate: float, directed_share: float, uncertainties: Sequence[float]) -> DirectedPlan:
    """The plan whose mean inclusion probability over ``uncertainties`` (recent traffic) is ``rate``.

    Without recent traffic, or with nothing to direct, the plan is uniform.
    """
    _check_uncertainties(uncertainties)
    if directed_share == 0.0 or rate == 0.0 or not uncertainties:
        return DirectedPlan.uniform(rate)
    base = (1.0 - directed_share) * rate
    target = rate * len(uncertainties)

    def calls(scale: float) -> float:
        return sum(min(1.0, base + scale * u) for u in uncertainties)

    low = directed_share * rate / (sum(uncertainties) / len(uncertainties))
    # A share so small that ``low`` underflows to 0 would never double away from 0.
    high = max(low, 1.0)
    while calls(high) < target and high < 1e12:
        high *= 2.0
    for _ in range(_BISECTION_STEPS):
        middle = (low + high) / 2.0
        if calls(middle) < target:
            low = middle
        else:
            high = middle
    return DirectedPlan(rate, directed_share, high)


def inclusion_probability(uncertainty: float, plan: DirectedPlan) -> float:
    """The chance a request of this uncertainty is LLM-judged, in whole sample buckets (0 only at rate 0)."""
    _check_uncertainties([uncertainty])
    if plan.rate == 0.0:
        return 0.0
    raw = min(1.0, (1.0 - plan.directed_share) * plan.rate + plan.scale * uncertainty)
    return max(1, round(raw * SAMPLE_BUCKETS)) / SAMPLE_BUCKETS


def is_sampled(sample_key: int, probability: float) -> bool:
    """The deterministic draw: the bucket ``SampleKey % SAMPLE_BUCKETS`` is below the probability's."""
    return sample_key % SAMPLE_BUCKETS < round(probability * SAMPLE_BUCKETS)


def _check_uncertainties(uncertainties: Sequence[float]) -> None:
    for u in uncertainties:
        if not 0.0 < u <= 1.0:
            raise ValueError(f"an uncertainty must be in (0, 1], got {u}")
