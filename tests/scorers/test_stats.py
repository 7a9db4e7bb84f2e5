"""The Wilson interval every report, dashboard and alert quotes; the interval of a difference of two rates."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_scorers.stats import difference_interval, wilson_interval


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
