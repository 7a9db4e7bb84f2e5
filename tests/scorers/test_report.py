"""The report: what collect_report reads from the tables, and what the renderers show of it."""

from __future__ import annotations

import io
import itertools
import math
import re
from datetime import UTC, datetime, timedelta
from xml.etree import ElementTree

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_core.store import Store
from ragpulse_dashboards.alerts import AlertKey, AlertRecord
from ragpulse_dashboards.alerts.state import FIRING, RESOLVED, save
from ragpulse_dashboards.report import collect_report, render_html, render_terminal
from ragpulse_dashboards.report.format import judgement, verdict
from ragpulse_dashboards.report.model import Difference, ReportData
from ragpulse_dashboards.report.svg import nice_ticks
from ragpulse_dashboards.since import parse_since
from ragpulse_scorers.settings import PriceSettings
from ragpulse_scorers.stats import wilson_interval
from report_data import (
    SCORE_COLUMNS,
    SPAN_COLUMNS,
    insert_request,
    insert_requests,
    insert_scores,
    request_spans,
    score_rows,
)
from rich.console import Console

HOUR_AGO = datetime.now(UTC) - timedelta(hours=1)
UNSUPPORTED = "Python 7.3 made loops 40 times faster."
DETAILS = {"sentences": [
    {"sentence": "The for statement iterates over a sequence.", "supported": True},
    {"sentence": UNSUPPORTED, "supported": False, "best_chunk": "c1"},
]}  # fmt: skip


def _fill(store: Store) -> None:
    """Variant A: 10 requests, 2 hallucinated; variant B: 10 requests, none hallucinated."""
    spans: list[list[object]] = []
    scores: list[list[object]] = []
    for index in range(20):
        variant = "A" if index < 10 else "B"
        hallucinated = index in (0, 1)
        traced, request = request_spans(
            index,
            variant=variant,
            answer=f"The for statement iterates. {UNSUPPORTED}"
            if hallucinated
            else "The for statement iterates.",
            age=timedelta(minutes=30 - index),
        )
        spans += request
        scores += score_rows(
            traced,
            hallucinated=hallucinated,
            support=0.5 if hallucinated else 1.0,
            utilization=0.2 if variant == "A" else 0.6,
            details=DETAILS if hallucinated else {"sentences": []},
            cost=0.01,
        )
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    store.insert("ragpulse_scores", scores, SCORE_COLUMNS)


def _terminal_text(store: Store) -> str:
    buffer = io.StringIO()
    render_terminal(collect_report(store, HOUR_AGO), Console(file=buffer, width=160, color_system=None))
    return buffer.getvalue()


def test_hallucination_rate_per_variant_carries_its_wilson_interval(store: Store) -> None:
    _fill(store)
    data = collect_report(store, HOUR_AGO)
    rates = {row.variant: row.rate for row in data.hallucination}
    assert (rates["A"].successes, rates["A"].n) == (2, 10)
    assert (rates["B"].successes, rates["B"].n) == (0, 10)
    assert rates["A"].interval == wilson_interval(2, 10)
    assert [(v.variant, v.requests, v.scored) for v in data.variants] == [("A", 10, 10), ("B", 10, 10)]
    assert data.primary_scorer == "lexical"
    means = {(row.metric, row.variant): row.mean for row in data.metrics}
    assert means[("utilization", "A")] == pytest.approx(0.2)
    assert means[("support", "A")] == pytest.approx(0.9)


def test_worst_requests_put_hallucinated_first_with_their_unsupported_sentences(store: Store) -> None:
    _fill(store)
    worst = collect_report(store, HOUR_AGO).worst
    assert [row.hallucinated for row in worst[:3]] == [True, True, False]
    assert worst[0].unsupported == [UNSUPPORTED]
    assert UNSUPPORTED in worst[0].answer


def _fill_ranked(store: Store, hallucinated: int, *, rescored: bool) -> list[str]:
    """40 requests, the first ``hallucinated`` of them hallucinated and less supported the earlier they come;
    the rest more supported the earlier they come. ``rescored``: request 0 was scored again, hallucinated with
    support 0.25, and the two scorings' rows are not merged yet."""
    traced = insert_requests(store, [{"index": index, "variant": "A"} for index in range(40)])
    scores: list[list[object]] = []
    for index, request in enumerate(traced):
        bad = index < hallucinated
        scores += score_rows(
            request, hallucinated=bad, support=0.3 + index / 100 if bad else 0.9 - index / 100
        )
    store.insert("ragpulse_scores", scores, SCORE_COLUMNS)
    if rescored:
        insert_scores(store, traced[0], hallucinated=True, support=0.25, scored_after=timedelta(seconds=9))
    return [request.trace_id for request in traced]


