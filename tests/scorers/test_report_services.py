"""A report over several services keeps them apart: each service's variants are compared with that service's
own baseline, requests without a variant say so, unscorable requests are counted per service by reason, a
rate shown above the threshold says why no alert fires, and a trace scored twice counts once before and after
its parts merge."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime, timedelta

from browser_testing import visible_text
from ragpulse_core.store import Store
from ragpulse_dashboards.alerts import AlertKey, AlertRecord
from ragpulse_dashboards.alerts.state import FIRING, save
from ragpulse_dashboards.report import collect_report, render_html, render_terminal
from ragpulse_dashboards.report.model import AlertLimits, ReportData
from report_data import SCORE_COLUMNS, SPAN_COLUMNS, request_spans, score_rows
from rich.console import Console

HOUR_AGO = datetime.now(UTC) - timedelta(hours=1)
LIMITS = AlertLimits(min_samples=30, window_minutes=60)


def fill(store: Store, service: str, variant: str, n: int, bad: int, first: int) -> None:
    """``n`` scored requests of one service's variant, ``bad`` of them hallucinated."""
    spans: list[list[object]] = []
    scores: list[list[object]] = []
    for index in range(n):
        traced, request = request_spans(first + index, variant=variant, service=service)
        spans += request
        scores += score_rows(traced, hallucinated=index < bad, support=0.0 if index < bad else 1.0,
                             service=service)  # fmt: skip
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    store.insert("ragpulse_scores", scores, SCORE_COLUMNS)


def two_services(store: Store) -> None:
    """search: A 5% vs B 50%; billing has no variant A: its baseline is its own B, against C."""
    fill(store, "search", "A", 40, 2, first=0)
    fill(store, "search", "B", 40, 20, first=100)
    fill(store, "billing", "B", 40, 4, first=200)
    fill(store, "billing", "C", 40, 4, first=300)


def terminal(data: ReportData) -> str:
    buffer = io.StringIO()
    render_terminal(data, Console(file=buffer, width=200, color_system=None))
    return buffer.getvalue()


def test_each_service_is_compared_with_its_own_baseline(store: Store) -> None:
    two_services(store)
    data = collect_report(store, HOUR_AGO, hallucination_threshold=0.2)
    compared = {(d.service, d.baseline, d.variant) for d in data.differences if d.is_rate}
    assert compared == {("search", "A", "B"), ("billing", "B", "C")}
    rates = {(row.service, row.variant): (row.rate.successes, row.rate.n) for row in data.hallucination}
    assert rates == {("search", "A"): (2, 40), ("search", "B"): (20, 40), ("billing", "B"): (4, 40),
                     ("billing", "C"): (4, 40)}  # fmt: skip
    traffic = {(v.service, v.variant): (v.requests, v.scored) for v in data.variants}
    assert traffic[("billing", "B")] == (40, 40) and traffic[("search", "B")] == (40, 40)

    text = visible_text(render_html(data))
    assert "search: Hallucination rate: B higher by 45.0 points" in text
    assert "billing: Hallucination rate: no detectable difference at n = 40" in text
    assert "Services (each against its own baseline)" in text
    assert re.search(r"billing 80 0 80 B 10\.0% \[[\d.]+%, [\d.]+%\] C 10\.0%", text), text
    assert "search · variant B" in render_html(data)
    said = terminal(data)
    assert re.search(r"search\s+│ B − A\s+│ hallucination rate\s+│ lexical\s+│ B higher by 45\.0", said), said
    assert re.search(r"billing\s+│ C − B\s+│ hallucination rate", said)

    one = collect_report(store, HOUR_AGO, service="billing")
    assert {v.service for v in one.variants} == {"billing"} and not one.spans_services
    assert [(d.baseline, d.variant) for d in one.differences if d.is_rate] == [("B", "C")]
    assert "Services (each against its own baseline)" not in render_html(one)


def test_a_service_the_leading_judge_never_saw_shows_its_own_judges_rate_not_scored_yet(store: Store) -> None:
    """search is judged by support and lexical; no rule sends support to billing, where lexical scored both
    requests: the services column of support's rates said "not scored yet" for it. ops has requests no judge
    has reached yet."""
    for index in range(4):
        traced, spans = request_spans(index, variant="A", service="search")
        store.insert("otel_traces", spans, SPAN_COLUMNS)
        for scorer in ("support", "lexical"):
            rows = score_rows(traced, scorer=scorer, hallucinated=index < 2, support=0.5, service="search")
            store.insert("ragpulse_scores", rows, SCORE_COLUMNS)
    fill(store, "billing", "A", 2, 1, first=100)
    store.insert("otel_traces", request_spans(200, variant="A", service="ops")[1], SPAN_COLUMNS)
    data = collect_report(store, HOUR_AGO)
    assert data.primary_scorer == "support"
    text = visible_text(render_html(data))
    assert re.search(r"billing 2 0 2 A 50\.0% \[[\d.]+%, [\d.]+%\] judged by lexical", text), text
    assert re.search(r"search 4 0 4 A 50\.0% \[", text) and re.search(r"ops 1 0 0 not scored yet", text), text
    assert text.count("not scored yet") == 1


