"""Sampling arithmetic, shard parsing, the rate budget and the allotment of a tick's candidates."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pipeline_testing import RecordingScorer, settings_for
from ragpulse_core.sampling import SAMPLE_BUCKETS, Shard, sample_threshold
from ragpulse_core.store import Store
from ragpulse_scorers.pipeline.limits import RequestBudget, TickAllowance
from ragpulse_scorers.pipeline.scheduler import SCORING_JOB_ID, build_scheduler


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@given(st.integers(0, 10_000), st.integers(1, 10_000))
def test_shard_text_round_trips_or_is_refused(index: int, count: int) -> None:
    text = f"{index}/{count}"
    if index < count:
        assert str(Shard.parse(text)) == text
    else:
        with pytest.raises(ValueError, match="0 <= i < N"):
            Shard.parse(text)


@pytest.mark.parametrize("text", ["", "1", "1/", "a/b", "-1/2", "1/2/3", "0/0"])
def test_malformed_shard_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="shard"):
        Shard.parse(text)


@given(st.floats(0, 1), st.floats(0, 1))
def test_higher_sample_rate_keeps_a_superset(low: float, high: float) -> None:
    low, high = sorted((low, high))
    assert 0 <= sample_threshold(low) <= sample_threshold(high) <= SAMPLE_BUCKETS


@pytest.mark.parametrize("rate", [-0.1, 1.5, float("nan")])
def test_sample_rate_outside_zero_to_one_is_refused(rate: float) -> None:
    with pytest.raises(ValueError, match="sample rate"):
        sample_threshold(rate)


def test_budget_refills_over_time_up_to_one_minute() -> None:
    clock = FakeClock()
    budget = RequestBudget(60, clock=clock)

    assert budget.take(100) == 60
    assert budget.take(1) == 0
    clock.now += 10
    assert budget.take(100) == 10
    clock.now += 3600
    assert budget.take(1000) == 60


@given(
    st.lists(st.sampled_from("ABC"), max_size=60),
    st.integers(1, 20),
    st.integers(1, 40),
    st.integers(1, 100),
)
def test_allotment_honours_every_limit_and_loses_nothing(
    variants: list[str], quota: int, limit: int, per_minute: int
) -> None:
    candidates = list(enumerate(variants))
    allotment = TickAllowance[tuple[int, str]](
        lambda c: c[1],
        per_variant_quota=quota,
        per_tick_limit=limit,
        budget=RequestBudget(per_minute, clock=FakeClock()),
    ).allot(candidates)

    chosen = allotment.chosen
    assert len(chosen) <= min(limit, per_minute)
    assert all(sum(1 for c in chosen if c[1] == v) <= quota for v in "ABC")
    assert sorted(chosen + [c for c, _ in allotment.throttled]) == candidates
    assert chosen == sorted(chosen), "oldest first"
    # Until the tick limit is hit, every candidate whose variant is under its quota is taken.
    assert len(chosen) == min(limit, per_minute, sum(min(variants.count(v), quota) for v in "ABC"))


@given(
    st.lists(st.sampled_from("ABC"), max_size=60),
    st.integers(1, 20),
    st.integers(1, 40),
    st.integers(1, 100),
    st.integers(1, 25),
)
def test_a_tick_read_in_batches_allots_as_if_read_at_once(
    variants: list[str], quota: int, limit: int, per_minute: int, batch: int
) -> None:
    candidates = list(enumerate(variants))

    def allowance() -> TickAllowance[tuple[int, str]]:
        budget = RequestBudget(per_minute, clock=FakeClock())
        return TickAllowance(lambda c: c[1], per_variant_quota=quota, per_tick_limit=limit, budget=budget)

    at_once = allowance().allot(candidates)
    batched = allowance()
    allotments = [batched.allot(candidates[i : i + batch]) for i in range(0, len(candidates), batch)]

    assert [c for a in allotments for c in a.chosen] == at_once.chosen
    # The same candidates wait; which limit a batch names may differ once the rate budget is spent.
    assert sorted(c for a in allotments for c, _ in a.throttled) == sorted(c for c, _ in at_once.throttled)


def test_scheduler_runs_one_tick_at_a_time_and_coalesces(chdb_dsn: str) -> None:
    settings = settings_for(chdb_dsn, interval_s=7)
    scheduler = build_scheduler(settings, Store(chdb_dsn), [RecordingScorer()])

    job = scheduler.get_job(SCORING_JOB_ID)
    assert not scheduler.running
    assert job.max_instances == 1 and job.coalesce
    assert job.trigger.interval.total_seconds() == 7
