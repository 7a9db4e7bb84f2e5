"""Directed sampling: probabilities stay in (0, 1], the expected LLM calls match the rule's rate, decisions
are deterministic per trace, and a directed rule judges uncertain requests more often."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ragpulse_core.directed_sampling import (
    DirectedPlan,
    inclusion_probability,
    is_sampled,
    plan_directed,
)
from ragpulse_core.sampling import SAMPLE_BUCKETS, sample_threshold

uncertainties = st.lists(st.floats(min_value=0.001, max_value=1.0), min_size=1, max_size=200)
rates = st.floats(min_value=0.01, max_value=1.0)
shares = st.floats(min_value=0.0, max_value=1.0)


@settings(max_examples=200, deadline=None)
@given(uncertainties, rates, shares)
def test_every_request_keeps_a_positive_probability_at_most_one(
    us: list[float], rate: float, share: float
) -> None:
    plan = plan_directed(rate, share, us)
    for u in us:
        assert 0.0 < inclusion_probability(u, plan) <= 1.0


@settings(max_examples=200, deadline=None)
@given(uncertainties, rates, shares)
def test_expected_llm_calls_match_the_uniform_budget(us: list[float], rate: float, share: float) -> None:
    plan = plan_directed(rate, share, us)
    expected = sum(inclusion_probability(u, plan) for u in us)
    # Probabilities are whole buckets: each request is off by at most half a bucket from the exact plan.
    assert expected == pytest.approx(rate * len(us), abs=len(us) * (0.5 / SAMPLE_BUCKETS) + 1e-6)


@settings(max_examples=100, deadline=None)
@given(uncertainties, rates, st.floats(min_value=0.01, max_value=1.0))
def test_more_uncertain_requests_are_never_less_likely(us: list[float], rate: float, share: float) -> None:
    plan = plan_directed(rate, share, us)
    ordered = sorted(us)
    probabilities = [inclusion_probability(u, plan) for u in ordered]
    assert probabilities == sorted(probabilities)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**64 - 1), rates)
def test_with_no_directed_share_the_decision_is_todays_uniform_one(key: int, rate: float) -> None:
    plan = plan_directed(rate, 0.0, [0.2, 0.9])
    probability = inclusion_probability(0.9, plan)
    assert is_sampled(key, probability) == (key % SAMPLE_BUCKETS < sample_threshold(rate))


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=2**64 - 1), uncertainties, rates, shares)
def test_the_decision_is_deterministic_per_trace(
    key: int, us: list[float], rate: float, share: float
) -> None:
    first = [is_sampled(key, inclusion_probability(u, plan_directed(rate, share, us))) for u in us]
    again = [is_sampled(key, inclusion_probability(u, plan_directed(rate, share, list(us)))) for u in us]
    assert first == again


def test_a_share_too_small_to_matter_plans_like_uniform_instead_of_spinning() -> None:
    # The smallest positive share made the search's starting bound underflow to 0 and double forever.
    plan = plan_directed(0.4, 5e-324, [0.5] * 9)
    assert inclusion_probability(0.5, plan) == inclusion_probability(0.5, DirectedPlan.uniform(0.4))


def test_the_recorded_probability_is_the_share_of_trace_keys_the_hash_draw_keeps() -> None:
    probability = inclusion_probability(0.3, plan_directed(0.1, 0.5, [0.01, 0.3, 0.5]))
    kept = sum(is_sampled(key, probability) for key in range(SAMPLE_BUCKETS))
    assert kept / SAMPLE_BUCKETS == probability


def test_a_directed_rule_judges_uncertain_requests_more_often_at_the_same_number_of_calls() -> None:
    rng = random.Random(7)
    us = [0.02] * 900 + [0.5] * 100
    keys = [rng.getrandbits(64) for _ in us]
    uniform = plan_directed(0.1, 0.0, us)
    directed = plan_directed(0.1, 0.6, us)
    uncertain_uniform = sum(inclusion_probability(u, uniform) for u in us if u == 0.5)
    uncertain_directed = sum(inclusion_probability(u, directed) for u in us if u == 0.5)
    assert uncertain_directed > 3 * uncertain_uniform
    calls = sum(is_sampled(k, inclusion_probability(u, directed)) for k, u in zip(keys, us, strict=True))
    assert 60 <= calls <= 140


def test_bad_inputs_are_refused_with_the_value() -> None:
    with pytest.raises(ValueError, match="directed_share"):
        plan_directed(0.1, 1.5, [0.5])
    with pytest.raises(ValueError, match="uncertainty"):
        inclusion_probability(0.0, DirectedPlan.uniform(0.1))
    with pytest.raises(ValueError, match="sample rate"):
        DirectedPlan(1.2, 0.0, 0.0)


def test_without_recent_traffic_the_plan_is_uniform() -> None:
    assert plan_directed(0.2, 0.5, []) == DirectedPlan.uniform(0.2)
    assert inclusion_probability(0.9, DirectedPlan.uniform(0.0)) == 0.0
