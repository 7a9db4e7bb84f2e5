"""Built-in alerts: the rules' verdicts, and evaluations against chDB with state kept in ragpulse_alerts."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from apscheduler.schedulers.background import BackgroundScheduler
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_core.store import Store
from ragpulse_dashboards.alerts import add_alert_job, evaluate_alerts, load_alerts, rules
from ragpulse_dashboards.alerts.job import JOB_ID, run_alert_job
from ragpulse_dashboards.alerts.rules import AlertKey
from ragpulse_dashboards.settings import AlertSettings, DashboardsSettings

KEY = AlertKey(rules.HALLUCINATION_RATE, "svc", "A", "lexical")
SCORE_COLUMNS = [
    "TraceId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer", "ScorerVersion",
    "Metric", "Value", "Label", "Explanation", "Details", "JudgeModel", "InputTokens", "OutputTokens",
    "CostUSD", "LatencyMs", "Error",
]  # fmt: skip


def now_utc() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def insert_hallucination_scores(
    store: Store,
    *,
    hallucinated: int,
    total: int,
    at: datetime,
    variant: str = "A",
    scorer: str = "lexical",
    errors: int = 0,
) -> None:
    """``total`` scored requests at ``at``; the first ``hallucinated`` are 1, the first ``errors`` failed."""
    rows: list[list[Any]] = []
    for i in range(total):
        failed = i < errors
        rows.append([
            uuid.uuid4().hex, at, at + timedelta(seconds=30), "svc", "fusion", variant, scorer, "1",
            "hallucination", None if failed else float(i < hallucinated), "", "", "{}", "", 0, 0, 0.0, 1.0,
            "judge timed out" if failed else "",
        ])  # fmt: skip
    store.insert("ragpulse_scores", rows, SCORE_COLUMNS)


def insert_requests(store: Store, count: int, at: datetime, service: str = "svc") -> None:
    """Root spans into otel_traces; the materialized view turns them into ragpulse_requests rows."""
    columns = ["Timestamp", "TraceId", "SpanId", "SpanName", "SpanKind", "ServiceName", "SpanAttributes",
               "Duration", "StatusCode"]  # fmt: skip
    rows = [
        [at, uuid.uuid4().hex, uuid.uuid4().hex[:16], "rag fusion", "Internal", service,
         {"ragpulse.kind": "rag", "ragpulse.pipeline": "fusion", "ragpulse.variant": "A"}, 10**9, "Ok"]
        for _ in range(count)
    ]  # fmt: skip
    store.insert("otel_traces", rows, columns)


def settings(**overrides: Any) -> AlertSettings:
    return AlertSettings(**{"hallucination_threshold": 0.2, "min_samples": 30, **overrides})


# -- the rules alone -------------------------------------------------------------------------------------


def test_rate_fires_when_lower_bound_is_above_threshold_with_enough_samples() -> None:
    observation = rules.rate_above(KEY, "hallucination rate", 60, 200, threshold=0.2, min_samples=30)
    assert observation.fire and not observation.clear
    assert observation.lower > 0.2
    assert "30.0%" in observation.summary and "n=200" in observation.summary


def test_rate_does_not_fire_on_too_few_samples_however_bad() -> None:
    observation = rules.rate_above(KEY, "hallucination rate", 10, 10, threshold=0.2, min_samples=30)
    assert observation.lower > 0.2
    assert not observation.fire


def test_rate_near_threshold_neither_fires_nor_clears() -> None:
    observation = rules.rate_above(KEY, "hallucination rate", 44, 200, threshold=0.2, min_samples=30)
    assert observation.lower < 0.2 < observation.upper
    assert not observation.fire and not observation.clear


def test_rate_clears_once_upper_bound_is_below_threshold_minus_margin() -> None:
    low = rules.rate_above(KEY, "h", 20, 200, threshold=0.2, min_samples=30)
    assert low.clear
    strict = rules.rate_above(KEY, "h", 20, 200, threshold=0.2, min_samples=30, resolve_margin=0.1)
    assert strict.upper > 0.1 and not strict.clear


@given(
    n=st.integers(min_value=0, max_value=5000),
    share=st.floats(min_value=0, max_value=1),
    threshold=st.floats(min_value=0, max_value=1),
    min_samples=st.integers(min_value=1, max_value=500),
)
def test_rate_verdicts_are_never_both_and_respect_min_samples(
    n: int, share: float, threshold: float, min_samples: int
) -> None:
    events = round(share * n)
    observation = rules.rate_above(KEY, "h", events, n, threshold=threshold, min_samples=min_samples)
    assert not (observation.fire and observation.clear)
    if observation.fire:
        assert n >= min_samples and observation.lower > threshold
    assert 0 <= observation.lower <= observation.value <= observation.upper <= 1 or n == 0


def test_drop_fires_only_when_intervals_separate_and_clears_at_baseline_rate() -> None:
    key = AlertKey(rules.SUPPORT_DROP, "svc", "A", "lexical")
    dropped = rules.rate_dropped(key, "support rate", (140, 200), (950, 1000), min_samples=30)
    assert dropped.fire
    assert dropped.upper < dropped.threshold
    slightly_lower = rules.rate_dropped(key, "support rate", (182, 200), (950, 1000), min_samples=30)
    assert not slightly_lower.fire and not slightly_lower.clear
    recovered = rules.rate_dropped(key, "support rate", (192, 200), (950, 1000), min_samples=30)
    assert recovered.clear
    no_baseline = rules.rate_dropped(key, "support rate", (10, 200), (0, 0), min_samples=30)
    assert not no_baseline.fire
    no_traffic_now = rules.rate_dropped(key, "support rate", (0, 0), (950, 1000), min_samples=30)
    assert not no_traffic_now.fire and not no_traffic_now.clear


def test_stall_needs_traffic_and_clears_on_any_score() -> None:
    key = AlertKey(rules.SCORING_STALLED, "svc")
    assert rules.scoring_stalled(key, 50, 0, min_requests=10).fire
    assert not rules.scoring_stalled(key, 5, 0, min_requests=10).fire
    assert rules.scoring_stalled(key, 50, 3, min_requests=10).clear
    assert rules.scoring_stalled(key, 0, 0, min_requests=10).clear


# -- evaluations against the store -----------------------------------------------------------------------


def test_fires_per_variant_and_records_state(store: Store) -> None:
    now = now_utc()
    insert_hallucination_scores(
        store, hallucinated=60, total=200, at=now - timedelta(minutes=10), variant="A"
    )
    insert_hallucination_scores(
        store, hallucinated=10, total=200, at=now - timedelta(minutes=10), variant="B"
    )

    result = evaluate_alerts(store, settings(), now=now)

    assert [(r.key.rule, r.key.variant) for r in result.fired] == [(rules.HALLUCINATION_RATE, "A")]
    fired = result.fired[0]
    assert fired.samples == 200 and fired.value == pytest.approx(0.3) and fired.lower > 0.2
    stored = load_alerts(store)
    assert [(r.alert_id, r.state) for r in stored] == [(fired.alert_id, "firing")]
    assert stored[0].fired_at == now


def test_too_few_scored_requests_do_not_fire(store: Store) -> None:
    now = now_utc()
    insert_hallucination_scores(store, hallucinated=20, total=20, at=now - timedelta(minutes=5))
    result = evaluate_alerts(store, settings(min_samples=30), now=now)
    assert result.fired == []
    assert load_alerts(store) == []


def test_scores_outside_the_window_are_not_counted(store: Store) -> None:
    now = now_utc()
    insert_hallucination_scores(store, hallucinated=100, total=100, at=now - timedelta(hours=3))
    result = evaluate_alerts(store, settings(window_minutes=60), now=now)
    assert [r for r in result.fired if r.key.rule == rules.HALLUCINATION_RATE] == []


def test_hysteresis_keeps_one_episode_while_rate_hovers_at_threshold(store: Store) -> None:
    now = now_utc()
    alert_settings = settings()

    def evaluate_with(hallucinated: int, minutes_later: int) -> Any:
        for judged in ("ragpulse_scores", "ragpulse_request_verdicts"):  # the verdicts the rules read
            store.command(f"TRUNCATE TABLE {store.table(judged)}")
        at = now + timedelta(minutes=minutes_later)
        insert_hallucination_scores(store, hallucinated=hallucinated, total=200, at=at - timedelta(minutes=5))
        return evaluate_alerts(store, alert_settings, now=at)

    first = evaluate_with(60, 0)
    assert len(first.fired) == 1
    episode = first.fired[0].alert_id
    for step, hallucinated in enumerate([44, 36, 46, 40], start=1):  # 18-23%: inside the band
        hovering = evaluate_with(hallucinated, step)
        assert hovering.fired == [] and hovering.resolved == []
        assert [r.alert_id for r in hovering.firing] == [episode]
    resolved = evaluate_with(16, 10)  # 8%: the upper bound is well below 20%
    assert [r.alert_id for r in resolved.resolved] == [episode]
    for step, hallucinated in enumerate([44, 46], start=11):
        quiet = evaluate_with(hallucinated, step)
        assert quiet.fired == [] and quiet.firing == []

    history = load_alerts(store)
    assert len(history) == 1
    assert history[0].state == "resolved" and history[0].resolved_at == now + timedelta(minutes=10)


def test_alert_without_data_keeps_firing(store: Store) -> None:
    now = now_utc()
    insert_hallucination_scores(store, hallucinated=60, total=200, at=now - timedelta(minutes=5))
    assert evaluate_alerts(store, settings(), now=now).fired
    for judged in ("ragpulse_scores", "ragpulse_request_verdicts"):  # the verdicts the rules read
        store.command(f"TRUNCATE TABLE {store.table(judged)}")
    later = evaluate_alerts(store, settings(), now=now + timedelta(minutes=5))
    assert later.resolved == [] and len(later.firing) == 1


def test_support_drop_against_the_seven_day_baseline(store: Store) -> None:
    now = now_utc()
    insert_hallucination_scores(store, hallucinated=25, total=500, at=now - timedelta(days=2))
    insert_hallucination_scores(store, hallucinated=30, total=200, at=now - timedelta(minutes=10))
    only_drop = settings(hallucination_threshold=0.5)

    result = evaluate_alerts(store, only_drop, now=now)

    assert [r.key.rule for r in result.fired] == [rules.SUPPORT_DROP]
    drop = result.fired[0]
    assert drop.value == pytest.approx(0.85) and drop.upper < drop.threshold
    assert "baseline 95.0%" in drop.summary


def test_no_drop_when_current_matches_baseline(store: Store) -> None:
    now = now_utc()
    insert_hallucination_scores(store, hallucinated=25, total=500, at=now - timedelta(days=2))
    insert_hallucination_scores(store, hallucinated=12, total=200, at=now - timedelta(minutes=10))
    assert evaluate_alerts(store, settings(hallucination_threshold=0.5), now=now).fired == []


def test_scoring_stalled_fires_on_settled_traffic_without_scores_and_resolves(store: Store) -> None:
    now = now_utc()
    insert_requests(store, 20, now - timedelta(minutes=2))  # too fresh to expect scores
    assert evaluate_alerts(store, settings(), now=now).fired == []

    insert_requests(store, 20, now - timedelta(minutes=20))
    stalled = evaluate_alerts(store, settings(), now=now)
    assert [(r.key.rule, r.key.service, r.samples) for r in stalled.fired] == [
        (rules.SCORING_STALLED, "svc", 20)
    ]

    insert_hallucination_scores(store, hallucinated=0, total=1, at=now - timedelta(minutes=20))
    resumed = evaluate_alerts(store, settings(), now=now + timedelta(minutes=1))
    assert [r.key.rule for r in resumed.resolved] == [rules.SCORING_STALLED]


def test_judge_errors_spiking(store: Store) -> None:
    now = now_utc()
    insert_hallucination_scores(store, hallucinated=0, total=100, errors=40, at=now - timedelta(minutes=5))
    result = evaluate_alerts(store, settings(judge_error_threshold=0.1), now=now)
    assert [(r.key.rule, r.key.scorer) for r in result.fired] == [(rules.JUDGE_ERRORS, "lexical")]
    assert result.fired[0].value == pytest.approx(0.4)


# -- the scheduler job -----------------------------------------------------------------------------------


def test_add_alert_job_schedules_one_coalescing_job(store: Store) -> None:
    scheduler = BackgroundScheduler()
    scheduler.start(paused=True)
    try:
        add_alert_job(scheduler, DashboardsSettings(alerts=settings(interval_s=30)), store)
        add_alert_job(scheduler, DashboardsSettings(alerts=settings(interval_s=30)), store)
        jobs = scheduler.get_jobs()
    finally:
        scheduler.shutdown(wait=False)
    assert [job.id for job in jobs] == [JOB_ID]
    assert jobs[0].trigger.interval == timedelta(seconds=30)
    assert jobs[0].max_instances == 1 and jobs[0].coalesce


def test_add_alert_job_does_nothing_when_disabled(store: Store) -> None:
    scheduler = BackgroundScheduler()
    add_alert_job(scheduler, DashboardsSettings(alerts=settings(enabled=False)), store)
    assert scheduler.get_jobs() == []


def test_job_survives_an_unreachable_store(caplog: pytest.LogCaptureFixture) -> None:
    run_alert_job(Store("http://127.0.0.1:9/"), settings())
    assert "store unavailable" in caplog.text


def test_job_records_alerts(store: Store) -> None:
    insert_hallucination_scores(store, hallucinated=150, total=200, at=now_utc() - timedelta(minutes=5))
    run_alert_job(store, settings())
    assert [r.key.rule for r in load_alerts(store)] == [rules.HALLUCINATION_RATE]


def test_one_hallucination_alert_per_variant_from_the_best_judge(store: Store) -> None:
    now = now_utc()
    at = now - timedelta(minutes=5)
    insert_hallucination_scores(store, hallucinated=200, total=200, at=at)  # lexical: every request bad
    traces = [row[0] for row in store.query(f"SELECT TraceId FROM {store.table('ragpulse_scores')}")]
    # The support judge read every one of these requests and found all of them supported.
    rows = [
        [trace, at, at + timedelta(seconds=30), "svc", "fusion", "A", "support", "1", "hallucination", 0.0,
         "", "", "{}", "", 0, 0, 0.0, 1.0, ""]
        for trace in traces
    ]  # fmt: skip
    store.insert("ragpulse_scores", rows, SCORE_COLUMNS)
    assert evaluate_alerts(store, settings(), now=now).fired == []


def test_scoring_stalled_ignores_traffic_the_sample_rate_leaves_out(store: Store) -> None:
    now = now_utc()
    insert_requests(store, 100, now - timedelta(minutes=20))
    assert evaluate_alerts(store, settings(), now=now, sample_rate=0.05).fired == []  # 5 expected
    stalled = evaluate_alerts(store, settings(), now=now, sample_rate=0.5)  # 50 expected, none scored
    assert [r.key.rule for r in stalled.fired] == [rules.SCORING_STALLED]


def test_hallucination_alert_names_the_judges_that_decided_it(store: Store) -> None:
    now = now_utc()
    insert_hallucination_scores(store, hallucinated=120, total=200, at=now - timedelta(minutes=5))
    (fired,) = evaluate_alerts(store, settings(), now=now).fired
    assert fired.key == AlertKey(rules.HALLUCINATION_RATE, "svc", "A")
    assert "for service svc, variant A, judged by lexical; threshold 20.0%" in fired.summary
