"""The demo's story: the B − A verdict, the truth read from the example's labels, the alert windows of a short
run, and the lead the terminal and HTML report open with."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from ragpulse_core.store import Store
from ragpulse_dashboards.alerts import evaluate_alerts
from ragpulse_dashboards.alerts.rules import HALLUCINATION_RATE, SUPPORT_DROP
from ragpulse_dashboards.report import collect_report, render_html
from ragpulse_dashboards.report.model import Rate
from ragpulse_dashboards.settings import AlertSettings
from ragpulse_demo.alert_window import AlertWindow
from ragpulse_demo.page import with_sections
from ragpulse_demo.story import Difference, build_story, print_story, story_html
from ragpulse_demo.truth import RequestLabels, labels_of, measured_vs_truth
from ragpulse_example.labels import DEGRADED_RETRIEVAL_ATTRIBUTE, PLANTED_ATTRIBUTE
from report_data import SCORE_COLUMNS, SPAN_COLUMNS, request_spans, score_rows
from rich.console import Console

PLANTED = {PLANTED_ATTRIBUTE: "true"}
DEGRADED = {DEGRADED_RETRIEVAL_ATTRIBUTE: "true"}
PLANTED_SENTENCE = "Guido van Rossum deprecated <for> in 1977."


def _insert(
    store: Store,
    requests: list[tuple[str, bool, dict[str, str]]],
    *,
    first_index: int = 0,
    age: timedelta = timedelta(minutes=10),
    service: str = "svc",
) -> list[str]:
    """(variant, hallucinated, labels) per request; returns their trace ids."""
    spans: list[list[object]] = []
    scores: list[list[object]] = []
    traces = []
    for offset, (variant, hallucinated, labels) in enumerate(requests):
        traced, request = request_spans(
            first_index + offset,
            variant=variant,
            service=service,
            age=age - timedelta(milliseconds=offset),
            labels=labels,
            question="What does <b>for</b> do?",
        )
        spans += request
        scores += score_rows(
            traced,
            hallucinated=hallucinated,
            support=0.1 if hallucinated else 1.0,
            service=service,
            details={"sentences": [{"sentence": PLANTED_SENTENCE, "supported": False}]}
            if hallucinated
            else {},
        )
        traces.append(traced.trace_id)
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    store.insert("ragpulse_scores", scores, SCORE_COLUMNS)
    return traces


HOUR_AGO = datetime.now(UTC) - timedelta(hours=1)


def test_b_clearly_higher_reads_as_a_difference_with_its_interval() -> None:
    difference = Difference("B", "A", Rate(30, 100), Rate(5, 100))
    lower, upper = difference.interval
    assert difference.detectable
    assert difference.verdict() == f"B higher than A by 25.0 points [{100 * lower:.1f}, {100 * upper:.1f}]"


def test_b_clearly_lower_reads_as_lower_with_positive_points() -> None:
    verdict = Difference("B", "A", Rate(2, 100), Rate(30, 100)).verdict()
    assert verdict.startswith("B lower than A by 28.0 points [") and "-" not in verdict


def test_overlapping_rates_say_no_difference_can_be_told_at_this_size() -> None:
    same_size = Difference("B", "A", Rate(6, 40), Rate(4, 40))
    assert not same_size.detectable
    assert same_size.verdict().startswith(
        "no detectable difference between B and A at n = 40 each (B − A +5.0 points ["
    )
    assert "at n = 38 and 40" in Difference("B", "A", Rate(6, 38), Rate(4, 40)).verdict()


def test_truth_counts_what_the_service_caused_against_the_judges_verdicts(store: Store) -> None:
    _insert(
        store,
        [
            ("A", True, PLANTED),
            ("A", True, {}),
            ("A", False, {}),
            ("A", False, {}),
            ("B", True, DEGRADED),
            ("B", False, DEGRADED),
            ("B", True, {**PLANTED, **DEGRADED}),
            ("B", False, {}),
        ],
    )
    _insert(store, [("B", True, PLANTED)], first_index=100, service="other")
    rows = {row.variant: row for row in measured_vs_truth(store, HOUR_AGO, "svc", "lexical")}
    a, b = rows["A"], rows["B"]
    assert (a.scored, a.planted, a.degraded, a.caused, a.caught, a.false_alarms) == (4, 1, 0, 1, 1, 1)
    assert (b.scored, b.planted, b.degraded, b.caused, b.caught, b.false_alarms) == (4, 1, 3, 3, 2, 0)
    assert (b.measured.successes, b.measured.n) == (2, 4)
    assert measured_vs_truth(store, HOUR_AGO, "svc", "support") == []


def test_labels_are_read_per_request_and_unlabelled_requests_have_none(store: Store) -> None:
    planted, degraded, clean = _insert(store, [("A", True, PLANTED), ("B", True, DEGRADED), ("A", False, {})])
    assert labels_of(store, [planted, degraded, clean, "f" * 32]) == {
        planted: RequestLabels(planted=True, degraded_retrieval=False),
        degraded: RequestLabels(planted=False, degraded_retrieval=True),
    }
    assert labels_of(store, []) == {}


def _drifting_run(store: Store, split: datetime) -> None:
    """20 requests per variant before ``split``, B 2 bad; 20 after, B 12 bad; A 1 bad in each part."""
    before = [("A", index == 0, {}) for index in range(20)] + [("B", index < 2, {}) for index in range(20)]
    after = [("A", index == 0, {}) for index in range(20)]
    after += [("B", index < 12, DEGRADED if index < 12 else {}) for index in range(20)]
    now = datetime.now(UTC)
    _insert(store, before, age=now - split + timedelta(seconds=1))
    _insert(store, after, first_index=100, age=now - split - timedelta(seconds=1))


def test_the_alert_window_of_a_short_run_fires_for_the_drifting_variant_against_its_own_first_part(
    store: Store,
) -> None:
    now = datetime.now(UTC)
    started, split = now - timedelta(minutes=9), now - timedelta(minutes=5)
    _drifting_run(store, split)
    window = AlertWindow(started, now, split)
    settings = window.settings(AlertSettings(min_samples=10))
    assert settings.window_minutes == pytest.approx(5.0)
    assert settings.baseline_days == pytest.approx(4 / (24 * 60))
    fired = {(alert.key.rule, alert.key.variant) for alert in evaluate_alerts(store, settings, now).fired}
    assert fired == {(HALLUCINATION_RATE, "B"), (SUPPORT_DROP, "B")}
    assert "over its last 300 s" in window.describe()
    assert "the support-drop baseline is the run's first 240 s" in window.describe()


def test_the_demo_alert_window_tells_none_of_the_users_destinations() -> None:
    now = datetime.now(UTC)
    configured = AlertSettings.model_validate(
        {
            "webhook_url": "https://hooks.example.com/services/T0/B0/secret",
            "destinations": [{"kind": "slack", "name": "team", "url": "https://hooks.example.com/other"}],
        }
    )
    assert configured.notified()
    demo = AlertWindow(now - timedelta(minutes=9), now, None).settings(configured)
    assert demo.notified() == []


def test_without_a_drift_the_window_is_the_whole_run_and_nothing_older_is_a_baseline(store: Store) -> None:
    now = datetime.now(UTC)
    started, split = now - timedelta(minutes=9), now - timedelta(minutes=5)
    _drifting_run(store, split)
    _insert(store, [("B", False, {}) for _ in range(30)], first_index=500, age=timedelta(minutes=30))
    window = AlertWindow(started, now, None)
    fired = {
        (alert.key.rule, alert.key.variant)
        for alert in evaluate_alerts(store, window.settings(AlertSettings(min_samples=10)), now).fired
    }
    # B's rate over the whole run is too high, but nothing before the run (however good) is its baseline.
    assert fired == {(HALLUCINATION_RATE, "B")}
    assert "over all of it (540 s)" in window.describe() and "no baseline" in window.describe()


def test_the_story_leads_with_the_difference_the_alerts_and_the_worst_requests_of_b(store: Store) -> None:
    now = datetime.now(UTC)
    started, split = now - timedelta(minutes=9), now - timedelta(minutes=5)
    _drifting_run(store, split)
    window = AlertWindow(started, now, split)
    evaluation = evaluate_alerts(store, window.settings(AlertSettings(min_samples=10)), now)
    data = collect_report(store, started)
    labels = labels_of(store, [row.trace_id for row in data.worst])
    story = build_story(data, evaluation.firing, labels, window.describe())
    assert story is not None and story.focus_variant == "B"
    headlines = story.headlines()
    assert headlines[0].startswith("hallucination rate (lexical): B higher than A by 30.0 points [")
    assert [line.split(":")[0] for line in headlines[1:3]] == ["alert firing for B"] * 2
    assert headlines[-1] == "no alert for A"
    assert story.evidence and all(item.cause == "degraded retrieval" for item in story.evidence)

    buffer = io.StringIO()
    print_story(story, Console(file=buffer, width=200, color_system=None))
    text = buffer.getvalue()
    assert text.index("B higher than A") < text.index("alert firing for B") < text.index("why, worst first")
    assert f"✗ {PLANTED_SENTENCE}" in text

    page = with_sections(render_html(data), [story_html(story)])
    assert page.index("What this run shows") < page.index("Hallucination rate per variant")
    assert page.index("<h1>") < page.index("What this run shows")
    assert "What does &lt;b&gt;for&lt;/b&gt; do?" in page and "<b>for</b>" not in page
    assert "deprecated &lt;for&gt;" in page


def test_no_story_when_nothing_was_scored(store: Store) -> None:
    data = collect_report(store, HOUR_AGO)
    assert build_story(data, [], {}, "window") is None


def test_sections_need_a_report_page_with_a_title() -> None:
    with pytest.raises(ValueError, match="subtitle"):
        with_sections("<html><body>nothing</body></html>", ["<section>x</section>"])
