"""What the report and the live page say about alerts is what happened (issue 27, item 3): a rate above the
threshold without an alert says whether the check has not run yet (and when it will), saw too few samples in
its window, or an interval that reaches the threshold; headings count what happened; and nothing resolves
against an empty baseline."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from ragpulse_core.store import Store
from ragpulse_dashboards.alerts import AlertRecord, evaluate_alerts, load_alerts, rules
from ragpulse_dashboards.commands.alerts import listing
from ragpulse_dashboards.report import render_html, render_terminal
from ragpulse_dashboards.report.collect import collect_alerting_report
from ragpulse_dashboards.settings import AlertSettings
from report_data import SCORE_COLUMNS, SPAN_COLUMNS, request_spans, score_rows
from rich.console import Console

ALERTS = AlertSettings(hallucination_threshold=0.2, min_samples=30, window_minutes=60, interval_s=60)


def _scores(store: Store, *, hallucinated: int, total: int, at: datetime) -> None:
    """``total`` requests at ``at``, each with its lexical scores; the first ``hallucinated`` hallucinated."""
    age = datetime.now(UTC) - at
    first = store.query(f"SELECT count() FROM {store.table('otel_traces')}")[0][0]
    spans: list[list[Any]] = []
    scores: list[list[Any]] = []
    for i in range(total):
        traced, rows = request_spans(first + i, variant="A", age=age)
        spans += rows
        scores += score_rows(traced, hallucinated=i < hallucinated, support=0.5)
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    store.insert("ragpulse_scores", scores, SCORE_COLUMNS)


def _listing(alert: AlertRecord) -> str:
    console = Console(file=io.StringIO(), width=80, color_system=None)
    console.print(listing([alert]))
    return str(console.file.getvalue())  # type: ignore[attr-defined]


def _said(store: Store) -> str:
    data = collect_alerting_report(store, datetime.now(UTC) - timedelta(hours=24), None, ALERTS)
    console = Console(file=io.StringIO(), width=400, color_system=None)
    render_terminal(data, console)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    return " ".join(text.split()) + " " + " ".join(render_html(data).split())


def test_before_any_check_the_page_says_the_alert_has_not_been_evaluated_yet(store: Store) -> None:
    _scores(store, hallucinated=120, total=200, at=datetime.now(UTC) - timedelta(minutes=20))
    said = _said(store)
    assert "not evaluated yet: no alert check has run; `ragpulse serve` runs one every 60 s" in said
    assert "the alert judges" not in said

    evaluate_alerts(store, ALERTS)
    assert "not evaluated yet" not in _said(store)


def test_too_few_samples_in_the_alerts_window_is_said_with_the_checks_numbers(store: Store) -> None:
    now = datetime.now(UTC)
    _scores(store, hallucinated=100, total=200, at=now - timedelta(hours=3))
    _scores(store, hallucinated=10, total=10, at=now - timedelta(minutes=10))
    evaluate_alerts(store, ALERTS, now=now)
    said = _said(store)
    assert re.search(
        r"no alert: at the last check \(\d\d:\d\d:\d\d UTC\), the last 60 min held n=10, below the 30 samples"
        r" an alert needs; the next runs within 60 s",
        said,
    ), said


def test_an_interval_reaching_the_threshold_in_the_alerts_window_is_said(store: Store) -> None:
    now = datetime.now(UTC)
    _scores(store, hallucinated=150, total=300, at=now - timedelta(hours=3))
    _scores(store, hallucinated=8, total=30, at=now - timedelta(minutes=10))
    evaluate_alerts(store, ALERTS, now=now)
    assert re.search(
        r"no alert: at the last check \([^)]*\), the last 60 min had a 95% interval \[1", _said(store)
    )


def test_no_scores_in_the_alerts_window_and_a_stopped_checker_are_said(store: Store) -> None:
    now = datetime.now(UTC)
    _scores(store, hallucinated=100, total=200, at=now - timedelta(hours=3))
    evaluate_alerts(store, ALERTS, now=now - timedelta(minutes=30))
    said = _said(store)
    assert "found no scores for it in the last 60 min; no check has run since" in said, re.findall(
        r"(?:no alert|not evaluated)[^│<]*", said
    )


def test_headings_count_what_happened(store: Store) -> None:
    now = datetime.now(UTC)
    _scores(store, hallucinated=120, total=200, at=now - timedelta(minutes=20))
    evaluate_alerts(store, ALERTS, now=now)
    said = _said(store)
    assert "Alerts (1 firing)" in said and "resolved" not in said.split("Alerts (1 firing)")[1][:40]
    assert "then resolved" not in said

    for judged in ("ragpulse_scores", "ragpulse_request_verdicts"):  # the verdicts the rules read
        store.command(f"TRUNCATE TABLE {store.table(judged)}")
    _scores(store, hallucinated=0, total=200, at=now - timedelta(minutes=5))
    assert evaluate_alerts(store, ALERTS, now=now + timedelta(minutes=1)).resolved
    assert "Alerts (1 resolved in this window)" in _said(store)


def test_nothing_resolves_against_an_empty_baseline(store: Store) -> None:
    """A demo's support-drop alert, then a restart whose baseline window holds nothing: it stays firing."""
    now = datetime.now(UTC).replace(microsecond=0)
    only_drop = AlertSettings(hallucination_threshold=0.9, min_samples=30)
    _scores(store, hallucinated=25, total=500, at=now - timedelta(days=2))
    _scores(store, hallucinated=30, total=200, at=now - timedelta(minutes=10))
    assert [alert.key.rule for alert in evaluate_alerts(store, only_drop, now=now).fired] == [
        rules.SUPPORT_DROP
    ]

    for judged in ("ragpulse_scores", "ragpulse_request_verdicts"):  # the verdicts the rules read
        store.command(f"TRUNCATE TABLE {store.table(judged)}")
    _scores(store, hallucinated=10, total=200, at=now + timedelta(minutes=50))
    later = evaluate_alerts(store, only_drop, now=now + timedelta(minutes=55))
    assert later.resolved == []
    (kept,) = load_alerts(store)
    assert kept.state == "firing" and "baseline too small to judge (n=0, fewer than 30)" in kept.summary
    assert "baseline lower bound" in " ".join(_listing(kept).split())
    assert not [
        alert for alert in load_alerts(store) if "n=0)" in alert.summary and alert.state == "resolved"
    ]
