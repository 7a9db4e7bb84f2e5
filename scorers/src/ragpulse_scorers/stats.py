"""Small statistics shared by reports, alerts and evaluations."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes must lie in [0, n], got {successes} of {n}")
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half_width = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # The closed forms are exact at the ends; floating point would leave 1e-17 above 0 (or below 1) there.
    lower = 0.0 if successes == 0 else max(0.0, centre - half_width)
    upper = 1.0 if successes == n else min(1.0, centre + half_width)
    return lower, upper


def difference_interval(
    successes_1: int, n_1: int, successes_2: int, n_2: int, z: float = Z95
) -> tuple[float, float]:
    """Interval for p1 − p2 of two independent proportions: Newcombe's hybrid score interval.

    Method 10 of Newcombe (1998, Statistics in Medicine 17:873): each proportion's Wilson interval, combined
    as a square root of summed squared distances. Unlike the Wald interval it stays inside [−1, 1] and keeps
    its coverage near 0 or 1 and at tens of samples. (−1, 1) when either sample is empty.
    """
    if n_1 <= 0 or n_2 <= 0:
        return -1.0, 1.0
    lower_1, upper_1 = wilson_interval(successes_1, n_1, z)
    lower_2, upper_2 = wilson_interval(successes_2, n_2, z)
    p_1, p_2 = successes_1 / n_1, successes_2 / n_2
    difference = p_1 - p_2
    lower = difference - math.sqrt((p_1 - lower_1) ** 2 + (upper_2 - p_2) ** 2)
    upper = difference + math.sqrt((upper_1 - p_1) ** 2 + (p_2 - lower_2) ** 2)
    return max(-1.0, lower), min(1.0, upper)


def welch_interval(
    mean_a: float,
    variance_a: float,
    n_a: float,
    mean_b: float,
    variance_b: float,
    n_b: float,
    confidence: float = 0.95,
) -> tuple[float, float]:
    """Welch's interval for the difference of two means, ``mean_a − mean_b``, from sample variances.

    The degrees of freedom are Welch–Satterthwaite's, so unequal variances and sizes are allowed; a size may
    be an effective (fractional) one. Each side needs at least two samples; without spread on either side
    the interval is the point itself.
    """
    if n_a < 2 or n_b < 2:
        raise ValueError(f"Welch's interval needs two samples per side, got {n_a} and {n_b}")
    difference = mean_a - mean_b
    share_a, share_b = variance_a / n_a, variance_b / n_b
    standard_error = math.sqrt(share_a + share_b)
    if standard_error == 0:
        return difference, difference
    freedom = (share_a + share_b) ** 2 / (share_a**2 / (n_a - 1) + share_b**2 / (n_b - 1))
    half_width = student_t_quantile(0.5 + confidence / 2, freedom) * standard_error
    return difference - half_width, difference + half_width


def student_t_quantile(probability: float, freedom: float) -> float:
    """The ``probability`` quantile of Student's t with (possibly fractional) ``freedom`` degrees."""
    if not 0 < probability < 1 or freedom <= 0:
        raise ValueError(f"need 0 < probability < 1 and freedom > 0, got {probability}, {freedom}")
    if probability < 0.5:
        return -student_t_quantile(1 - probability, freedom)
    low, high = 0.0, 1.0
    while _student_t_cdf(high, freedom) < probability:
        high *= 2
    for _ in range(100):
        middle = (low + high) / 2
        if _student_t_cdf(middle, freedom) < probability:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _student_t_cdf(t: float, freedom: float) -> float:
    tail = 0.5 * _regularized_beta(freedom / (freedom + t * t), freedom / 2, 0.5)
    return 1 - tail if t >= 0 else tail


def _regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b) by Lentz's continued fraction, on whichever side of the mean it converges fast."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(x, a, b) / a
    return 1 - math.exp(log_front) * _beta_fraction(1 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 300):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return result


@dataclass(frozen=True)
class WeightedCount:
    """A proportion's sums over LLM-judged requests, each weighted by 1 / its inclusion probability.

    ``weights`` = Σw, ``weighted_events`` = Σw·y, ``squared_weights`` = Σw², ``squared_weighted_events`` =
    Σw²·y for y in {0, 1}. With every probability 1 the weights are counts and the figures are today's.
    """

    weights: float
    weighted_events: float
    squared_weights: float
    squared_weighted_events: float

    @classmethod
    def unweighted(cls, events: int, n: int) -> WeightedCount:
        return cls(float(n), float(events), float(n), float(events))

    @property
    def is_unweighted(self) -> bool:
        # Inclusion probabilities are at most 1, so every weight is at least 1: Σw² = Σw only when all are 1.
        return self.squared_weights == self.weights

    @property
    def rate(self) -> float:
        """The Hájek ratio estimate Σw·y / Σw of the population rate (0 without requests)."""
        return self.weighted_events / self.weights if self.weights > 0 else 0.0

    @property
    def effective_n(self) -> float:
        """The sample size an unweighted sample would need for the Hájek estimate's variance.

        The variance is the linearised one, Σw²(y − p)² / (Σw)²; at p = 0 or 1 it vanishes and Kish's
        (Σw)² / Σw² stands in. With all weights 1 it is the number of requests.
        """
        if self.weights <= 0:
            return 0.0
        p = self.rate
        spread = (1 - 2 * p) * self.squared_weighted_events + p * p * self.squared_weights
        if p <= 0.0 or p >= 1.0 or spread <= 0.0:
            return self.weights**2 / self.squared_weights
        return p * (1 - p) * self.weights**2 / spread


def weighted_wilson_interval(count: WeightedCount, z: float = Z95) -> tuple[float, float]:
    """Wilson interval for the Hájek rate at its effective sample size; exactly today's with no weights."""
    if count.is_unweighted:
        return wilson_interval(round(count.weighted_events), round(count.weights), z)
    n = count.effective_n
    if n <= 0:
        return 0.0, 1.0
    p = count.rate
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half_width = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    lower = 0.0 if p <= 0.0 else max(0.0, centre - half_width)
    upper = 1.0 if p >= 1.0 else min(1.0, centre + half_width)
    return lower, upper


def weighted_difference_interval(
    first: WeightedCount, second: WeightedCount, z: float = Z95
) -> tuple[float, float]:
    """Newcombe's interval for ``first.rate − second.rate`` from the two weighted Wilson intervals; exactly
    :func:`difference_interval` when neither is weighted."""
    if first.is_unweighted and second.is_unweighted:
        return difference_interval(
            round(first.weighted_events), round(first.weights), round(second.weighted_events),
            round(second.weights), z,
        )  # fmt: skip
    if first.weights <= 0 or second.weights <= 0:
        return -1.0, 1.0
    lower_1, upper_1 = weighted_wilson_interval(first, z)
    lower_2, upper_2 = weighted_wilson_interval(second, z)
    p_1, p_2 = first.rate, second.rate
    difference = p_1 - p_2
    lower = difference - math.sqrt((p_1 - lower_1) ** 2 + (upper_2 - p_2) ** 2)
    upper = difference + math.sqrt((upper_1 - p_1) ** 2 + (p_2 - lower_2) ** 2)
    return max(-1.0, lower), min(1.0, upper)
