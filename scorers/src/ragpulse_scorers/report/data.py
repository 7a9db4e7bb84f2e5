"""What a report shows, read from the tables in a handful of queries.

Every query filters on the window start (``since``) and optionally one service. Rates use Wilson intervals
so a rate over 12 requests is not read like one over 1,200.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ragpulse_core.store import Store

from ragpulse_scorers.alerts.state import FIRING, AlertRecord, load_alerts
from ragpulse_scorers.report.details import unsupported_sentences
from ragpulse_scorers.stats import wilson_interval

HALLUCINATION = "hallucination"
SUPPORT_METRICS = ("support", "adherence")
# Scorers whose hallucination verdict leads the report when several are present: LLM judges first.
PREFERRED_SCORERS = ("support", "lexical")
STEPS = ("rag", "variations", "retrieve", "fuse", "generate")
# The example service marks requests it planted an unsupported statement in, so the demo can check the judge.
INJECTED_ATTRIBUTE = "ragpulse.example.injected"
_BUCKET_CHOICES_S = (10, 30, 60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 24 * 3600)
_TARGET_BUCKETS = 30
# Episodes read per report: firing ones come first, so only old resolved ones fall beyond it.
_ALERTS_LIMIT = 500


@dataclass(frozen=True)
class Rate:
    """A proportion with its 95% Wilson interval."""

    successes: int
    n: int

    @property
    def value(self) -> float:
        return self.successes / self.n if self.n else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.successes, self.n)


@dataclass(frozen=True)
class VariantTraffic:
    variant: str
    requests: int
    errors: int
    scored: int


@dataclass(frozen=True)
class HallucinationRow:
    scorer: str
    variant: str
    rate: Rate


@dataclass(frozen=True)
class MetricRow:
    scorer: str
    metric: str
    variant: str
    n: int
    mean: float


@dataclass(frozen=True)
class LatencyRow:
    step: str
    count: int
    p50_ms: float
    p95_ms: float


@dataclass(frozen=True)
class SeriesPoint:
    """One time bucket (start, seconds since the epoch) of one variant."""

    bucket: int
    variant: str
    rate: Rate


@dataclass(frozen=True)
class TrafficPoint:
    bucket: int
    requests: int
    errors: int


@dataclass(frozen=True)
class WorstRequest:
    trace_id: str
    variant: str
    question: str
    answer: str
    hallucinated: bool
    support: float | None
    unsupported: list[str]


@dataclass(frozen=True)
class SpendRow:
    day: str
    scorer: str
    cost_usd: float
    input_tokens: int
    output_tokens: int
    scored: int


@dataclass(frozen=True)
class InjectionRow:
    """Requests that carried the planted-statement marker against what the judge measured on them."""

    variant: str
    scored: int
    injected: int
    measured: Rate
    caught: int
    false_alarms: int


@dataclass(frozen=True)
class ScoringHealth:
    requests: int
    scored: int
    lag_p50_s: float | None
    lag_p95_s: float | None
    last_scored_at: str | None
    judge_errors: int
    outcomes: dict[str, int] = field(default_factory=dict)

    @property
    def share_scored(self) -> float:
        return self.scored / self.requests if self.requests else math.nan


@dataclass(frozen=True)
class ReportData:
    generated_at: datetime
    since: datetime
    service: str | None
    primary_scorer: str | None
    bucket_s: int
    variants: list[VariantTraffic]
    hallucination: list[HallucinationRow]
    metrics: list[MetricRow]
    latency: list[LatencyRow]
    hallucination_series: list[SeriesPoint]
    traffic_series: list[TrafficPoint]
    worst: list[WorstRequest]
    spend: list[SpendRow]
    injection: list[InjectionRow]
    scoring: ScoringHealth
    alerts: list[AlertRecord] = field(default_factory=list)
    """Alerts firing now (whenever they fired), then those resolved within the window; newest first."""

    @property
    def firing_alerts(self) -> list[AlertRecord]:
        return [alert for alert in self.alerts if alert.state == FIRING]

    @property
    def requests(self) -> int:
        return sum(variant.requests for variant in self.variants)

    def primary_rate(self, variant: str) -> Rate | None:
        return next(
            (
                row.rate
                for row in self.hallucination
                if row.scorer == self.primary_scorer and row.variant == variant
            ),
            None,
        )


def collect_report(
    store: Store, since: datetime, service: str | None = None, worst_limit: int = 10
) -> ReportData:
    """Everything a report shows for requests at or after ``since`` (an aware datetime, or naive UTC)."""
    params: dict[str, Any] = {"since_ms": _epoch_ms(since), "service": service or ""}
    now = datetime.now(UTC)
    variants = _variant_traffic(store, params)
    score_rows = _score_aggregates(store, params)
    hallucination = [
        HallucinationRow(row["Scorer"], row["Variant"], Rate(int(row["positives"]), int(row["n"])))
        for row in score_rows
        if row["Metric"] == HALLUCINATION
    ]
    primary = _primary_scorer({row.scorer for row in hallucination})
    first_request_ms = min((_epoch_ms(row["first"]) for row in _first_request(store, params)), default=None)
    bucket_s = _bucket_seconds((first_request_ms or params["since_ms"]) / 1000, now.timestamp())
    series_params = {**params, "bucket": bucket_s, "scorer": primary or ""}
    return ReportData(
        generated_at=now,
        since=since,
        service=service,
        primary_scorer=primary,
        bucket_s=bucket_s,
        variants=variants,
        hallucination=hallucination,
        metrics=[
            MetricRow(row["Scorer"], row["Metric"], row["Variant"], int(row["n"]), float(row["mean"]))
            for row in score_rows
            if row["Metric"] != HALLUCINATION
        ],
        latency=_latency(store, params),
        hallucination_series=_hallucination_series(store, series_params) if primary else [],
        traffic_series=_traffic_series(store, series_params),
        worst=_worst_requests(store, {**series_params, "limit": worst_limit}) if primary else [],
        spend=_spend(store, params),
        injection=_injection(store, series_params) if primary else [],
        scoring=_scoring_health(store, params, sum(variant.requests for variant in variants)),
        alerts=_alerts(store, since, service),
    )


def _epoch_ms(moment: datetime) -> int:
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return int(aware.timestamp() * 1000)


def _primary_scorer(scorers: set[str]) -> str | None:
    for name in PREFERRED_SCORERS:
        if name in scorers:
            return name
    return min(scorers) if scorers else None


def _bucket_seconds(start_s: float, end_s: float) -> int:
    span = max(end_s - start_s, 1.0)
    return next((size for size in _BUCKET_CHOICES_S if span / size <= _TARGET_BUCKETS), _BUCKET_CHOICES_S[-1])


_REQUESTS_WHERE = (
    "Timestamp >= fromUnixTimestamp64Milli({since_ms:Int64})"
    " AND ({service:String} = '' OR ServiceName = {service:String})"
)
_SCORES_WHERE = (
    "RequestTime >= fromUnixTimestamp64Milli({since_ms:Int64})"
    " AND ({service:String} = '' OR ServiceName = {service:String})"
)


def _variant_traffic(store: Store, params: dict[str, Any]) -> list[VariantTraffic]:
    scored = {
        row["Variant"]: int(row["scored"])
        for row in store.query_dicts(
            f"SELECT Variant, uniqExact(TraceId) AS scored FROM {store.table('ragpulse_scores')} FINAL"
            f" WHERE {_SCORES_WHERE} AND Error = '' GROUP BY Variant",
            params,
        )
    }
    rows = store.query_dicts(
        f"SELECT Variant, count() AS requests, countIf(StatusCode = 'Error') AS errors"
        f" FROM {store.table('ragpulse_requests')} FINAL WHERE {_REQUESTS_WHERE}"
        " GROUP BY Variant ORDER BY Variant",
        params,
    )
    return [
        VariantTraffic(
            row["Variant"], int(row["requests"]), int(row["errors"]), scored.get(row["Variant"], 0)
        )
        for row in rows
    ]


def _first_request(store: Store, params: dict[str, Any]) -> list[dict[str, Any]]:
    return store.query_dicts(
        f"SELECT min(Timestamp) AS first FROM {store.table('ragpulse_requests')}"
        f" WHERE {_REQUESTS_WHERE} HAVING count() > 0",
        params,
    )


def _score_aggregates(store: Store, params: dict[str, Any]) -> list[dict[str, Any]]:
    return store.query_dicts(
        "SELECT Scorer, Metric, Variant, count() AS n, countIf(Value >= 0.5) AS positives,"
        " avg(Value) AS mean"
        f" FROM {store.table('ragpulse_scores')} FINAL"
        f" WHERE {_SCORES_WHERE} AND Error = '' AND Value IS NOT NULL"
        " GROUP BY Scorer, Metric, Variant ORDER BY Scorer, Metric, Variant",
        params,
    )


def _latency(store: Store, params: dict[str, Any]) -> list[LatencyRow]:
    rows = store.query_dicts(
        "SELECT if(SpanAttributes['ragpulse.kind'] = 'rag', 'rag', SpanName) AS step, count() AS n,"
        " quantileExact(0.5)(Duration) / 1e6 AS p50, quantileExact(0.95)(Duration) / 1e6 AS p95"
        f" FROM {store.table('otel_traces')} WHERE {_REQUESTS_WHERE}"
        " AND (SpanAttributes['ragpulse.kind'] = 'rag'"
        "      OR SpanName IN ('variations', 'retrieve', 'fuse', 'generate'))"
        " GROUP BY step",
        params,
    )
    by_step = {row["step"]: row for row in rows}
    return [
        LatencyRow(step, int(by_step[step]["n"]), float(by_step[step]["p50"]), float(by_step[step]["p95"]))
        for step in STEPS
        if step in by_step
    ]


def _hallucination_series(store: Store, params: dict[str, Any]) -> list[SeriesPoint]:
    rows = store.query_dicts(
        "SELECT toUnixTimestamp(toStartOfInterval(RequestTime, toIntervalSecond({bucket:UInt32}))) AS bucket,"
        " Variant, count() AS n, countIf(Value >= 0.5) AS positives"
        f" FROM {store.table('ragpulse_scores')} FINAL WHERE {_SCORES_WHERE} AND Scorer = {{scorer:String}}"
        f" AND Metric = '{HALLUCINATION}' AND Error = '' AND Value IS NOT NULL"
        " GROUP BY bucket, Variant ORDER BY bucket, Variant",
        params,
    )
    return [
        SeriesPoint(int(row["bucket"]), row["Variant"], Rate(int(row["positives"]), int(row["n"])))
        for row in rows
    ]


def _traffic_series(store: Store, params: dict[str, Any]) -> list[TrafficPoint]:
    rows = store.query_dicts(
        "SELECT toUnixTimestamp(toStartOfInterval(Timestamp, toIntervalSecond({bucket:UInt32}))) AS bucket,"
        " count() AS requests, countIf(StatusCode = 'Error') AS errors"
        f" FROM {store.table('ragpulse_requests')} FINAL WHERE {_REQUESTS_WHERE}"
        " GROUP BY bucket ORDER BY bucket",
        params,
    )
    return [TrafficPoint(int(row["bucket"]), int(row["requests"]), int(row["errors"])) for row in rows]


def _worst_requests(store: Store, params: dict[str, Any]) -> list[WorstRequest]:
    support_list = ", ".join(f"'{metric}'" for metric in SUPPORT_METRICS)
    scored = store.query_dicts(
        "SELECT TraceId, any(Variant) AS variant,"
        f" maxIf(Value, Metric = '{HALLUCINATION}') AS hallucination,"
        f" minIf(Value, Metric IN ({support_list})) AS support,"
        " groupArray(Details) AS details"
        f" FROM {store.table('ragpulse_scores')} FINAL WHERE {_SCORES_WHERE} AND Scorer = {{scorer:String}}"
        " AND Error = '' GROUP BY TraceId"
        f" HAVING countIf(Metric = '{HALLUCINATION}') > 0"
        " ORDER BY hallucination DESC, support ASC NULLS LAST, TraceId LIMIT {limit:UInt32}",
        params,
    )
    if not scored:
        return []
    texts = {
        row["TraceId"]: row
        for row in store.query_dicts(
            f"SELECT TraceId, any(Question) AS question, any(Answer) AS answer"
            f" FROM {store.table('ragpulse_requests')} WHERE TraceId IN {{ids:Array(String)}}"
            " GROUP BY TraceId",
            {"ids": [row["TraceId"] for row in scored]},
        )
    }
    worst: list[WorstRequest] = []
    for row in scored:
        text = texts.get(row["TraceId"], {})
        unsupported = [sentence for details in row["details"] for sentence in unsupported_sentences(details)]
        support = row["support"]
        worst.append(
            WorstRequest(
                trace_id=row["TraceId"],
                variant=row["variant"],
                question=text.get("question", ""),
                answer=text.get("answer", ""),
                hallucinated=(row["hallucination"] or 0.0) >= 0.5,
                support=None if support is None or math.isnan(support) else float(support),
                unsupported=list(dict.fromkeys(unsupported))[:5],
            )
        )
    return worst


def _spend(store: Store, params: dict[str, Any]) -> list[SpendRow]:
    rows = store.query_dicts(
        "SELECT toString(toDate(ScoredAt)) AS day, Scorer, sum(CostUSD) AS cost, sum(InputTokens) AS input,"
        " sum(OutputTokens) AS output, uniqExact(TraceId) AS scored"
        f" FROM {store.table('ragpulse_scores')} FINAL WHERE {_SCORES_WHERE}"
        " GROUP BY day, Scorer ORDER BY day, Scorer",
        params,
    )
    return [
        SpendRow(
            row["day"],
            row["Scorer"],
            float(row["cost"]),
            int(row["input"]),
            int(row["output"]),
            int(row["scored"]),
        )
        for row in rows
    ]


def _injection(store: Store, params: dict[str, Any]) -> list[InjectionRow]:
    rows = store.query_dicts(
        "SELECT s.Variant AS variant, count() AS n, sum(i.injected) AS injected,"
        " countIf(s.hallucinated) AS measured,"
        " countIf(s.hallucinated AND i.injected = 1) AS caught,"
        " countIf(s.hallucinated AND i.injected = 0) AS false_alarms"
        " FROM (SELECT TraceId, any(Variant) AS Variant, max(Value) >= 0.5 AS hallucinated"
        f"       FROM {store.table('ragpulse_scores')} FINAL"
        f"       WHERE {_SCORES_WHERE} AND Scorer = {{scorer:String}}"
        f"       AND Metric = '{HALLUCINATION}' AND Error = '' AND Value IS NOT NULL GROUP BY TraceId) AS s"
        " LEFT JOIN (SELECT TraceId, toUInt8(1) AS injected"
        f"       FROM {store.table('otel_traces')} WHERE {_REQUESTS_WHERE}"
        "       AND SpanAttributes['ragpulse.kind'] = 'rag'"
        f"       AND lower(SpanAttributes['{INJECTED_ATTRIBUTE}']) IN ('true', '1')"
        "       GROUP BY TraceId) AS i ON s.TraceId = i.TraceId"
        " GROUP BY variant ORDER BY variant",
        params,
    )
    if not any(int(row["injected"]) for row in rows):
        return []
    return [
        InjectionRow(
            variant=row["variant"],
            scored=int(row["n"]),
            injected=int(row["injected"]),
            measured=Rate(int(row["measured"]), int(row["n"])),
            caught=int(row["caught"]),
            false_alarms=int(row["false_alarms"]),
        )
        for row in rows
    ]


def _scoring_health(store: Store, params: dict[str, Any], requests: int) -> ScoringHealth:
    # Lag is from the request to its first successful score; a trace with only error rows is not scored.
    lag = store.query_dicts(
        "SELECT count() AS scored, quantileExact(0.5)(lag_s) AS p50, quantileExact(0.95)(lag_s) AS p95,"
        " toString(max(last)) AS last_scored"
        " FROM (SELECT TraceId, dateDiff('millisecond', any(RequestTime), min(ScoredAt)) / 1000 AS lag_s,"
        "       max(ScoredAt) AS last"
        f"       FROM {store.table('ragpulse_scores')} FINAL WHERE {_SCORES_WHERE} AND Error = ''"
        "       GROUP BY TraceId)",
        params,
    )[0]
    judge_errors = store.query(
        f"SELECT count() FROM {store.table('ragpulse_scores')} FINAL WHERE {_SCORES_WHERE} AND Error != ''",
        params,
    )[0][0]
    outcomes = {
        f"{row['Scorer']}: {row['Outcome']}": int(row["n"])
        for row in store.query_dicts(
            "SELECT Scorer, Outcome, count() AS n"
            f" FROM {store.table('ragpulse_scoring_log')} WHERE {_SCORES_WHERE}"
            " GROUP BY Scorer, Outcome ORDER BY Scorer, Outcome",
            params,
        )
    }
    scored = int(lag["scored"])
    return ScoringHealth(
        requests=requests,
        scored=scored,
        lag_p50_s=_finite(lag["p50"]) if scored else None,
        lag_p95_s=_finite(lag["p95"]) if scored else None,
        last_scored_at=lag["last_scored"] if scored else None,
        judge_errors=int(judge_errors),
        outcomes=outcomes,
    )


def _alerts(store: Store, since: datetime, service: str | None) -> list[AlertRecord]:
    # A store migrated before the alerts table existed still gets its report, without the alerts.
    if not store.query(f"EXISTS TABLE {store.table('ragpulse_alerts')}")[0][0]:
        return []
    start = since if since.tzinfo else since.replace(tzinfo=UTC)
    return [
        alert
        for alert in load_alerts(store, include_resolved=True, limit=_ALERTS_LIMIT)
        if (service is None or alert.key.service == service)
        and (alert.state == FIRING or (alert.resolved_at is not None and alert.resolved_at >= start))
    ]


def _finite(value: Any) -> float | None:
    return None if value is None or math.isnan(float(value)) else float(value)


def parse_since(text: str, now: float | None = None) -> datetime:
    """``24h``, ``90m``, ``7d``, ``30s`` (before now) or an ISO timestamp, as an aware UTC datetime."""
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    stripped = text.strip().lower()
    if stripped[-1:] in units and stripped[:-1].replace(".", "", 1).isdigit():
        seconds = float(stripped[:-1]) * units[stripped[-1]]
        return datetime.fromtimestamp((time.time() if now is None else now) - seconds, UTC)
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"--since must look like 24h, 90m, 7d or an ISO timestamp, not {text!r}") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
