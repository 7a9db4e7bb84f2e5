"""The Wilson interval every report, dashboard and alert quotes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_scorers.stats import wilson_interval


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
