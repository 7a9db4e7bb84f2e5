"""What each alert rule decides from its numbers: pure functions, so the thresholds are easy to test.

Every rule yields an :class:`Observation` with two separate verdicts, ``fire`` and ``clear``. They are never
both true, and a band where neither holds lies between them: an alert already firing stays firing there and a
quiet one stays quiet, so a rate hovering at the threshold does not flap. For rates the band is the 95% Wilson
interval itself: fire once the interval's lower bound is above the threshold (we are confident the rate is too
high), clear once its upper bound is below it (confident it is fine again).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from ragpulse_scorers.stats import WeightedCount, weighted_wilson_interval

HALLUCINATION_RATE: Final = "hallucination_rate"
SUPPORT_DROP: Final = "support_drop"
SCORING_STALLED: Final = "scoring_stalled"
JUDGE_ERRORS: Final = "judge_errors"
CORRECTED_RATE: Final = "corrected_hallucination_rate"
EVALUATOR_PASS_RATE: Final = "evaluator_pass_rate"
RULES: Final = (
    HALLUCINATION_RATE,
    SUPPORT_DROP,
    SCORING_STALLED,
    JUDGE_ERRORS,
    CORRECTED_RATE,
    EVALUATOR_PASS_RATE,
)


@dataclass(frozen=True, order=True)
class AlertKey:
    """One alert series: a rule and the labels it is evaluated per ("" where a label does not apply)."""

    rule: str
    service: str
    variant: str = ""
    scorer: str = ""

    def describe(self) -> str:
        labels = [f"service {self.service}"]
        if self.variant:
            labels.append(f"variant {self.variant}")
        if self.scorer:
            labels.append(f"scorer {self.scorer}")
        return ", ".join(labels)


@dataclass(frozen=True)
class Baseline:
    """The rate a support-drop series is compared with: its 95% interval's lower bound is the threshold."""

    rate: float
    lower: float
    samples: int

    def describe(self) -> str:
        return f"{_percent(self.rate)} (lower bound {_percent(self.lower)}, n={self.samples})"


@dataclass(frozen=True)
class Observation:
    key: AlertKey
    value: float
    lower: float
    upper: float
    samples: int
    threshold: float
    """NaN when there is none to compare with (a support drop without a baseline)."""
    fire: bool
    clear: bool
    summary: str
    judged_by: str = ""
    """The judges whose verdicts were counted, where the key names no scorer."""
    baseline: Baseline | None = None


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def _judges(judged_by: str) -> str:
    return f", judged by {judged_by}" if judged_by else ""


def rate_above(
    key: AlertKey,
    what: str,
    events: int,
    n: int,
    *,
    threshold: float,
    min_samples: int,
    resolve_margin: float = 0.0,
    judged_by: str = "",
    weighted: WeightedCount | None = None,
) -> Observation:
    """``events`` of ``n`` is too high: fire on the lower bound (with enough samples), clear on the upper.

    ``weighted``: the same requests' sums weighted by 1 / inclusion probability (directed sampling); the rate
    is then the Hájek estimate and the interval Wilson's at its effective sample size.
    """
    rate, lower, upper, said = _estimated(key, what, events, n, weighted)
    fire = n >= min_samples and lower > threshold
    clear = not fire and upper < threshold - resolve_margin
    summary = f"{said}{_judges(judged_by)}; threshold {_percent(threshold)}"
    return Observation(key, rate, lower, upper, n, threshold, fire, clear, summary, judged_by)


def rate_below(
    key: AlertKey,
    what: str,
    events: int,
    n: int,
    *,
    threshold: float,
    min_samples: int,
    resolve_margin: float = 0.0,
    weighted: WeightedCount | None = None,
) -> Observation:
    """``events`` of ``n`` is too low (an evaluator's pass rate): fire on the interval's upper bound (with
    enough samples), clear on its lower bound, the mirror of :func:`rate_above`."""
    rate, lower, upper, said = _estimated(key, what, events, n, weighted)
    fire = n >= min_samples and upper < threshold
    clear = not fire and lower > threshold + resolve_margin
    return Observation(
        key, rate, lower, upper, n, threshold, fire, clear, f"{said}; at least {_percent(threshold)} wanted"
    )


def _estimated(
    key: AlertKey, what: str, events: int, n: int, weighted: WeightedCount | None
) -> tuple[float, float, float, str]:
    """The rate, its 95% interval and what they say, for ``events`` of ``n`` (or their weighted sums)."""
    count = weighted or WeightedCount.unweighted(events, n)
    lower, upper = weighted_wilson_interval(count)
    rate = _rate(count, events, n)
    said = f"{what} {_percent(rate)} ({_ci(count)} {_percent(lower)}–{_percent(upper)}, n={n})"
    return rate, lower, upper, f"{said} for {key.describe()}"


