"""Inverse-probability weighted rates: the Hájek estimate and its interval; unweighted ones stay as today."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st
from ragpulse_scorers.lexical.uncertainty import verdict_uncertainty
from ragpulse_scorers.stats import WeightedCount, weighted_wilson_interval, wilson_interval


def _count(rows: list[tuple[float, int]]) -> WeightedCount:
    return WeightedCount(
        weights=sum(1 / p for p, _ in rows),
        weighted_events=sum(y / p for p, y in rows),
        squared_weights=sum(1 / p**2 for p, _ in rows),
        squared_weighted_events=sum(y / p**2 for p, y in rows),
    )


@given(st.integers(min_value=0, max_value=5000), st.integers(min_value=0, max_value=5000))
def test_with_every_probability_one_rate_and_interval_are_todays(events: int, extra: int) -> None:
    n = events + extra
    count = _count([(1.0, 1)] * events + [(1.0, 0)] * extra)
    assert weighted_wilson_interval(count) == wilson_interval(events, n)
    assert count.rate == (events / n if n else 0.0)


def test_the_weighted_rate_undoes_a_sample_that_favoured_hallucinated_requests() -> None:
    # A population with 10% hallucinated; the hallucinated ones are judged 5x as often as the rest.
    rng = random.Random(3)
    population = [1] * 10_000 + [0] * 90_000
    rows = []
    for y in population:
        p = 0.25 if y else 0.05
        if rng.random() < p:
            rows.append((p, y))
    count = _count(rows)
    naive = sum(y for _, y in rows) / len(rows)
    assert naive > 0.3
    assert abs(count.rate - 0.10) < 0.01
    lower, upper = weighted_wilson_interval(count)
    assert lower < 0.10 < upper


def test_the_weighted_interval_covers_the_true_rate_about_95_percent_of_the_time() -> None:
    rng = random.Random(11)
    population = [1] * 200 + [0] * 1800
    covered = 0
    draws = 400
    for _ in range(draws):
        rows = [(p, y) for y in population for p in [0.3 if y else 0.06] if rng.random() < p]
        lower, upper = weighted_wilson_interval(_count(rows))
        covered += lower <= 0.10 <= upper
    assert 0.91 <= covered / draws <= 0.99


def test_uncertainty_is_highest_near_the_threshold_and_positive_everywhere() -> None:
    threshold = 0.41
    near = verdict_uncertainty(0.40, threshold)
    assert near > verdict_uncertainty(0.1, threshold) > 0
    assert near > verdict_uncertainty(0.9, threshold) > 0
    assert verdict_uncertainty(1.0, threshold) < 0.05
