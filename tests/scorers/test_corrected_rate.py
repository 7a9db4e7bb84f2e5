"""The review page's corrected rate: Rogan-Gladen's estimate, no estimate near chance or without labels of
both kinds, and an interval that covers the true rate about 95% of the time."""

from __future__ import annotations

import random

import pytest
from ragpulse_dashboards.report.agreement import JudgeAgreement
from ragpulse_dashboards.review.corrected import MIN_PER_CLASS, ErrorRates, error_rates, rogan_gladen


def _rates(sensitivity: float, specificity: float, positives: int = 100, negatives: int = 300) -> ErrorRates:
    return ErrorRates(sensitivity, specificity, positives, negatives, "test")


def test_the_estimate_undoes_the_judges_misses_and_false_alarms() -> None:
    # A judge catching 80% of hallucinations and passing 90% of grounded answers over a true rate of 2/7
    # observes 0.8 * 2/7 + 0.1 * 5/7 = 0.3.
    estimate = rogan_gladen(300, 1000, _rates(0.8, 0.9))
    assert estimate is not None and estimate.value == pytest.approx(2 / 7)
    assert estimate.low < 2 / 7 < estimate.high
    assert rogan_gladen(0, 1000, _rates(0.8, 0.9)).value == 0.0  # type: ignore[union-attr]  # clipped


def test_fewer_labels_widen_the_interval() -> None:
    many = rogan_gladen(300, 1000, _rates(0.8, 0.9, 400, 1200))
    few = rogan_gladen(300, 1000, _rates(0.8, 0.9, 10, 30))
    assert many is not None and few is not None
    assert few.high - few.low > 2 * (many.high - many.low)


def test_no_estimate_near_chance_or_without_both_kinds_of_label() -> None:
    assert rogan_gladen(300, 1000, _rates(0.5, 0.55)) is None
    assert rogan_gladen(0, 0, _rates(0.8, 0.9)) is None
    few = MIN_PER_CLASS - 1
    assert error_rates(JudgeAgreement("s", "", "lexical", "labels", few, 0, 0, 50), "labels") is None
    assert error_rates(JudgeAgreement("s", "", "lexical", "labels", 30, few, 0, 0), "labels") is None
    rates = error_rates(JudgeAgreement("s", "", "lexical", "labels", 8, 3, 2, 27), "40 labels")
    assert rates == ErrorRates(0.8, 0.9, 10, 30, "40 labels")


def test_the_interval_covers_the_true_rate_about_95_percent_of_the_time() -> None:
    draw = random.Random(7)
    truth, sensitivity, specificity = 0.2, 0.8, 0.9
    requests, labelled, runs = 2000, 200, 1000
    observed_rate = sensitivity * truth + (1 - specificity) * (1 - truth)
    covered = 0
    for _ in range(runs):
        positives = sum(draw.random() < truth for _ in range(labelled))
        caught = sum(draw.random() < sensitivity for _ in range(positives))
        passed = sum(draw.random() < specificity for _ in range(labelled - positives))
        flagged = sum(draw.random() < observed_rate for _ in range(requests))
        rates = error_rates(
            JudgeAgreement("s", "", "lexical", "labels", caught, labelled - positives - passed,
                           positives - caught, passed),
            "labels",
        )  # fmt: skip
        assert rates is not None
        estimate = rogan_gladen(flagged, requests, rates)
        covered += estimate is not None and estimate.low <= truth <= estimate.high
    assert 0.93 <= covered / runs <= 0.975
