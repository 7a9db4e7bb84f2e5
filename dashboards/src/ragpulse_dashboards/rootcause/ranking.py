"""Where a change in the hallucination rate sits: the slices that carry it, ranked, or none.

The ranking is Adtributor's (Bhagwan et al., "Adtributor: Revenue Debugging in Advertising Systems", NSDI
2014) for a derived measure, here hallucinated / judged: each slice's *explanatory power* is the share of the
change in the overall rate that its own change explains (the paper's finite-difference partial derivative of
m1 / m2, with the baseline scaled to the window's volume as the forecast), and its *surprise* is the
Jensen-Shannon divergence between its share of the baseline and of the window, summed over both measures.
Slices are ranked by surprise, which favours the slice where the change is concentrated over a broader one
that merely contains it.

Adtributor assumes a forecast it can trust; judged samples are noisy, so a slice is named only when the data
say so, with the number of slices tested taken into account:

- its window's 95% Wilson interval lies entirely beyond its baseline's (never a slice whose interval overlaps
  its baseline's); a slice with no baseline of its own (new in the window) is held against the scope's;
- its change is larger than the change of the rest of the scope, on the difference scale *and* on the ratio
  scale, each one-sided at a Bonferroni-corrected level over every slice tested. A change spread evenly over
  the traffic, whether every request's chance rose by the same points or by the same factor, names nothing;
- of two named slices sharing requests, one whose requests outside the other show no change of their own is
  explained by the other and left out (when neither shows one, they are the same requests and the more
  surprising is kept).

What is left is "no single slice explains it" when the overall rate changed, "no change" when it did not.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from statistics import NormalDist

from ragpulse_scorers.stats import WeightedCount, weighted_wilson_interval

# One-sided level of every test before the correction for the number of slices tested.
ALPHA = 0.01
# A slice needs this many judged requests in the window to be tested, and the rest of the scope as many.
MIN_SLICE = 20
# Below this many judged baseline requests a slice has no baseline of its own: it is new in the window.
NEW_BELOW = 5
# Slices named at most (the alert text names the first; the report lists them all).
MAX_NAMED = 5
# A residual (a named slice's requests outside another) is a change of its own at this one-sided level.
RESIDUAL_Z = NormalDist().inv_cdf(1 - ALPHA)


@dataclass(frozen=True, order=True)
class SliceKey:
    """One slice: a dimension (``model``, ``topic``, ``customer.tier``...) and one of its values."""

    dimension: str
    value: str


@dataclass(frozen=True)
class SliceCounts:
    """A slice's judged requests and hallucinations in the window and in the baseline (weighted sums)."""

    key: SliceKey
    window: WeightedCount
    baseline: WeightedCount


class Finding(StrEnum):
    FOUND = "found"
    """One slice or more carries the change."""
    SPREAD = "spread"
    """The overall rate changed, and no single slice explains it."""
    NO_CHANGE = "no_change"
    """The overall rate did not change against its baseline, and no slice stands out."""
    TOO_FEW = "too_few"
    """Too few judged requests in the window or the baseline to tell."""


@dataclass(frozen=True)
class RankedSlice:
    key: SliceKey
    window: WeightedCount
    baseline: WeightedCount
    """The slice's own baseline, or the scope's when the slice is new in the window."""
    new: bool
    share: float | None
    """Adtributor's explanatory power: the share of the overall change this slice's change explains (None
    when the overall rate did not move)."""
    surprise: float

    @property
    def window_interval(self) -> tuple[float, float]:
        return weighted_wilson_interval(self.window)

    @property
    def baseline_interval(self) -> tuple[float, float]:
        return weighted_wilson_interval(self.baseline)


@dataclass(frozen=True)
class Explanation:
    """Where the change of one scope (a service and variant, or all traffic) sits."""

    finding: Finding
    window: WeightedCount
    baseline: WeightedCount
    slices: list[RankedSlice] = field(default_factory=list)
    """The slices that carry the change, the most surprising first."""
    explained: dict[SliceKey, SliceKey] = field(default_factory=dict)
    """Slices that passed every test but are explained by a named one (their shared requests): by which."""
    tested: int = 0

    @property
    def direction(self) -> int:
        """+1 when the window's rate is above the baseline's, −1 below."""
        return -1 if self.window.rate < self.baseline.rate else 1


Residuals = Callable[[Sequence[SliceKey]], Mapping[tuple[SliceKey, SliceKey], SliceCounts]]
"""For named slices, the counts of each one's requests outside each other one: ``(x, y)`` -> x without y."""


