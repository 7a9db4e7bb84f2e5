"""The Wilson interval every report, dashboard and alert quotes; the interval of a difference of two rates."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_scorers.stats import difference_interval, student_t_quantile, welch_interval, wilson_interval


def test_matches_the_textbook_value_for_20_of_100() -> None:
    lower, upper = wilson_interval(20, 100)
    assert lower == pytest.approx(0.1334, abs=5e-5)
    assert upper == pytest.approx(0.2888, abs=5e-5)


def test_no_successes_gives_a_lower_bound_of_exactly_zero_and_all_successes_an_upper_bound_of_one() -> None:
    assert wilson_interval(0, 40)[0] == 0.0
    assert wilson_interval(40, 40)[1] == 1.0


def test_no_samples_says_nothing_is_known() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_more_successes_than_samples_is_an_error() -> None:
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(5, 4)


@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_interval_contains_the_observed_rate_and_stays_in_bounds(case: tuple[int, int]) -> None:
    successes, n = case
    lower, upper = wilson_interval(successes, n)
    assert 0.0 <= lower <= successes / n <= upper <= 1.0


@given(st.integers(0, 50))
def test_more_samples_at_the_same_rate_narrow_the_interval(successes: int) -> None:
    small = wilson_interval(successes, 50)
    large = wilson_interval(successes * 10, 500)
    assert large[1] - large[0] < small[1] - small[0]


# Newcombe (1998), "Interval estimation for the difference between independent proportions: comparison of
# eleven methods", Statistics in Medicine 17:873-890, Table II, method 10 (score interval, no continuity
# correction): (successes, n) of each sample and the published 95% limits.
NEWCOMBE_1998_METHOD_10 = [
    ((56, 70), (48, 80), (0.0524, 0.3339)),
    ((9, 10), (3, 10), (0.1705, 0.8090)),
    ((5, 56), (0, 29), (-0.0381, 0.1926)),
    ((0, 10), (0, 20), (-0.1611, 0.2775)),
    ((10, 10), (0, 20), (0.6791, 1.0)),
]


@pytest.mark.parametrize(("first", "second", "published"), NEWCOMBE_1998_METHOD_10)
def test_difference_interval_matches_newcombes_worked_examples(
    first: tuple[int, int], second: tuple[int, int], published: tuple[float, float]
) -> None:
    lower, upper = difference_interval(*first, *second)
    assert lower == pytest.approx(published[0], abs=5e-5)
    assert upper == pytest.approx(published[1], abs=5e-5)


def test_difference_interval_of_an_empty_sample_says_nothing_is_known() -> None:
    assert difference_interval(3, 10, 0, 0) == (-1.0, 1.0)


samples = st.integers(1, 2000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n)))


@given(samples, samples)
def test_difference_interval_contains_the_observed_difference_and_mirrors_when_swapped(
    first: tuple[int, int], second: tuple[int, int]
) -> None:
    lower, upper = difference_interval(*first, *second)
    difference = first[0] / first[1] - second[0] / second[1]
    assert -1.0 <= lower <= difference <= upper <= 1.0
    swapped = difference_interval(*second, *first)
    assert swapped == pytest.approx((-upper, -lower))


@pytest.mark.parametrize(
    ("freedom", "quantile"),
    [(1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281), (30, 2.0423), (1000, 1.9623)],
)
def test_student_t_quantiles_match_the_printed_tables(freedom: float, quantile: float) -> None:
    assert student_t_quantile(0.975, freedom) == pytest.approx(quantile, abs=1e-4)
    assert student_t_quantile(0.025, freedom) == pytest.approx(-quantile, abs=1e-4)


def test_welch_interval_matches_the_worked_example() -> None:
    # Welch's t-test, Wikipedia's first example: t = −2.46, ν = 25.0, p = 0.021 (two-sided).
    a1 = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4]
    a2 = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4]
    moments = (statistics.mean(a1), statistics.variance(a1), len(a1))
    others = (statistics.mean(a2), statistics.variance(a2), len(a2))
    lower, upper = welch_interval(*moments, *others)
    difference = moments[0] - others[0]
    assert lower < difference < upper < 0
    # At confidence 1 − p the interval's upper end reaches zero: the same test, read as an interval.
    _, upper_at_p = welch_interval(*moments, *others, confidence=1 - 0.021)
    assert upper_at_p == pytest.approx(0.0, abs=0.02)
    assert difference / ((upper - lower) / 2 / student_t_quantile(0.975, 25.0)) == pytest.approx(
        -2.46, abs=0.01
    )


def test_welch_interval_needs_two_samples_a_side_and_collapses_without_spread() -> None:
    with pytest.raises(ValueError, match="two samples"):
        welch_interval(1.0, 0.0, 1, 0.0, 0.0, 5)
    assert welch_interval(0.8, 0.0, 10, 0.5, 0.0, 10) == pytest.approx((0.3, 0.3))