def test_requests_without_a_variant_are_labelled_and_compared_against_a_labelled_baseline(
    store: Store,
) -> None:
    fill(store, "svc", "", 20, 10, first=0)
    fill(store, "svc", "A", 20, 1, first=100)
    data = collect_report(store, HOUR_AGO)
    assert [(d.baseline, d.variant) for d in data.differences if d.is_rate] == [("A", "")]
    page = render_html(data)
    text = visible_text(page)
    assert "Hallucination rate: (no variant) higher by 45.0 points" in text
    assert "hallucination · variant (no variant) (n=20)" in text
    assert "variant (no variant)" in page and not re.search(r"variant\s*(<|·|$)", text)
    said = terminal(data)
    assert "(no variant) − A" in said and "Is (no variant) better than A?" in said


def test_unscorable_requests_are_counted_per_service_by_reason(store: Store) -> None:
    fill(store, "svc", "A", 3, 0, first=0)
    spans: list[list[object]] = []
    for index, (service, answer) in enumerate([("svc", ""), ("svc", ""), ("other", "An answer.")]):
        _, request = request_spans(500 + index, variant="A", service=service, answer=answer)
        root = request[0]
        if answer:
            root[7] = {**root[7], "ragpulse.context": "[]"}
        spans += request
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    data = collect_report(store, HOUR_AGO)
    assert {(row.service, row.reason, row.requests) for row in data.not_scored} == {
        ("svc", "no_answer", 2), ("other", "no_context", 1)
    }  # fmt: skip
    text = visible_text(render_html(data))
    assert "3 not scored (cannot be judged) no_answer 2 · no_context 1" in text
    assert re.search(r"other 1 0 0 .* no_context 1", text)


def test_a_rate_above_the_threshold_without_an_alert_says_why(store: Store) -> None:
    fill(store, "svc", "A", 12, 6, first=0)
    fill(store, "svc", "B", 40, 11, first=100)
    data = collect_report(store, HOUR_AGO, hallucination_threshold=0.2, alert_limits=LIMITS)
    text = visible_text(render_html(data))
    assert "no alert: n=12 is below the 30 samples an alert needs" in text
    assert re.search(r"no alert: its 95% interval \[1\d\.\d%, 4\d\.\d%\] reaches the threshold", text)
    assert "no alert" in terminal(data)

    now = datetime.now(UTC)
    save(store, [AlertRecord(
        alert_id="a1", key=AlertKey("hallucination_rate", "svc", "B"), state=FIRING, fired_at=now,
        resolved_at=None, updated_at=now, value=0.6, lower=0.4, upper=0.8, samples=40, threshold=0.2,
        summary="hallucination rate 60% for service svc, variant B",
    )])  # fmt: skip
    firing = visible_text(render_html(collect_report(store, HOUR_AGO, hallucination_threshold=0.2,
                                                     alert_limits=LIMITS)))  # fmt: skip
    assert "1 alerts firing" in firing
    assert "hallucination · variant B (n=40, alert above 20.0%)" in firing
    assert "no alert: its 95% interval" not in firing


def test_a_trace_scored_twice_counts_once_before_and_after_the_merge(store: Store) -> None:
    traced, spans = request_spans(1, variant="A")
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    store.insert("ragpulse_scores", score_rows(traced, hallucinated=True, support=0.0), SCORE_COLUMNS)
    # A retried batch scores it again, in an insert of its own: the newer verdict replaces the older one.
    rescored = score_rows(traced, hallucinated=False, support=1.0, scored_after=timedelta(seconds=9))
    store.insert("ragpulse_scores", rescored, SCORE_COLUMNS)

    def counted() -> tuple[object, ...]:
        data = collect_report(store, HOUR_AGO)
        (row,) = data.hallucination
        means = {row.metric: (row.n, row.mean) for row in data.metrics}
        return (row.rate.n, row.rate.successes, means["support"], data.scoring.scored, data.spend[0].scored)

    before = counted()
    store.command(f"OPTIMIZE TABLE {store.table('ragpulse_scores')} FINAL")
    assert before == counted() == (1, 0, (1, 1.0), 1, 1)
