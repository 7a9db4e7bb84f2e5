"""MRR@5 with graded relevance, precision@k and the gain of RAG-Fusion over the original query."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_scorers.metrics.ranking import (
    SOMEWHAT_RELEVANT,
    VERY_RELEVANT,
    fusion_gain,
    grades_for,
    mean_reciprocal_rank,
    precision_at_k,
    reciprocal_rank,
    variation_mrr,
)


def test_reciprocal_rank_depends_on_the_threshold() -> None:
    grades = [0, 1, 0, 2, 1]
    assert reciprocal_rank(grades, SOMEWHAT_RELEVANT) == 0.5
    assert reciprocal_rank(grades, VERY_RELEVANT) == 0.25


def test_relevant_document_below_rank_5_counts_zero() -> None:
    grades = [0, 0, 0, 0, 0, 2]
    assert reciprocal_rank(grades, VERY_RELEVANT) == 0.0
    assert reciprocal_rank(grades, VERY_RELEVANT, k=6) == pytest.approx(1 / 6)


def test_unjudged_documents_count_as_not_relevant() -> None:
    assert reciprocal_rank([None, 2], VERY_RELEVANT) == 0.5
    assert precision_at_k([None, 1, None, 0]) == 0.25


def test_mean_reciprocal_rank_averages_queries() -> None:
    rankings = [[2, 0], [0, 2], [0, 0, 0, 0, 0]]
    assert mean_reciprocal_rank(rankings, VERY_RELEVANT) == pytest.approx((1 + 0.5 + 0) / 3)
    assert mean_reciprocal_rank([], VERY_RELEVANT) is None


def test_precision_at_k_counts_somewhat_or_very_relevant() -> None:
    assert precision_at_k([2, 1, 0, 0]) == 0.5
    assert precision_at_k([2, 1, 0, 0], threshold=VERY_RELEVANT) == 0.25
    assert precision_at_k([2, 1, 0, 0], k=2) == 1.0
    assert precision_at_k([]) is None


def test_fusion_gain_is_fused_minus_original() -> None:
    relevance = {"d1": 0, "d2": 2, "d3": 1}
    fused = grades_for(["d2", "d1"], relevance)
    original = grades_for(["d1", "d3", "d2"], relevance)
    assert fusion_gain(fused, original, VERY_RELEVANT) == pytest.approx(1 - 1 / 3)
    assert fusion_gain(original, fused, SOMEWHAT_RELEVANT) == pytest.approx(0.5 - 1)


def test_variation_mrr_reports_how_much_of_the_ranking_was_judged() -> None:
    result = variation_mrr(1, "variant query", ["x", "d2", "y"], {"d2": 1})
    assert (result.mrr_relevant, result.mrr_very_relevant) == (0.5, 0.0)
    assert (result.judged, result.ranked) == (1, 3)


def test_k_below_one_is_an_error() -> None:
    with pytest.raises(ValueError):
        reciprocal_rank([2], VERY_RELEVANT, k=0)


@given(st.lists(st.one_of(st.none(), st.integers(0, 2)), max_size=12), st.integers(1, 12))
def test_rr_is_one_over_a_rank_and_stricter_threshold_never_helps(grades: list[int | None], k: int) -> None:
    strict = reciprocal_rank(grades, VERY_RELEVANT, k)
    lenient = reciprocal_rank(grades, SOMEWHAT_RELEVANT, k)
    assert strict <= lenient
    assert lenient == 0.0 or 1 / lenient == pytest.approx(round(1 / lenient))