def explain(
    window: WeightedCount,
    baseline: WeightedCount,
    slices: Sequence[SliceCounts],
    *,
    residuals: Residuals | None = None,
    min_samples: int = 30,
    direction: int | None = None,
) -> Explanation:
    """Rank the ``slices`` of a scope whose totals are ``window`` and ``baseline``.

    ``direction`` +1 looks for rises only (an alert on a high rate), −1 for falls; by default the direction
    the overall rate moved. ``residuals`` lets related named slices be told apart (see the module's doc).
    """
    if window.weights < min_samples or baseline.weights < min_samples:
        return Explanation(Finding.TOO_FEW, window, baseline)
    sign = direction or (-1 if window.rate < baseline.rate else 1)
    testable = [
        counts
        for counts in slices
        if counts.window.weights >= MIN_SLICE and window.weights - counts.window.weights >= MIN_SLICE
    ]
    critical = _critical_values(testable)
    candidates = [
        _ranked(counts, window, baseline)
        for counts in testable
        if _carries(counts, window, baseline, sign, critical[counts.key.dimension])
    ]
    candidates.sort(key=lambda ranked: (-ranked.surprise, ranked.key))
    named, explained = _without_explained(candidates, residuals, baseline, sign)
    if named:
        finding = Finding.FOUND
    elif _changed(window, baseline, sign, NormalDist().inv_cdf(1 - ALPHA / 2)):
        finding = Finding.SPREAD
    else:
        finding = Finding.NO_CHANGE
    return Explanation(finding, window, baseline, named[:MAX_NAMED], explained, len(testable))


def _critical_values(testable: Sequence[SliceCounts]) -> dict[str, float]:
    """Per dimension, the one-sided critical value of its slices' tests: weighted Bonferroni, each dimension
    an equal share of ALPHA, split among its slices. The family-wise error over every slice tested stays
    within ALPHA, and a dimension of three values is not held to the bar of one with three hundred."""
    sizes: dict[str, int] = {}
    for counts in testable:
        sizes[counts.key.dimension] = sizes.get(counts.key.dimension, 0) + 1
    return {
        dimension: NormalDist().inv_cdf(1 - ALPHA / (len(sizes) * size)) for dimension, size in sizes.items()
    }


def _carries(
    counts: SliceCounts, window: WeightedCount, baseline: WeightedCount, sign: int, critical: float
) -> bool:
    """The slice's interval lies beyond its baseline's, and its change outgrows the rest's on both scales."""
    new = counts.baseline.weights < NEW_BELOW
    own_baseline = baseline if new else counts.baseline
    # Each interval holds its rate, so a slice whose rate did not move the change's way cannot have its
    # interval beyond its baseline's: about half of a month's slices stop here, before two intervals each.
    if (counts.window.rate - own_baseline.rate) * sign <= 0:
        return False
    low, high = weighted_wilson_interval(counts.window)
    base_low, base_high = weighted_wilson_interval(own_baseline)
    if not (low > base_high if sign > 0 else high < base_low):
        return False
    rest_window = _minus(window, counts.window)
    if new:
        # Against the scope's baseline the shared baseline cancels: the slice against the rest, both now.
        return _beyond(_Rate.of(counts.window), _Rate.of(rest_window), sign, critical)
    rest_baseline = _minus(baseline, counts.baseline)
    if rest_baseline.weights < NEW_BELOW:
        return False
    slice_change = _Change(_Rate.of(counts.window), _Rate.of(counts.baseline))
    rest_change = _Change(_Rate.of(rest_window), _Rate.of(rest_baseline))
    return slice_change.outgrows(rest_change, sign, critical)


def _ranked(counts: SliceCounts, window: WeightedCount, baseline: WeightedCount) -> RankedSlice:
    new = counts.baseline.weights < NEW_BELOW
    return RankedSlice(
        key=counts.key,
        window=counts.window,
        baseline=baseline if new else counts.baseline,
        new=new,
        share=explanatory_power(counts, window, baseline),
        surprise=surprise(counts, window, baseline),
    )


def explanatory_power(counts: SliceCounts, window: WeightedCount, baseline: WeightedCount) -> float | None:
    """Adtributor's explanatory power of a slice for hallucinated / judged (§4, derived measures): the
    finite-difference partial derivative (Δf·g − Δg·f) / (g·(g + Δg)) of the ratio at the forecast, over the
    overall change. The forecast is the baseline scaled to the window's judged volume."""
    scale = window.weights / baseline.weights
    forecast_events, forecast_n = baseline.weighted_events * scale, window.weights
    slice_events = counts.baseline.weighted_events * scale
    slice_n = counts.baseline.weights * scale
    change = window.rate - baseline.rate
    if abs(change) < 1e-12:
        return None
    delta_events = counts.window.weighted_events - slice_events
    delta_n = counts.window.weights - slice_n
    denominator = forecast_n * (forecast_n + delta_n)
    if denominator <= 0:
        return None
    return (delta_events * forecast_n - delta_n * forecast_events) / denominator / change


def surprise(counts: SliceCounts, window: WeightedCount, baseline: WeightedCount) -> float:
    """Adtributor's surprise for a derived measure: the Jensen-Shannon divergence (bits) of the slice's share
    of the baseline from its share of the window, for hallucinations and for judged requests, summed."""
    return _divergence(
        _share(counts.baseline.weighted_events, baseline.weighted_events),
        _share(counts.window.weighted_events, window.weighted_events),
    ) + _divergence(
        _share(counts.baseline.weights, baseline.weights), _share(counts.window.weights, window.weights)
    )