def test_worst_requests_rank_ties_beyond_the_limit_by_support(store: Store) -> None:
    traces = _fill_ranked(store, 30, rescored=False)
    worst = collect_report(store, HOUR_AGO).worst
    assert [row.trace_id for row in worst] == traces[:10]
    assert all(row.hallucinated for row in worst)


def test_worst_requests_count_a_trace_scored_twice_once(store: Store) -> None:
    # Nine hallucinated requests but ten hallucinated rows: the tenth worst is the least supported other one.
    traces = _fill_ranked(store, 9, rescored=True)
    worst = collect_report(store, HOUR_AGO).worst
    assert [row.trace_id for row in worst] == [*traces[:9], traces[39]]
    assert [row.hallucinated for row in worst] == [True] * 9 + [False]
    assert worst[0].support == 0.25


def test_a_request_whose_spans_arrived_twice_counts_once(store: Store) -> None:
    # An exporter's retry writes the same root span again, in an insert (a part) of its own; yesterday's
    # request is in another partition and counts too.
    _, spans = request_spans(1, variant="A")
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    store.insert("otel_traces", spans[:1], SPAN_COLUMNS)
    insert_request(store, 2, variant="A", status="Error", age=timedelta(hours=25))
    data = collect_report(store, datetime.now(UTC) - timedelta(days=2))
    assert [(v.variant, v.requests, v.errors) for v in data.variants] == [("A", 2, 1)]
    assert sum(point.requests for point in data.traffic_series) == 2


def test_latency_per_step_and_scoring_health(store: Store) -> None:
    _fill(store)
    data = collect_report(store, HOUR_AGO)
    latency = {row.step: row for row in data.latency}
    assert list(latency) == ["rag", "variations", "retrieve", "fuse", "generate"]
    assert latency["generate"].p50_ms == pytest.approx(20.0)
    assert latency["rag"].count == 20
    assert data.scoring.scored == 20
    assert data.scoring.share_scored == 1.0
    assert data.scoring.lag_p50_s == pytest.approx(3.0)
    assert sum(row.cost_usd for row in data.spend) == pytest.approx(0.20)


def test_unscored_requests_show_up_as_traffic_but_not_as_scored(store: Store) -> None:
    insert_request(store, 1, variant="A")
    insert_request(store, 2, variant="A", status="Error")
    data = collect_report(store, HOUR_AGO)
    assert [(v.requests, v.errors, v.scored) for v in data.variants] == [(2, 1, 0)]
    assert data.hallucination == [] and data.worst == []
    assert data.scoring.lag_p50_s is None
    text = _terminal_text(store)
    assert "not scored yet" in text


def test_judge_errors_are_counted_but_not_scored(store: Store) -> None:
    traced = insert_request(store, 1, variant="A")
    insert_scores(store, traced, hallucinated=False, support=1.0, error="judge timed out")
    data = collect_report(store, HOUR_AGO)
    assert data.scoring.judge_errors == 3
    assert data.scoring.scored == 0
    assert data.hallucination == []


def test_service_filter_and_window_leave_other_rows_out(store: Store) -> None:
    _fill(store)
    old = insert_request(store, 99, variant="A", age=timedelta(hours=3))
    insert_scores(store, old, hallucinated=True, support=0.0)
    other = insert_request(store, 98, variant="A", service="other")
    insert_scores(store, other, hallucinated=True, support=0.0, service="other")
    assert collect_report(store, HOUR_AGO, service="svc").requests == 20
    assert collect_report(store, HOUR_AGO).requests == 21
    assert collect_report(store, HOUR_AGO, service="nobody").requests == 0


def test_other_scorers_metrics_show_up_generically(store: Store) -> None:
    traced = insert_request(store, 1, variant="B")
    insert_scores(store, traced, hallucinated=False, support=1.0)
    store.insert(
        "ragpulse_scores",
        [
            [
                traced.trace_id,
                traced.time,
                traced.time,
                "svc",
                "fusion",
                "B",
                "retrieval",
                "1",
                "mrr5_very_relevant",
                0.5,
                "",
                "",
                "{}",
                "gpt",
                100,
                10,
                0.002,
                1.0,
                "",
            ]
        ],
        SCORE_COLUMNS,
    )
    data = collect_report(store, HOUR_AGO)
    assert ("retrieval", "mrr5_very_relevant", "B") in {(m.scorer, m.metric, m.variant) for m in data.metrics}
    assert "mrr5_very_relevant" in _terminal_text(store)
    assert "mrr5_very_relevant" in render_html(data)


