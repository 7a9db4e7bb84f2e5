"""The corrected hallucination rate (Rogan–Gladen) and the judge-against-people figures.

The coverage simulation draws a judge of known sensitivity and specificity over a known true rate: its
interval must cover the true rate in about 95% of 1,000 runs, and an interval that forgets the uncertainty of
the error rates must visibly fail the same check (so the check can fail)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_scorers.labels.agreement import Confusion, agreement
from ragpulse_scorers.labels.correction import (
    MIN_PER_CLASS,
    CorrectedRate,
    ErrorRates,
    NotCorrected,
    choose_error_rates,
    corrected_rate,
)
from ragpulse_scorers.stats import WeightedCount

RUNS = 1000


def binomial(rng: random.Random, n: int, p: float) -> int:
    return sum(rng.random() < p for _ in range(n))


def simulate(rng: random.Random, true_rate: float, sens: float, spec: float, judged: int, labelled: int
             ) -> tuple[int, ErrorRates]:  # fmt: skip
    flagged = binomial(rng, judged, true_rate * sens + (1 - true_rate) * (1 - spec))
    caught, cleared = binomial(rng, labelled, sens), binomial(rng, labelled, spec)
    confusion = Confusion(caught, labelled - caught, labelled - cleared, cleared)
    return flagged, ErrorRates(confusion, "reviewer labels")


@pytest.mark.parametrize(
    ("true_rate", "sens", "spec", "judged", "labelled"),
    [(0.2, 0.8, 0.9, 1000, 150), (0.35, 0.7, 0.85, 600, 80)],
)
def test_interval_covers_the_true_rate_in_95_percent_of_runs(
    true_rate: float, sens: float, spec: float, judged: int, labelled: int
) -> None:
    rng = random.Random(29)
    covered = naive_covered = 0
    for _ in range(RUNS):
        flagged, rates = simulate(rng, true_rate, sens, spec, judged, labelled)
        result = corrected_rate(WeightedCount.unweighted(flagged, judged), rates)
        assert isinstance(result, CorrectedRate)
        covered += result.low <= true_rate <= result.high
        # The same estimate with the raw rate's uncertainty only, as if Se and Sp were known exactly.
        youden = rates.sensitivity + rates.specificity - 1
        half = 1.96 * (result.raw * (1 - result.raw) / judged) ** 0.5 / youden
        naive_covered += result.estimate - half <= true_rate <= result.estimate + half
    # 1,000 runs: the coverage's standard error is 0.007, so ±0.025 is more than 3 of them.
    assert 0.925 <= covered / RUNS <= 0.975
    assert naive_covered / RUNS < 0.90


@given(
    true_rate=st.floats(0, 1),
    sens=st.floats(0.55, 1),
    spec=st.floats(0.55, 1),
)
def test_exact_error_rates_recover_the_true_rate(true_rate: float, sens: float, spec: float) -> None:
    # Counts large enough that the proportions are what was drawn, to 1e-6.
    scale = 1_000_000
    raw = true_rate * sens + (1 - true_rate) * (1 - spec)
    caught, cleared = round(sens * scale), round(spec * scale)
    rates = ErrorRates(Confusion(caught, scale - caught, scale - cleared, cleared), "reviewer labels")
    result = corrected_rate(WeightedCount.unweighted(round(raw * scale), scale), rates)
    assert isinstance(result, CorrectedRate)
    assert result.estimate == pytest.approx(true_rate, abs=1e-4)
    assert result.low <= result.estimate <= result.high


@given(
    flagged=st.integers(0, 500),
    extra=st.integers(0, 500),
    counts=st.tuples(*[st.integers(0, 60)] * 4),
)
def test_corrected_rate_is_a_rate_or_says_why_not(
    flagged: int, extra: int, counts: tuple[int, int, int, int]
) -> None:
    rates = ErrorRates(Confusion(*counts), "reviewer labels")
    result = corrected_rate(WeightedCount.unweighted(flagged, flagged + extra), rates)
    if isinstance(result, NotCorrected):
        assert result.reason
        confusion = rates.confusion
        assert (
            flagged + extra == 0
            or confusion.positives == 0
            or confusion.negatives == 0
            or rates.sensitivity + rates.specificity <= 1
        )
    else:
        assert 0 <= result.low <= result.estimate <= result.high <= 1


def test_a_judge_no_better_than_chance_gets_no_corrected_rate() -> None:
    rates = ErrorRates(Confusion(10, 10, 10, 10), "reviewer labels")
    result = corrected_rate(WeightedCount.unweighted(30, 100), rates)
    assert isinstance(result, NotCorrected) and result.reason.startswith("undefined")


def test_reviewer_labels_are_preferred_and_too_few_say_so() -> None:
    few = ErrorRates(Confusion(MIN_PER_CLASS - 1, 0, 0, 40), "reviewer labels")
    llm = ErrorRates(Confusion(20, 5, 4, 30), "agreement with LLM judge openai")
    assert choose_error_rates([few, llm]) == llm
    enough = ErrorRates(Confusion(8, 2, 3, 12), "reviewer labels")
    assert choose_error_rates([enough, llm]) == enough
    refused = choose_error_rates([few])
    assert isinstance(refused, NotCorrected)
    assert refused.reason.startswith("not enough labels") and "9 hallucinated" in refused.reason


@given(st.lists(st.tuples(st.booleans(), st.booleans()), max_size=200))
def test_agreement_figures_lie_in_their_intervals(pairs: list[tuple[bool, bool]]) -> None:
    figures = agreement(Confusion.of(pairs))
    assert figures.n == len(pairs)
    for figure in (figures.sensitivity, figures.specificity, figures.balanced_accuracy, figures.kappa):
        if figure.value is not None:
            assert figure.low is not None and figure.high is not None
            assert figure.low <= figure.value + 1e-12 and figure.value <= figure.high + 1e-12


def test_agreement_of_a_known_table() -> None:
    # 40 hallucinated (judge caught 30), 60 grounded (judge cleared 54).
    figures = agreement(Confusion(30, 10, 6, 54))
    assert figures.sensitivity.value == pytest.approx(0.75)
    assert figures.specificity.value == pytest.approx(0.9)
    assert figures.balanced_accuracy.value == pytest.approx(0.825)
    # po = 0.84, pe = 0.4·0.36 + 0.6·0.64 = 0.528: kappa = 0.312 / 0.472.
    assert figures.kappa.value == pytest.approx(0.312 / 0.472)
    assert figures.kappa.low is not None and figures.kappa.high is not None
    assert 0.45 < figures.kappa.low < figures.kappa.value < figures.kappa.high < 0.85