def _share(part: float, whole: float) -> float:
    return min(1.0, max(0.0, part / whole)) if whole > 0 else 0.0


def _divergence(p: float, q: float) -> float:
    """One element's term of the Jensen-Shannon divergence, as Adtributor sums them."""
    mean = (p + q) / 2
    if mean <= 0:
        return 0.0
    return 0.5 * sum(x * math.log2(x / mean) for x in (p, q) if x > 0)


def _without_explained(
    candidates: list[RankedSlice], residuals: Residuals | None, baseline: WeightedCount, sign: int
) -> tuple[list[RankedSlice], dict[SliceKey, SliceKey]]:
    """The candidates less those another candidate explains (most surprising first, so an explained slice is
    named beside the one that explains it)."""
    if residuals is None or len(candidates) < 2:
        return candidates, {}
    considered = candidates[: 2 * MAX_NAMED]
    outside = residuals([candidate.key for candidate in considered])
    by_key = {candidate.key: candidate for candidate in considered}
    explained: dict[SliceKey, SliceKey] = {}
    for candidate in considered:
        for other in considered:
            if other.key == candidate.key or other.key in explained:
                continue
            own = outside.get((candidate.key, other.key))
            theirs = outside.get((other.key, candidate.key))
            if own is None or theirs is None:
                continue
            alone = _residual_changed(own, by_key[candidate.key], baseline, sign)
            if alone:
                continue
            other_alone = _residual_changed(theirs, other, baseline, sign)
            # Neither changes without the other: the same requests; the more surprising one stays named.
            if other_alone or other.surprise > candidate.surprise:
                explained[candidate.key] = other.key
                break
    kept = [candidate for candidate in candidates if candidate.key not in explained]
    return kept, explained


def _residual_changed(part: SliceCounts, whole: RankedSlice, scope: WeightedCount, sign: int) -> bool:
    """Whether a slice's requests outside another changed against their own baseline (the scope's when the
    slice is new), one-sided at RESIDUAL_Z."""
    if part.window.weights < MIN_SLICE:
        return False
    baseline = scope if whole.new or part.baseline.weights < NEW_BELOW else part.baseline
    return _changed(part.window, baseline, sign, RESIDUAL_Z)


def _changed(window: WeightedCount, baseline: WeightedCount, sign: int, critical: float) -> bool:
    return _beyond(_Rate.of(window), _Rate.of(baseline), sign, critical)


def _minus(whole: WeightedCount, part: WeightedCount) -> WeightedCount:
    """The requests of ``whole`` outside ``part``: never fewer than none, nor more events than requests."""
    weights = max(0.0, whole.weights - part.weights)
    squared = max(0.0, whole.squared_weights - part.squared_weights)
    return WeightedCount(
        weights,
        min(weights, max(0.0, whole.weighted_events - part.weighted_events)),
        squared,
        min(squared, max(0.0, whole.squared_weighted_events - part.squared_weighted_events)),
    )


@dataclass(frozen=True)
class _Rate:
    """A rate for testing: the Agresti-Caffo estimate (one event and one non-event added) at the effective
    sample size, so a slice with no event or no non-event yet still has a variance."""

    p: float
    n: float

    @classmethod
    def of(cls, count: WeightedCount) -> _Rate:
        n = count.effective_n if not count.is_unweighted else count.weights
        events = min(1.0, max(0.0, count.rate)) * n
        return cls((events + 1) / (n + 2), n + 2)

    @property
    def variance(self) -> float:
        return self.p * (1 - self.p) / self.n

    @property
    def log_variance(self) -> float:
        """Variance of ln p (delta method)."""
        return (1 - self.p) / (self.p * self.n)


def _beyond(first: _Rate, second: _Rate, sign: int, critical: float) -> bool:
    """``first`` exceeds ``second`` in direction ``sign`` on the difference and the ratio scale."""
    difference = sign * (first.p - second.p) / math.sqrt(first.variance + second.variance)
    ratio = sign * math.log(first.p / second.p) / math.sqrt(first.log_variance + second.log_variance)
    return difference > critical and ratio > critical


@dataclass(frozen=True)
class _Change:
    now: _Rate
    before: _Rate

    def outgrows(self, rest: _Change, sign: int, critical: float) -> bool:
        """This change exceeds ``rest``'s in direction ``sign``, in points and as a factor."""
        points = (self.now.p - self.before.p) - (rest.now.p - rest.before.p)
        points_se = math.sqrt(
            self.now.variance + self.before.variance + rest.now.variance + rest.before.variance
        )
        factor = math.log(self.now.p / self.before.p) - math.log(rest.now.p / rest.before.p)
        factor_se = math.sqrt(
            self.now.log_variance
            + self.before.log_variance
            + rest.now.log_variance
            + rest.before.log_variance
        )
        return sign * points / points_se > critical and sign * factor / factor_se > critical
