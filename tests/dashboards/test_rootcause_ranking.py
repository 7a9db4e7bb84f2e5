"""Where a change sits: the slice made worse is named first, a change spread evenly or no change names none,
and no slice is named whose interval overlaps its baseline's. Scenarios are random (rootcause_scenarios):
correlated dimensions, topics of different difficulty, small and large windows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ragpulse_core.store import Store
from ragpulse_dashboards.rootcause import topic_store
from ragpulse_dashboards.rootcause.facts import update_facts
from ragpulse_dashboards.rootcause.ranking import (
    Explanation,
    Finding,
    SliceCounts,
    SliceKey,
    explain,
)
from ragpulse_dashboards.rootcause.slices import Period, Scope, explain_scope
from ragpulse_dashboards.settings import RootCauseSettings
from ragpulse_scorers.stats import WeightedCount
from rootcause_data import write_requests
from rootcause_scenarios import (
    DEPLOYMENT,
    MODEL,
    REGION,
    SOURCE,
    TEMPLATE,
    TIER,
    TOPIC,
    TOPIC_WORDS,
    Scenario,
    planted,
    scenario,
    stored_requests,
)

Count = WeightedCount.unweighted


def explained(found: Scenario) -> Explanation:
    window, baseline = found.totals()
    return explain(window, baseline, found.slices(), residuals=found.residuals, direction=1)


def named_first(found: Scenario) -> SliceKey | None:
    result = explained(found)
    return result.slices[0].key if result.slices else None


@pytest.mark.slow
def test_random_scenarios_name_the_slice_made_worse_first_and_nothing_wrongly() -> None:
    outcomes = {"right": 0, "missed": 0, "wrong": []}
    for seed in range(40):
        found = scenario(seed, window=(600, 1500, 4000)[seed % 3])
        first = named_first(found)
        if first == found.expected:
            outcomes["right"] += 1
        elif first is None:
            outcomes["missed"] += 1
        else:
            outcomes["wrong"].append((seed, found.description, first))
    assert outcomes["wrong"] == []
    assert outcomes["right"] >= 36, outcomes


@pytest.mark.parametrize("kind", ["none", "spread"])
def test_small_windows_name_nothing_when_nothing_or_everything_changed(kind: str) -> None:
    for seed in range(6):
        found = scenario(seed, kind, window=150)
        result = explained(found)
        assert result.slices == [], (found.description, result.slices[0].key)
        assert result.finding in (Finding.NO_CHANGE, Finding.SPREAD)


def test_a_change_spread_evenly_is_said_to_be_spread() -> None:
    found = scenario(3, "spread", window=4000)
    assert explained(found).finding is Finding.SPREAD


def test_each_named_slice_has_its_rate_interval_n_and_share_of_the_change() -> None:
    # A model version on 30% of traffic went from 10% to 40%; the rest stayed at 10%.
    model = SliceCounts(SliceKey(MODEL, "m-2024-11"), Count(120, 300), Count(300, 3000))
    other = SliceCounts(SliceKey(MODEL, "m-2024-05"), Count(70, 700), Count(700, 7000))
    result = explain(Count(190, 1000), Count(1000, 10000), [model, other], direction=1)

    assert result.finding is Finding.FOUND
    [first] = result.slices
    assert first.key == model.key and first.window == model.window and first.baseline == model.baseline
    window_low, _ = first.window_interval
    _, baseline_high = first.baseline_interval
    assert window_low > baseline_high
    # Its own change (30 points on 30% of traffic) is all of the overall change (9 points).
    assert first.share == pytest.approx(1.0, abs=0.01)


def test_a_slice_new_in_the_window_is_held_against_the_scopes_baseline() -> None:
    found = planted("new", TEMPLATE)
    [first, *_] = explained(found).slices
    assert first.key == found.expected and first.new
    assert first.baseline == found.totals()[1]


def test_of_two_correlated_slices_the_one_made_worse_is_named_and_the_other_explained_by_it() -> None:
    window, baseline = Count(150, 1000), Count(1000, 10000)
    # A model version on 30% of traffic went from 10% to 40%; 90% of the enterprise tier runs it.
    model = SliceCounts(SliceKey(MODEL, "m-2024-11"), Count(120, 300), Count(300, 3000))
    tier = SliceCounts(SliceKey(TIER, "enterprise"), Count(85, 250), Count(250, 2500))
    residuals = {
        (model.key, tier.key): SliceCounts(model.key, Count(30, 75), Count(75, 750)),
        (tier.key, model.key): SliceCounts(tier.key, Count(3, 25), Count(25, 250)),
    }
    result = explain(window, baseline, [model, tier], residuals=lambda keys: residuals, direction=1)
    assert [ranked.key for ranked in result.slices] == [model.key]
    assert result.explained == {tier.key: model.key}


def test_too_few_judged_requests_say_so() -> None:
    result = explain(Count(3, 12), Count(40, 400), [], direction=1)
    assert result.finding is Finding.TOO_FEW and result.slices == []


_counts = st.tuples(st.integers(0, 500), st.integers(0, 500)).map(lambda pair: Count(min(pair), max(pair)))
_parts = st.tuples(
    st.sampled_from([MODEL, SOURCE, TIER]), st.text(max_size=5), st.floats(0, 1), st.floats(0, 1), _counts
)


@settings(max_examples=60)
@given(_counts, _counts, st.lists(_parts, max_size=12))
def test_no_named_slice_ever_overlaps_its_baseline(
    window: WeightedCount, baseline: WeightedCount, parts: list[tuple[str, str, float, float, WeightedCount]]
) -> None:
    """Any counts: a slice is part of the window (a share of its events, a share of its non-events)."""
    non_events = window.weights - window.weighted_events
    slices = [
        SliceCounts(
            SliceKey(dimension, value),
            Count(
                round(events * window.weighted_events),
                round(events * window.weighted_events + rest * non_events),
            ),
            slice_baseline,
        )
        for dimension, value, events, rest, slice_baseline in parts
    ]
    for direction in (1, -1):
        for ranked in explain(window, baseline, slices, direction=direction).slices:
            low, high = ranked.window_interval
            base_low, base_high = ranked.baseline_interval
            assert (low > base_high) if direction > 0 else (high < base_low)


# Through the store: rows written as ragpulse keeps them, the job's facts and topics, the hourly sums.
PLANTED = [
    ("model version", lambda: planted("slice", MODEL)),
    ("source", lambda: planted("slice", SOURCE)),
    ("topic", lambda: planted("slice", TOPIC)),
    ("template version (new)", lambda: planted("new", TEMPLATE)),
    ("customer tier", lambda: planted("slice", TIER)),
    ("spread", lambda: planted("spread")),
    ("none", lambda: planted("none")),
]


def test_through_the_store_the_alerts_scope_names_the_planted_slice_or_none(store: Store) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    window, baseline = timedelta(hours=1), timedelta(days=1)
    scenarios = {name: make() for name, make in PLANTED}
    for name, found in scenarios.items():
        write_requests(store, stored_requests(found, now, window, baseline, service=name), salt=name)
    update_facts(store, RootCauseSettings(attributes=[TIER, REGION, DEPLOYMENT]), now=now)
    names = topic_store.topic_names(store)

    for name, found in scenarios.items():
        result = explain_scope(store, Scope(name, "A"), Period(now - window, now, 1.0), direction=1)
        first = result.slices[0].key if result.slices else None
        if found.expected is None:
            assert first is None, (name, first)
        elif found.expected.dimension == TOPIC:
            assert first is not None and first.dimension == TOPIC, (name, first)
            assert set(names[int(first.value)].split(" · ")) <= set(TOPIC_WORDS[found.expected.value])
        else:
            assert first == found.expected, (name, found.description, first, result.finding)
