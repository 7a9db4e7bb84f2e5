"""Metrics #1-#6 and the hybrid rating of Xie et al. 2024, checked against the paper's own tables."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_scorers.metrics.coverage_metrics import (
    SUB_QUESTION_TYPES,
    CoverageMetrics,
    ScenarioMetrics,
    ScenarioShares,
    SubQuestionOutcome,
    SubQuestionType,
    aggregate_coverage_metrics,
    coverage_metrics,
    hybrid_rating,
    metrics_from_shares,
    scenario_shares,
)

# Table 1 of the paper, in percent: (¬answered ¬retrieved, ¬answered retrieved, answered ¬retrieved,
# answered retrieved) for core (C), background (B) and follow-up (F) sub-questions.
TABLE_1: dict[str, dict[SubQuestionType, tuple[int, int, int, int]]] = {
    "You.com": {"core": (26, 32, 9, 33), "background": (32, 48, 3, 17), "follow-up": (56, 30, 4, 10)},
    "Perplexity AI": {"core": (28, 18, 9, 45), "background": (39, 41, 3, 17), "follow-up": (61, 22, 5, 12)},
    "Bing Chat": {"core": (26, 25, 7, 42), "background": (39, 47, 1, 13), "follow-up": (59, 32, 2, 7)},
}

# Table 2 of the paper, Metrics #1-#4, in percent (rounded as the paper rounds).
TABLE_2: dict[str, dict[str, int]] = {
    "You.com": {
        "m1_core": 42,
        "m1_background": 20,
        "m1_follow-up": 14,
        "m2_core": 65,
        "m2_background": 65,
        "m2_follow-up": 40,
        "m3": 51,
        "m4": 45,
    },
    "Perplexity AI": {
        "m1_core": 54,
        "m1_background": 20,
        "m1_follow-up": 17,
        "m2_core": 63,
        "m2_background": 58,
        "m2_follow-up": 34,
        "m3": 71,
        "m4": 61,
    },
    "Bing Chat": {
        "m1_core": 49,
        "m1_background": 14,
        "m1_follow-up": 9,
        "m2_core": 67,
        "m2_background": 60,
        "m2_follow-up": 39,
        "m3": 63,
        "m4": 51,
    },
}


def _outcomes_for(engine: str) -> list[SubQuestionOutcome]:
    """Table 1 as sub-questions: each column sums to 100%, so 100 sub-questions per type reproduce it."""
    outcomes = []
    for type_, (neither, retrieved_only, answered_only, both) in TABLE_1[engine].items():
        for answered, retrieved, count in (
            (False, False, neither),
            (False, True, retrieved_only),
            (True, False, answered_only),
            (True, True, both),
        ):
            outcomes += [
                SubQuestionOutcome(type_, answered, covering_chunks=int(retrieved), total_chunks=10)
            ] * count
    return outcomes


def _table_2_row(metrics: ScenarioMetrics | CoverageMetrics) -> dict[str, int]:
    def pct(value: float | None) -> int:
        assert value is not None
        return round(100 * value)

    row = {f"m1_{t}": pct(metrics.answer_coverage[t]) for t in SUB_QUESTION_TYPES}
    row |= {f"m2_{t}": pct(metrics.retrieval_coverage[t]) for t in SUB_QUESTION_TYPES}
    return row | {"m3": pct(metrics.core_identification), "m4": pct(metrics.core_retrieval_headroom)}


@pytest.mark.parametrize("engine", list(TABLE_1))
def test_table_2_is_reproduced_from_table_1_outcomes(engine: str) -> None:
    metrics = coverage_metrics(_outcomes_for(engine))
    assert _table_2_row(metrics) == TABLE_2[engine]


@pytest.mark.parametrize("engine", list(TABLE_1))
def test_table_2_is_reproduced_from_table_1_shares(engine: str) -> None:
    shares = {t: ScenarioShares(*(p / 100 for p in column)) for t, column in TABLE_1[engine].items()}
    metrics = metrics_from_shares(shares)
    assert _table_2_row(metrics) == TABLE_2[engine]


def test_scenario_shares_recover_table_1_columns() -> None:
    shares = scenario_shares(_outcomes_for("Bing Chat"), "background")
    assert shares == pytest.approx(ScenarioShares(0.39, 0.47, 0.01, 0.13))


def test_pooling_requests_gives_the_same_table_as_one_pool() -> None:
    outcomes = _outcomes_for("You.com")
    split = [outcomes[i : i + 20] for i in range(0, len(outcomes), 20)]
    aggregated = aggregate_coverage_metrics(split)
    pooled = coverage_metrics(outcomes)
    assert aggregated.answer_coverage == pooled.answer_coverage
    assert aggregated.core_identification == pooled.core_identification
    assert aggregated.counts == {"core": 100, "background": 100, "follow-up": 100}


def test_metric_5_compares_chunk_frequency_of_covered_and_missed_core_sub_questions() -> None:
    outcomes = [
        SubQuestionOutcome("core", True, covering_chunks=6, total_chunks=10),
        SubQuestionOutcome("core", True, covering_chunks=4, total_chunks=10),
        SubQuestionOutcome("core", False, covering_chunks=1, total_chunks=10),
        SubQuestionOutcome("background", False, covering_chunks=9, total_chunks=10),  # not core: ignored
    ]
    assert coverage_metrics(outcomes).core_chunk_frequency_gap == pytest.approx(0.5 - 0.1)


def test_metric_6_is_follow_up_position_minus_mean_of_core_and_background() -> None:
    outcomes = [
        SubQuestionOutcome("core", True, position=0.1),
        SubQuestionOutcome("core", True, position=0.3),
        SubQuestionOutcome("background", True, position=0.4),
        SubQuestionOutcome("follow-up", True, position=0.9),
        SubQuestionOutcome("follow-up", False),
    ]
    assert coverage_metrics(outcomes).position_alignment == pytest.approx(0.9 - (0.2 + 0.4) / 2)


def test_hybrid_rating_weights_core_one_background_half_follow_up_minus_one() -> None:
    outcomes = (
        [SubQuestionOutcome("core", True)] * 3
        + [SubQuestionOutcome("core", False)]
        + [SubQuestionOutcome("background", True), SubQuestionOutcome("background", False)]
        + [SubQuestionOutcome("follow-up", True)]
        + [SubQuestionOutcome("follow-up", False)] * 3
    )
    assert coverage_metrics(outcomes).hybrid_rating == pytest.approx(0.75 + 0.5 * 0.5 - 0.25)


def test_answer_covering_follow_ups_rates_below_one_covering_core() -> None:
    focused = [SubQuestionOutcome("core", True), SubQuestionOutcome("follow-up", False)]
    wandering = [SubQuestionOutcome("core", False), SubQuestionOutcome("follow-up", True)]
    assert coverage_metrics(focused).hybrid_rating == 1.0
    assert coverage_metrics(wandering).hybrid_rating == -1.0


def test_aggregate_hybrid_rating_is_the_mean_of_per_request_ratings() -> None:
    requests = [
        [SubQuestionOutcome("core", True)],
        [
            SubQuestionOutcome("core", False),
            SubQuestionOutcome("core", False),
            SubQuestionOutcome("core", True),
        ],
    ]
    assert aggregate_coverage_metrics(requests).hybrid_rating == pytest.approx((1.0 + 1 / 3) / 2)


def test_undefined_metrics_are_none_not_zero() -> None:
    metrics = coverage_metrics([SubQuestionOutcome("core", False), SubQuestionOutcome("background", True)])
    assert metrics.answer_coverage["follow-up"] is None
    assert metrics.core_identification is None  # no core sub-question was retrieved
    assert metrics.core_retrieval_headroom == 1.0
    assert metrics.core_chunk_frequency_gap is None  # no chunks at all
    assert metrics.position_alignment is None
    empty = coverage_metrics([])
    assert empty.hybrid_rating is None
    assert empty.counts == {"core": 0, "background": 0, "follow-up": 0}


def test_hybrid_rating_skips_types_without_sub_questions() -> None:
    assert hybrid_rating({"core": 0.5, "background": None, "follow-up": None}) == 0.5
    assert hybrid_rating({"core": None, "background": None, "follow-up": None}) is None


@pytest.mark.parametrize(
    "kwargs",
    [
        {"type": "main", "answered": True},
        {"type": "core", "answered": True, "covering_chunks": 3, "total_chunks": 2},
        {"type": "core", "answered": True, "covering_chunks": -1, "total_chunks": 2},
        {"type": "core", "answered": True, "position": 1.5},
        {"type": "core", "answered": False, "position": 0.2},
    ],
)
def test_impossible_outcomes_are_rejected(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        SubQuestionOutcome(**kwargs)  # type: ignore[arg-type]


outcome_strategy = st.builds(
    lambda type_, answered, total, covering_share, position: SubQuestionOutcome(
        type_,
        answered,
        covering_chunks=round(total * covering_share),
        total_chunks=total,
        position=position if answered else None,
    ),
    st.sampled_from(SUB_QUESTION_TYPES),
    st.booleans(),
    st.integers(0, 12),
    st.floats(0, 1),
    st.floats(0, 1),
)


@given(st.lists(outcome_strategy, max_size=40))
def test_metrics_stay_in_their_ranges(outcomes: list[SubQuestionOutcome]) -> None:
    metrics = coverage_metrics(outcomes)
    for rate in [
        *metrics.answer_coverage.values(),
        *metrics.retrieval_coverage.values(),
        metrics.core_identification,
        metrics.core_retrieval_headroom,
    ]:
        assert rate is None or 0.0 <= rate <= 1.0
    for gap in (metrics.core_chunk_frequency_gap, metrics.position_alignment):
        assert gap is None or -1.0 <= gap <= 1.0
    assert metrics.hybrid_rating is None or -1.0 <= metrics.hybrid_rating <= 1.5
    assert sum(metrics.counts.values()) == len(outcomes)