def test_terminal_report_shows_the_hallucination_table_and_worst_requests(store: Store) -> None:
    _fill(store)
    text = _terminal_text(store)
    assert "Hallucination rate per variant" in text
    assert re.search(r"lexical\s+│\s+A\s+│\s+10\s+│\s+2\s+│\s+20\.0% \[5\.7%, 51\.0%\]", text)
    assert "Latency per step" in text
    assert UNSUPPORTED[:30] in text


def test_html_report_is_self_contained_with_charts(store: Store) -> None:
    _fill(store)
    page = render_html(collect_report(store, HOUR_AGO))
    assert page.startswith("<!DOCTYPE html>")
    charts = re.findall(r"<svg.*?</svg>", page, re.S)
    assert len(charts) >= 4
    for chart in charts:
        ElementTree.fromstring(chart)  # well-formed SVG, or browsers show nothing
    assert "<script" not in page and "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "20.0% [5.7%, 51.0%]" in page
    assert UNSUPPORTED in page


def test_traced_strings_are_escaped_in_html_and_terminal(store: Store) -> None:
    payload = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    traced = insert_request(store, 1, variant=payload, question=payload, answer=f"[bold]{payload}")
    insert_scores(store, traced, hallucinated=True, support=0.0, details={"sentences": [
        {"sentence": payload, "supported": False}]})  # fmt: skip
    page = render_html(collect_report(store, HOUR_AGO))
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "[bold]<script>" in _terminal_text(store)


def _alert(
    variant: str, state: str, fired_ago: timedelta, resolved_ago: timedelta | None = None
) -> AlertRecord:
    now = datetime.now(UTC)
    return AlertRecord(
        alert_id=f"alert-{variant}-{state}",
        key=AlertKey("hallucination_rate", "svc", variant, "lexical"),
        state=state,
        fired_at=now - fired_ago,
        resolved_at=None if resolved_ago is None else now - resolved_ago,
        updated_at=now - (resolved_ago or fired_ago),
        value=0.6,
        lower=0.423,
        upper=0.754,
        samples=30,
        threshold=0.2,
        summary=f"hallucination rate 60.0% (95% CI 42.3%–75.4%, n=30) for service svc, variant {variant},"
        " judged by lexical; threshold 20.0%",
    )


def test_alerts_firing_lead_then_those_resolved_in_the_window(store: Store) -> None:
    _fill(store)
    payload = "<script>alert(1)</script>[bold]"
    save(store, [
        _alert("B", RESOLVED, fired_ago=timedelta(minutes=40), resolved_ago=timedelta(minutes=20)),
        _alert(payload, FIRING, fired_ago=timedelta(hours=3)),
        _alert("C", RESOLVED, fired_ago=timedelta(hours=4), resolved_ago=timedelta(hours=2)),
    ])  # fmt: skip
    data = collect_report(store, HOUR_AGO)
    # Firing since before the window still shows; resolved before the window does not.
    assert [(a.key.variant, a.state) for a in data.alerts] == [(payload, FIRING), ("B", RESOLVED)]
    assert collect_report(store, HOUR_AGO, service="other").alerts == []

    text = _terminal_text(store)
    assert "Alerts (1 firing" in text
    assert re.search(r"│ firing\s+│ hallucination rate 60\.0% \(95% CI", text)
    assert re.search(r"│ resolved │ hallucination rate 60\.0% \(95% CI", text)
    assert re.search(r"│\s+│ hallucination_rate / svc / B / lexical\s+│", text)
    assert "<script>alert(1)</script>[bold]" in text  # markup in a traced variant is printed, not applied
    assert "60.0% (95% CI 42.3%–75.4%, n=30)" in text
    page = render_html(data)
    assert "<script>" not in page
    assert "<span class='bad'>firing</span>" in page and "<span class='good'>resolved</span>" in page
    assert "variant &lt;script&gt;alert(1)&lt;/script&gt;[bold], judged by lexical" in page
    assert page.index("Alerts (1 firing") < page.index("Hallucination rate per variant")


def test_empty_window_renders_a_hint_instead_of_failing(store: Store) -> None:
    data = collect_report(store, HOUR_AGO)
    assert "No RAG requests in this window" in render_html(data)
    assert "No RAG requests in this window" in _terminal_text(store)


