"""Metric functions of ``ragpulse eval``: hand-computed values and properties of AUROC."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_scorers.evaluation.metrics import Confusion, auroc


def test_confusion_metrics_match_hand_computed_values() -> None:
    truth = [True, True, True, False, False, False, False, False]
    predicted = [True, True, False, True, False, False, False, False]
    c = Confusion.of(truth, predicted)
    assert (c.tp, c.fp, c.tn, c.fn) == (2, 1, 4, 1)
    assert c.precision == pytest.approx(2 / 3)
    assert c.recall == pytest.approx(2 / 3)
    assert c.f1 == pytest.approx(2 / 3)
    assert c.accuracy == pytest.approx(6 / 8)
    assert c.balanced_accuracy == pytest.approx((2 / 3 + 4 / 5) / 2)


def test_metrics_without_predicted_positives_are_zero_not_an_error() -> None:
    c = Confusion.of([True, False], [False, False])
    assert (c.precision, c.recall, c.f1) == (0.0, 0.0, 0.0)
    assert c.balanced_accuracy == 0.5


def test_mismatched_lengths_are_rejected() -> None:
    with pytest.raises(ValueError, match="2 labels but 1"):
        Confusion.of([True, False], [True])
    with pytest.raises(ValueError, match="2 labels but 3"):
        auroc([True, False], [0.1, 0.2, 0.3])


def test_auroc_counts_ties_as_half() -> None:
    # Pairs (positive, negative): (0.8,0.3) win, (0.8,0.5) win, (0.5,0.3) win, (0.5,0.5) tie -> 3.5 / 4.
    assert auroc([True, True, False, False], [0.8, 0.5, 0.3, 0.5]) == pytest.approx(0.875)
    assert auroc([True, False, True, False], [0.4, 0.4, 0.4, 0.4]) == pytest.approx(0.5)


def test_auroc_is_undefined_with_one_class() -> None:
    assert auroc([True, True], [0.1, 0.9]) is None


labelled_scores = st.lists(st.tuples(st.booleans(), st.integers(-1000, 1000).map(float)), min_size=2).filter(
    lambda rows: 0 < sum(label for label, _ in rows) < len(rows)
)


@given(st.integers(1, 20), st.integers(1, 20))
def test_auroc_of_a_perfect_ranker_is_one_and_of_a_reversed_one_zero(positives: int, negatives: int) -> None:
    truth = [True] * positives + [False] * negatives
    scores = [float(len(truth) - i) for i in range(len(truth))]
    assert auroc(truth, scores) == 1.0
    assert auroc(truth, [-s for s in scores]) == 0.0


@given(labelled_scores)
def test_auroc_is_invariant_to_monotone_transforms(rows: list[tuple[bool, float]]) -> None:
    truth = [label for label, _ in rows]
    scores = [score for _, score in rows]
    base = auroc(truth, scores)
    assert base is not None
    assert auroc(truth, [3 * s + 7 for s in scores]) == pytest.approx(base)
    assert auroc(truth, [s**3 for s in scores]) == pytest.approx(base)


@given(labelled_scores)
def test_auroc_equals_the_pairwise_win_rate(rows: list[tuple[bool, float]]) -> None:
    positives = [score for label, score in rows if label]
    negatives = [score for label, score in rows if not label]
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in positives for n in negatives)
    expected = wins / (len(positives) * len(negatives))
    assert auroc([label for label, _ in rows], [score for _, score in rows]) == pytest.approx(expected)
