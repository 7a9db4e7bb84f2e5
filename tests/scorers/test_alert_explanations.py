"""What the report and the live page say about alerts is what happened (issue 27, item 3): a rate above the
threshold without an alert says whether the check has not run yet (and when it will), saw too few samples in
its window, or an interval that reaches the threshold; headings count what happened; and nothing resolves
against an empty baseline: a support drop whose window has no history before it is judged against the
baseline it fired on (issue 42)."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from ragpulse_core.cli import main
from ragpulse_core.store import Store
from ragpulse_dashboards.alerts import AlertRecord, evaluate_alerts, load_alerts, rules
from ragpulse_dashboards.commands.alerts import listing
from ragpulse_dashboards.report import render_html, render_terminal
from ragpulse_dashboards.report.collect import collect_alerting_report
from ragpulse_dashboards.settings import AlertSettings
from ragpulse_demo.alert_window import AlertWindow
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


ONLY_DROP = AlertSettings(hallucination_threshold=0.9, min_samples=30)


def _dropped_then_history_gone(store: Store, now: datetime) -> AlertRecord:
    """A support drop fired against two days of history; then the history is gone (as for the demo's alert
    under serve: its baseline was the run's first part, serve's window holds the whole run)."""
    _scores(store, hallucinated=25, total=500, at=now - timedelta(days=2))
    _scores(store, hallucinated=30, total=200, at=now - timedelta(minutes=10))
    (fired,) = evaluate_alerts(store, ONLY_DROP, now=now).fired
    assert fired.key.rule == rules.SUPPORT_DROP and fired.baseline is not None
    for judged in ("ragpulse_scores", "ragpulse_request_verdicts"):  # the verdicts the rules read
        store.command(f"TRUNCATE TABLE {store.table(judged)}")
    return fired


def test_a_drop_without_a_baseline_of_its_own_resolves_against_the_one_it_fired_on(store: Store) -> None:
    """It stayed firing for ever, "baseline too small (n=0)", "threshold 0.0%"."""
    now = datetime.now(UTC).replace(microsecond=0)
    fired = _dropped_then_history_gone(store, now)
    _scores(store, hallucinated=10, total=200, at=now + timedelta(minutes=50))
    (resolved,) = evaluate_alerts(store, ONLY_DROP, now=now + timedelta(minutes=55)).resolved
    assert resolved.alert_id == fired.alert_id and resolved.threshold == fired.threshold > 0.9
    assert "support rate 95.0% (95% CI" in resolved.summary and "n=200) since it fired" in resolved.summary
    assert "against the baseline it fired on, 95.0% (lower bound" in resolved.summary
    assert resolved.scorer == "lexical"


def test_it_stays_firing_while_the_traffic_since_it_fired_is_still_low(store: Store) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    fired = _dropped_then_history_gone(store, now)
    assert evaluate_alerts(store, ONLY_DROP, now=now + timedelta(minutes=5)).resolved == []
    _scores(store, hallucinated=40, total=200, at=now + timedelta(minutes=50))
    assert evaluate_alerts(store, ONLY_DROP, now=now + timedelta(minutes=55)).resolved == []
    (kept,) = [alert for alert in load_alerts(store) if alert.key.rule == rules.SUPPORT_DROP]
    assert kept.state == "firing" and kept.threshold == fired.threshold
    assert "support rate 80.0%" in kept.summary and "since it fired" in kept.summary
    assert "threshold 0.0%" not in _said(store) and "lower bound 0.000" not in _listing(kept)


def test_alerts_counts_the_resolved_ones_it_does_not_list(
    store: Store, chdb_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ragpulse alerts` said "0 resolved" when one had resolved: it listed only the firing ones and counted
    what it listed."""
    now = datetime.now(UTC).replace(microsecond=0)
    _dropped_then_history_gone(store, now)
    _scores(store, hallucinated=10, total=200, at=now + timedelta(minutes=50))
    assert evaluate_alerts(store, ONLY_DROP, now=now + timedelta(minutes=55)).resolved
    assert main(["alerts", "--dsn", chdb_dsn]) == 0
    assert "no alerts firing; 1 resolved (--all lists them)" in capsys.readouterr().out

    _scores(store, hallucinated=150, total=200, at=now + timedelta(minutes=56))
    assert evaluate_alerts(store, ALERTS, now=now + timedelta(minutes=57)).fired
    assert main(["alerts", "--dsn", chdb_dsn]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "1 firing, 1 resolved; --all lists the resolved" in said and "lexical" in said
    assert main(["alerts", "--all", "--dsn", chdb_dsn]) == 0
    assert "1 firing, 1 resolved (times UTC)" in " ".join(capsys.readouterr().out.split())


def test_the_demos_support_drop_resolves_under_serve_once_traffic_recovers(store: Store) -> None:
    """The demo fires against its run's first part; serve then reads the whole run inside its hour, where no
    history precedes it: the drop is judged against the demo's baseline on the traffic since, and the
    quick start's clean requests resolve it."""
    started = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=3)
    _scores(store, hallucinated=3, total=60, at=started + timedelta(seconds=10))
    split = started + timedelta(seconds=30)
    _scores(store, hallucinated=30, total=60, at=split + timedelta(seconds=10))
    evaluated = started + timedelta(minutes=1)
    demo = AlertWindow(started, evaluated, split).settings(AlertSettings(min_samples=25))
    fired_now = evaluate_alerts(store, demo, now=evaluated).fired
    (fired,) = [alert for alert in fired_now if alert.key.rule == rules.SUPPORT_DROP]

    serve = AlertSettings()
    assert evaluate_alerts(store, serve, now=evaluated + timedelta(seconds=30)).resolved == []
    _scores(store, hallucinated=0, total=10, at=evaluated + timedelta(minutes=1))
    resolved = evaluate_alerts(store, serve, now=evaluated + timedelta(minutes=2)).resolved
    assert [alert.alert_id for alert in resolved] == [fired.alert_id]
    assert "n=10) since it fired" in resolved[0].summary and "threshold 0.0%" not in _said(store)
