"""Rates over directed samples: the report weighs each LLM-judged request by 1 / its inclusion probability
(Hájek), from every value row and from the hourly sums alike, and says its interval is weighted."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from ragpulse_core.store import Store
from ragpulse_dashboards.alerts import rules
from ragpulse_dashboards.alerts.conditions import observe
from ragpulse_dashboards.report import collect_report, render_html, render_terminal
from ragpulse_dashboards.settings import AlertSettings
from ragpulse_scorers.stats import WeightedCount, weighted_wilson_interval
from report_data import SCORE_COLUMNS, SPAN_COLUMNS, request_spans, score_rows
from rich.console import Console


def fill(store: Store, probability_of_hallucinated: float, free_judge_grounded: bool = False) -> None:
    """Variant A: 10 hallucinated requests judged with ``probability_of_hallucinated``, 30 grounded ones with
    certainty; variant B: 40 grounded, one hallucinated, all with certainty. The LLM judge is ``support``;
    ``free_judge_grounded`` adds the lexical judge's verdict "grounded" on every request."""
    spans: list[list[object]] = []
    scores: list[list[object]] = []
    lexical: list[list[object]] = []
    for index in range(81):
        variant = "A" if index < 40 else "B"
        traced, request = request_spans(index, variant=variant, age=timedelta(minutes=50 - index // 2))
        spans += request
        hallucinated = index < 10 or index == 80
        probability = probability_of_hallucinated if index < 10 else 1.0
        rows = score_rows(
            traced, scorer="support", hallucinated=hallucinated, support=0.2 if hallucinated else 0.9
        )
        scores += [[*row, probability] for row in rows]
        if free_judge_grounded:
            lexical += score_rows(traced, scorer="lexical", hallucinated=False, support=0.9)
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    if lexical:
        # Written first, as the free judge scores before the LLM judge's sample is drawn.
        store.insert("ragpulse_scores", lexical, SCORE_COLUMNS)
    store.insert("ragpulse_scores", scores, [*SCORE_COLUMNS, "InclusionProbability"])


@pytest.mark.parametrize("since", [timedelta(hours=2), timedelta(days=3)], ids=["value rows", "hourly sums"])
def test_the_hallucination_rate_is_weighted_by_inverse_inclusion_probability(
    store: Store, since: timedelta
) -> None:
    fill(store, probability_of_hallucinated=0.25)
    data = collect_report(store, datetime.now(UTC) - since)
    rates = {row.variant: row.rate for row in data.hallucination if row.scorer == "support"}
    # Each hallucinated request of A stands for 4: 40 of 70 requests, not 10 of 40.
    assert rates["A"].value == pytest.approx(40 / 70)
    assert rates["A"].n == 40 and rates["A"].is_weighted
    expected = weighted_wilson_interval(WeightedCount(70.0, 40.0, 10 * 16.0 + 30.0, 10 * 16.0))
    assert rates["A"].interval == pytest.approx(expected)
    assert not rates["B"].is_weighted and rates["B"].value == pytest.approx(1 / 41)
    difference = next(d for d in data.differences if d.is_rate and d.scorer == "support")
    assert difference.estimate == pytest.approx(1 / 41 - 40 / 70) or difference.estimate == pytest.approx(
        40 / 70 - 1 / 41
    )
    console = Console(file=io.StringIO(), width=200)
    render_terminal(data, console)
    assert "inverse-probability weighted" in " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert "inverse-probability weighted" in render_html(data)


def test_with_every_probability_one_the_report_is_as_before(store: Store) -> None:
    fill(store, probability_of_hallucinated=1.0)
    data = collect_report(store, datetime.now(UTC) - timedelta(hours=2))
    rates = {row.variant: row.rate for row in data.hallucination if row.scorer == "support"}
    assert not rates["A"].is_weighted and rates["A"].value == 10 / 40
    console = Console(file=io.StringIO(), width=200)
    render_terminal(data, console)
    assert "inverse-probability weighted" not in console.file.getvalue()  # type: ignore[attr-defined]
    assert "inverse-probability weighted" not in render_html(data)


def test_the_hallucination_alert_judges_the_weighted_rate(store: Store) -> None:
    fill(store, probability_of_hallucinated=0.25)
    settings = AlertSettings(hallucination_threshold=0.3, min_samples=30, window_minutes=120)
    observations = observe(store, settings, datetime.now(UTC))
    rate = next(o for o in observations if o.key.rule == rules.HALLUCINATION_RATE and o.key.variant == "A")
    # 10 of 40 judged requests, but each hallucinated one stands for 4: 40 of 70, above 30% with confidence.
    assert rate.value == pytest.approx(40 / 70)
    assert rate.fire and rate.lower > 0.3
    assert "inverse-probability weighted" in rate.summary


def test_a_request_the_free_judge_also_scored_stands_for_itself(store: Store) -> None:
    """The free judge sees all traffic: where it scored a request, the alert's verdict weighs 1, whichever
    judge's verdict it takes."""
    fill(store, probability_of_hallucinated=0.25, free_judge_grounded=True)
    settings = AlertSettings(hallucination_threshold=0.3, min_samples=30, window_minutes=120)
    observations = observe(store, settings, datetime.now(UTC))
    rate = next(o for o in observations if o.key.rule == rules.HALLUCINATION_RATE and o.key.variant == "A")
    assert rate.value == pytest.approx(10 / 40)
    assert "inverse-probability weighted" not in rate.summary
