"""Small statistics shared by reports, alerts and evaluations."""

from __future__ import annotations

import math

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