@pytest.mark.parametrize(
    ("text", "seconds_before"), [("24h", 86400), ("90m", 5400), ("7d", 604800), ("30s", 30), ("1.5h", 5400)]
)
def test_since_accepts_durations(text: str, seconds_before: float) -> None:
    assert parse_since(text, now=1_000_000.0).timestamp() == pytest.approx(1_000_000.0 - seconds_before)


def test_since_accepts_iso_and_rejects_garbage() -> None:
    assert parse_since("2024-05-01T12:00:00") == datetime(2024, 5, 1, 12, tzinfo=UTC)
    with pytest.raises(ValueError, match="--since"):
        parse_since("yesterday")


@given(st.floats(min_value=1e-6, max_value=1e9, allow_nan=False))
def test_axis_ticks_step_by_1_2_or_5_and_reach_past_the_data(top: float) -> None:
    ticks = nice_ticks(top)
    step = ticks[1] - ticks[0]
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert ticks[0] == 0 and ticks[-1] >= top * (1 - 1e-9)
    assert any(math.isclose(mantissa, allowed, rel_tol=1e-6) for allowed in (1, 2, 5, 10))
    assert 3 <= len(ticks) <= 7
    assert all(math.isclose(b - a, step, rel_tol=1e-6) for a, b in itertools.pairwise(ticks))


def test_latency_ticks_and_bar_labels_carry_their_unit(store: Store) -> None:
    _fill(store)
    page = render_html(collect_report(store, HOUR_AGO))
    latency = re.search(r'<svg[^>]*aria-label="Latency per step".*?</svg>', page, re.S)
    assert latency
    labels = re.findall(r'class="(?:tick|value)">([^<]+)</text>', latency.group(0))
    numbers = [label for label in labels if label[0].isdigit()]
    assert numbers and all(label.endswith((" ms", " s")) for label in numbers), numbers


def test_terminal_report_leads_with_b_against_a_and_its_interval(store: Store) -> None:
    _fill(store)
    text = _terminal_text(store)
    assert text.index("Is B better than A?") < text.index("Traffic per variant")
    assert re.search(r"hallucination rate\s+│ lexical │ no detectable difference at n = 10: -20\.0 points"
                     r" \[-51\.0, 11\.2\]", text)  # fmt: skip
    assert re.search(r"utilization\s+│ lexical │ B higher by 0\.400 \[0\.400, 0\.400\]", text)


@pytest.mark.parametrize(
    ("estimate", "low", "high", "said"),
    [
        (0.12, 0.051, 0.189, "B higher by 12.0 points [5.1, 18.9]"),
        (-0.031, -0.059, -0.004, "B lower by 3.1 points [0.4, 5.9]"),
        (0.02, -0.03, 0.07, "no detectable difference at n = 40"),
    ],
)
def test_rate_verdicts_read_plainly(estimate: float, low: float, high: float, said: str) -> None:
    difference = Difference("lexical", "hallucination", "A", "B", estimate, low, high, 40, 40, is_rate=True)
    assert verdict(difference) == said
    assert judgement(difference) == ("same" if low < 0 < high else "worse" if estimate > 0 else "better")


def test_spend_says_price_unknown_for_a_model_without_a_price_never_zero_dollars(store: Store) -> None:
    """A local model's calls cost $0 in the accounts; the report said "$0.0000" for them."""
    for index, scorer in enumerate(("support", "lexical")):
        traced, spans = request_spans(index, variant="A")
        store.insert("otel_traces", spans, SPAN_COLUMNS)
        rows = score_rows(traced, scorer=scorer, hallucinated=False, support=1.0)
        for row in rows:
            row[-6:-3] = ["qwen2.5-1.5b-instruct", 900, 120] if scorer == "support" else ["", 0, 0]
        store.insert("ragpulse_scores", rows, SCORE_COLUMNS)
    unknown = collect_report(store, HOUR_AGO)
    said = " ".join(_render(unknown).split())
    assert "price unknown (qwen2.5-1.5b-instruct)" in said and "$0.0000" not in said
    assert re.search(r"lexical │ 1 │ 0 │ 0 │ free", said)
    priced = collect_report(store, HOUR_AGO, prices={"qwen2.5-1.5b-instruct": PriceSettings()})
    assert "price unknown" not in _render(priced) and "$0.0000" in _render(priced)
    assert "price unknown (qwen2.5-1.5b-instruct)" in render_html(unknown)


def _render(data: ReportData) -> str:
    buffer = io.StringIO()
    render_terminal(data, Console(file=buffer, width=200, color_system=None))
    return buffer.getvalue()
