"""Online agreement between the free judge and an LLM judge on the requests both scored, in the report, the
HTML page (the live page's) and by the numbers."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_core.store import Store
from ragpulse_dashboards.report import collect_report, render_html, render_terminal
from ragpulse_dashboards.report.agreement import JudgeAgreement
from ragpulse_scorers.labels.agreement import figure_text
from report_data import SCORE_COLUMNS, SPAN_COLUMNS, request_spans, score_rows
from rich.console import Console

HOUR_AGO = datetime.now(UTC) - timedelta(hours=1)


def agreement(a: int, b: int, c: int, d: int) -> JudgeAgreement:
    return JudgeAgreement("svc", "A", "lexical", "support", a, b, c, d)


def test_balanced_accuracy_and_kappa_match_a_hand_computation() -> None:
    # 20 requests: the LLM judge calls 5 hallucinated; the free judge catches 4 of them and raises 3 false
    # alarms. Caught 4/5 = 0.8, passed 12/15 = 0.8: balanced accuracy 0.8. Observed agreement 16/20 = 0.8;
    # chance: free yes 7/20, reference yes 5/20: 0.35*0.25 + 0.65*0.75 = 0.575; kappa 0.225/0.425.
    row = agreement(4, 3, 1, 12)
    assert row.n == 20
    accuracy, kappa = row.balanced_accuracy, row.kappa
    assert accuracy is not None and kappa is not None
    assert accuracy.value == pytest.approx(0.8)
    assert kappa.value == pytest.approx(0.225 / 0.425)
    assert accuracy.low < 0.8 < accuracy.high and kappa.low < kappa.value < kappa.high


def test_no_figure_is_made_up_from_too_little() -> None:
    one_class = agreement(0, 0, 0, 10)  # the reference never said hallucinated
    for figure in (one_class.balanced_accuracy, one_class.kappa, agreement(0, 0, 0, 0).kappa):
        assert figure.value is None
        assert figure_text(figure) == "undefined (needs both verdicts from the reference)"


@given(*(st.integers(0, 500) for _ in range(4)))
def test_figures_stay_in_their_ranges(a: int, b: int, c: int, d: int) -> None:
    row = agreement(a, b, c, d)
    for figure, floor in ((row.balanced_accuracy, 0.0), (row.kappa, -1.0)):
        if figure.value is not None:
            assert figure.low is not None and figure.high is not None
            assert floor <= figure.low <= figure.value + 1e-12 and figure.value <= figure.high + 1e-12
            assert figure.high <= 1.0 and figure.high > figure.low


def fill(store: Store) -> None:
    """Service svc, variant A: 12 requests judged by both; the free judge agrees on 10 of them. Two more
    requests judged by the free judge only do not count."""
    spans: list[list[object]] = []
    scores: list[list[object]] = []
    for index in range(14):
        traced, request = request_spans(index, variant="A", age=timedelta(minutes=30 - index))
        spans += request
        llm_says = index < 4
        free_says = llm_says if index not in (4, 5) else True  # two false alarms
        scores += score_rows(traced, scorer="lexical", hallucinated=free_says, support=0.5)
        if index < 12:
            scores += score_rows(traced, scorer="support", hallucinated=llm_says, support=0.5)
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    store.insert("ragpulse_scores", scores, SCORE_COLUMNS)


def test_the_report_and_the_page_show_how_far_the_free_judge_follows_the_llm_judge(store: Store) -> None:
    fill(store)
    data = collect_report(store, HOUR_AGO)
    (row,) = data.agreement
    assert (row.service, row.variant, row.judge, row.reference) == ("svc", "A", "lexical", "support")
    assert (row.both_hallucinated, row.only_judge, row.only_reference, row.neither) == (4, 2, 0, 6)

    buffer = io.StringIO()
    render_terminal(data, Console(file=buffer, width=200, color_system=None))
    text = buffer.getvalue()
    assert "online agreement" in text and "lexical vs support" in text
    accuracy = row.balanced_accuracy
    assert accuracy is not None and f"{accuracy.value:.2f} [{accuracy.low:.2f}, {accuracy.high:.2f}]" in text

    page = render_html(data)
    assert "online agreement" in page and "lexical vs support" in page


def test_a_rescore_counts_once(store: Store) -> None:
    fill(store)
    traced, _ = request_spans(0, variant="A", age=timedelta(minutes=30))
    store.insert("ragpulse_scores", score_rows(traced, scorer="support", hallucinated=True, support=0.5,
                                               scored_after=timedelta(seconds=9)), SCORE_COLUMNS)  # fmt: skip
    (row,) = collect_report(store, HOUR_AGO).agreement
    assert row.n == 12


def test_without_an_llm_judge_there_is_no_agreement_section(store: Store) -> None:
    traced, spans = request_spans(0, variant="A", age=timedelta(minutes=5))
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    store.insert("ragpulse_scores", score_rows(traced, hallucinated=True, support=0.2), SCORE_COLUMNS)
    data = collect_report(store, HOUR_AGO)
    assert data.agreement == [] and "online agreement" not in render_html(data)
