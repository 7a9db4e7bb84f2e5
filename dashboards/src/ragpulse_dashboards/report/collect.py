"""A report's data: the queries of :mod:`ragpulse_dashboards.report.queries` put together for one window.

Rates use Wilson intervals so a rate over 12 requests is not read like one over 1,200.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from ragpulse_core.store import Store
from ragpulse_scorers.metric_names import HALLUCINATION, PASS
from ragpulse_scorers.settings import PriceSettings

from ragpulse_dashboards.alerts.checks import load_checks
from ragpulse_dashboards.alerts.notify import load_notification_log
from ragpulse_dashboards.report import queries
from ragpulse_dashboards.report.compare import mean_differences, rate_differences
from ragpulse_dashboards.report.model import (
    AlertLimits,
    HallucinationRow,
    MetricRow,
    PassRow,
    Rate,
    ReportData,
    primary_scorer,
)
from ragpulse_dashboards.report.people import collect_people
from ragpulse_dashboards.rootcause.figures import collect_rootcause
from ragpulse_dashboards.settings import AlertSettings

# Unscored requests a report lists one by one (the newest); the counts per reason cover them all.
UNSCORED_LISTED = 20
# The judge that costs nothing and scores all traffic; its agreement with the LLM judges is shown.
FREE_JUDGE = "lexical"
# Bucket sizes a time chart may use: the smallest that keeps a window within _TARGET_BUCKETS. Steps of at most
# 2.5x between sizes keep any window above a dozen buckets, so a drift in the middle of a one-minute demo run
# shows as a change over several buckets, not one step between two.
_BUCKET_CHOICES_S = (
    1,
    2,
    5,
    10,
    15,
    30,
    60,
    120,
    300,
    600,
    900,
    1800,
    3600,
    2 * 3600,
    3 * 3600,
    6 * 3600,
    12 * 3600,
    24 * 3600,
)
_TARGET_BUCKETS = 30


def collect_alerting_report(
    store: Store,
    since: datetime,
    service: str | None,
    alerts: AlertSettings,
    prices: Mapping[str, PriceSettings] | None = None,
) -> ReportData:
    """:func:`collect_report` with the hallucination alert's threshold and limits from ``alerts``, and where
    the change against its ``baseline_days`` sits, as every report a person reads (terminal, HTML, live page,
    demo) shows them; ``prices`` are ``judge.prices``."""
    return collect_report(
        store,
        since,
        service,
        hallucination_threshold=alerts.hallucination_threshold,
        alert_limits=AlertLimits(
            alerts.min_samples, alerts.window_minutes, alerts.interval_s, alerts.enabled
        ),
        prices=prices,
        baseline_days=alerts.baseline_days,
        pass_thresholds=alerts.pass_rates,
    )


def collect_report(
    store: Store,
    since: datetime,
    service: str | None = None,
    worst_limit: int = 10,
    hallucination_threshold: float | None = None,
    alert_limits: AlertLimits | None = None,
    prices: Mapping[str, PriceSettings] | None = None,
    baseline_days: float | None = None,
    pass_thresholds: dict[str, float] | None = None,
) -> ReportData:
    """Everything a report shows for requests at or after ``since`` (an aware datetime, or naive UTC).

    ``hallucination_threshold`` (the alert's) marks rates above it as bad and draws it on the charts;
    ``alert_limits`` let the page say why such a rate has no alert; ``prices`` (``judge.prices``, beside the
    list prices) say which judge models' costs are known; ``baseline_days`` adds where the change
    against that many days before ``since`` sits, the topics and the conversations.
    """
    params: dict[str, Any] = {"since_ms": _epoch_ms(since), "service": service or ""}
    now = datetime.now(UTC)
    variants = queries.variant_traffic(store, params)
    score_rows = queries.score_aggregates(store, params)
    hallucination = [
        HallucinationRow(
            row["Scorer"],
            row["Variant"],
            Rate(int(row["positives"]), int(row["n"]), queries.weighted_count(row)),
            row["ServiceName"],
        )
        for row in score_rows
        if row["Metric"] == HALLUCINATION
    ]
    pass_rates = [
        PassRow(
            row["Scorer"],
            row["Variant"],
            Rate(int(row["positives"]), int(row["n"]), queries.weighted_count(row)),
            row["ServiceName"],
        )
        for row in score_rows
        if row["Metric"] == PASS
    ]
    primary = primary_scorer({row.scorer for row in hallucination})
    metrics = [
        MetricRow(
            row["Scorer"], row["Metric"], row["Variant"], int(row["n"]), float(row["mean"]),
            _finite(row["variance"]), row["ServiceName"],
            None if queries.weighted_count(row).is_unweighted else float(row["effective_n"]),
        )
        for row in score_rows
        if row["Metric"] not in (HALLUCINATION, PASS)
    ]  # fmt: skip
    # Buckets fit the traffic, not the time since it: a report made a minute after a ten-second run still
    # shows that run over a dozen buckets or more.
    span = queries.traffic_span(store, params)
    bucket_s = (
        _bucket_seconds(_epoch_ms(span[0]["first"]) / 1000, _epoch_ms(span[0]["last"]) / 1000)
        if span
        else _bucket_seconds(params["since_ms"] / 1000, now.timestamp())
    )
    series_params = {**params, "bucket": bucket_s, "scorer": primary or ""}
    agreement = queries.judge_agreement(store, params, FREE_JUDGE)
    return ReportData(
        generated_at=now,
        since=since,
        service=service,
        primary_scorer=primary,
        bucket_s=bucket_s,
        variants=variants,
        hallucination=hallucination,
        metrics=metrics,
        latency=queries.latency(store, params),
        hallucination_series=queries.hallucination_series(store, series_params) if primary else [],
        traffic_series=queries.traffic_series(store, series_params),
        worst=queries.worst_requests(store, {**series_params, "limit": worst_limit}) if primary else [],
        spend=queries.spend(store, params, prices or {}),
        scoring=queries.scoring_health(store, params, sum(variant.requests for variant in variants)),
        alerts=queries.alerts(store, since, service),
        notifications=load_notification_log(store, since, service),
        differences=rate_differences(hallucination) + mean_differences(metrics),
        hallucination_threshold=hallucination_threshold,
        alert_limits=alert_limits,
        not_scored=queries.not_scored(store, params),
        template_versions=queries.template_versions(store, params),
        agreement=agreement,
        alert_checks=load_checks(store, service),
        unscored_requests=queries.request_lines(store, params, True, UNSCORED_LISTED),
        outcomes=queries.request_outcomes(store, params),
        people=collect_people(store, since, service, hallucination),
        rootcause=None
        if baseline_days is None
        else collect_rootcause(
            store,
            since,
            now,
            service,
            baseline_days=baseline_days,
            min_samples=alert_limits.min_samples if alert_limits is not None else 30,
        ),
        pass_rates=pass_rates,
        pass_thresholds=dict(pass_thresholds or {}),
    )


def _epoch_ms(moment: datetime) -> int:
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return int(aware.timestamp() * 1000)


def _finite(value: Any) -> float:
    number = float(value)
    return number if math.isfinite(number) else math.nan


def _bucket_seconds(start_s: float, end_s: float) -> int:
    span = max(end_s - start_s, 1.0)
    return next((size for size in _BUCKET_CHOICES_S if span / size <= _TARGET_BUCKETS), _BUCKET_CHOICES_S[-1])
