"""The alert on the hallucination rate corrected for the free judge's errors: it fires on its interval's lower
bound, clears on its upper, and says nothing either way while the rate cannot be estimated."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from ragpulse_dashboards.alerts import rules
from ragpulse_dashboards.alerts.rules import AlertKey, corrected_rate_above

KEY = AlertKey(rules.CORRECTED_RATE, "svc", "A")


def _observe(estimate: tuple[float, float, float] | None, samples: int = 200) -> rules.Observation:
    return corrected_rate_above(
        KEY,
        estimate,
        samples,
        threshold=0.2,
        min_samples=30,
        source="40 reviewer labels",
        resolve_margin=0.02,
    )


def test_it_fires_once_the_whole_interval_is_above_the_threshold() -> None:
    fired = _observe((0.31, 0.22, 0.40))
    assert fired.fire and not fired.clear
    assert "corrected hallucination rate 31.0% (95% CI 22.0%–40.0%, n=200)" in fired.summary
    assert "error rates from 40 reviewer labels" in fired.summary
    straddling = _observe((0.25, 0.15, 0.35))
    assert not straddling.fire and not straddling.clear
    assert _observe((0.1, 0.05, 0.17)).clear
    assert not _observe((0.1, 0.05, 0.19)).clear  # within the resolve margin


def test_too_few_requests_never_fire() -> None:
    assert not _observe((0.5, 0.4, 0.6), samples=29).fire


def test_without_an_estimate_it_neither_fires_nor_clears_and_says_why() -> None:
    unknown = corrected_rate_above(
        KEY, None, 500, threshold=0.2, min_samples=30, source="not enough reviewer labels (12 of 30)"
    )
    assert not unknown.fire and not unknown.clear
    assert "not estimated (not enough reviewer labels (12 of 30))" in unknown.summary


@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_fire_and_clear_are_never_both_true(rate: float, a: float, b: float, threshold: float) -> None:
    lower, upper = sorted((a, b))
    seen = corrected_rate_above(
        KEY, (rate, lower, upper), 100, threshold=threshold, min_samples=1, source="x"
    )
    assert not (seen.fire and seen.clear)