def rate_dropped(
    key: AlertKey,
    what: str,
    current: tuple[int, int],
    baseline: tuple[int, int],
    *,
    min_samples: int,
    judged_by: str = "",
    weighted: tuple[WeightedCount, WeightedCount] | None = None,
) -> Observation:
    """The current window's rate fell below its baseline's: the two 95% intervals no longer overlap.

    Fires when the current upper bound is below the baseline's lower bound; clears once the current upper
    bound is back at the baseline's own rate. A baseline with fewer than ``min_samples`` decides neither (an
    empty one, as in a store younger than the window, is no evidence either way) and gives no threshold; a
    firing episode is then judged by :func:`recovered_against` the baseline it fired on.
    ``current`` and ``baseline`` are (successes, n); ``weighted`` their sums weighted by 1 / inclusion
    probability, as in :func:`rate_above`.
    """
    (cur_s, cur_n), (base_s, base_n) = current, baseline
    cur_count, base_count = weighted or (
        WeightedCount.unweighted(cur_s, cur_n),
        WeightedCount.unweighted(base_s, base_n),
    )
    cur_lower, cur_upper = weighted_wilson_interval(cur_count)
    base_lower, _ = weighted_wilson_interval(base_count)
    cur_rate = _rate(cur_count, cur_s, cur_n)
    base_rate = _rate(base_count, base_s, base_n)
    against = Baseline(base_rate, base_lower, base_n) if base_n >= min_samples else None
    fire = against is not None and cur_n >= min_samples and cur_upper < base_lower
    clear = not fire and cur_n > 0 and against is not None and cur_upper >= base_rate
    compared = (
        f"baseline {against.describe()}"
        if against is not None
        else f"baseline too small to judge (n={base_n}, fewer than {min_samples})"
    )
    summary = (
        f"{what} {_percent(cur_rate)} ({_ci(cur_count)} {_percent(cur_lower)}–{_percent(cur_upper)},"
        f" n={cur_n}) for {key.describe()}{_judges(judged_by)}; {compared}"
    )
    threshold = against.lower if against is not None else math.nan
    return Observation(
        key, cur_rate, cur_lower, cur_upper, cur_n, threshold, fire, clear, summary, judged_by, against
    )


def recovered_against(
    key: AlertKey,
    what: str,
    since_fired: WeightedCount,
    successes: int,
    n: int,
    baseline: Baseline,
    *,
    judged_by: str = "",
) -> Observation:
    """A firing support drop whose window has no baseline of its own (too little history before it), judged
    on the traffic since it fired against the baseline it fired on: it clears once that traffic's upper
    bound is back at the baseline's rate. It never fires again from here: what fired it is still firing.
    ``since_fired`` holds the (weighted) sums of ``successes`` of ``n`` requests since it fired."""
    lower, upper = weighted_wilson_interval(since_fired)
    rate = _rate(since_fired, successes, n)
    clear = n > 0 and upper >= baseline.rate
    interval = f"{_ci(since_fired)} {_percent(lower)}–{_percent(upper)}, n={n}"
    measured = (
        f"{what} {_percent(rate)} ({interval}) since it fired"
        if n
        else f"no {what} since it fired (no judged requests yet)"
    )
    summary = (
        f"{measured} for {key.describe()}{_judges(judged_by)}; against the baseline it fired on,"
        f" {baseline.describe()} (no baseline of its own before this window)"
    )
    return Observation(key, rate, lower, upper, n, baseline.lower, False, clear, summary, judged_by, baseline)


def _rate(count: WeightedCount, events: int, n: int) -> float:
    if count.is_unweighted:
        return events / n if n else 0.0
    return count.rate


def _ci(count: WeightedCount) -> str:
    return "95% CI" if count.is_unweighted else "95% CI, inverse-probability weighted"


def scoring_stalled(
    key: AlertKey, requests: int, scores: int, *, min_requests: int, sample_rate: float = 1.0
) -> Observation:
    """Requests the sample rate selects keep arriving but nothing was scored: the scorer is down, stuck or out
    of budget. Traffic the sample rate leaves out is not expected to be scored, so it never fires this."""
    fire = requests * sample_rate >= min_requests and scores == 0
    clear = scores > 0 or requests == 0
    summary = f"{requests} requests and {scores} scores in the window for {key.describe()}"
    return Observation(key, float(scores), 0.0, 0.0, requests, float(min_requests), fire, clear, summary)


def corrected_rate_above(
    key: AlertKey,
    estimate: tuple[float, float, float] | None,
    samples: int,
    *,
    threshold: float,
    min_samples: int,
    source: str,
    resolve_margin: float = 0.0,
) -> Observation:
    """The hallucination rate corrected for the free judge's measured errors is too high: fire on its
    interval's lower bound, clear on its upper, like :func:`rate_above`. ``estimate`` is (rate, lower, upper),
    or None when it cannot be told (``source`` then says why): that decides neither, so a firing alert keeps
    firing until there is evidence either way. ``source`` otherwise names where the error rates came from."""
    if estimate is None:
        summary = (
            f"corrected hallucination rate for {key.describe()}: not estimated ({source});"
            f" threshold {_percent(threshold)}"
        )
        return Observation(key, 0.0, 0.0, 1.0, samples, threshold, False, False, summary)
    rate, lower, upper = estimate
    fire = samples >= min_samples and lower > threshold
    clear = not fire and upper < threshold - resolve_margin
    summary = (
        f"corrected hallucination rate {_percent(rate)} (95% CI {_percent(lower)}–{_percent(upper)},"
        f" n={samples}) for {key.describe()}, the judge's error rates from {source};"
        f" threshold {_percent(threshold)}"
    )
    return Observation(key, rate, lower, upper, samples, threshold, fire, clear, summary)
