"""How a report reads the tables: one function per question, each a query or two with bound values.

Every query filters on the window start (``since_ms``) and optionally one service.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

from ragpulse import semconv
from ragpulse_core.store import Store

from ragpulse_scorers.alerts.state import FIRING, AlertRecord, load_alerts
from ragpulse_scorers.metric_names import HALLUCINATION, SUPPORT_METRICS
from ragpulse_scorers.report.details import unsupported_sentences
from ragpulse_scorers.report.model import (
    LatencyRow,
    Rate,
    ScoringHealth,
    SeriesPoint,
    SpendRow,
    TrafficPoint,
    VariantTraffic,
    WorstRequest,
)

# Steps in the order a request runs them; the root span's name carries the pipeline, so it is found by kind.
STEPS = (
    semconv.KIND_RAG,
    semconv.SPAN_VARIATIONS,
    semconv.SPAN_RETRIEVE,
    semconv.SPAN_FUSE,
    semconv.SPAN_GENERATE,
)
# Episodes read per report: firing ones come first, so only old resolved ones fall beyond it.
ALERTS_LIMIT = 500
# Values every query may bind, so a metric or attribute name never enters SQL text.
NAMES: dict[str, Any] = {
    "hallucination": HALLUCINATION,
    "support_metrics": list(SUPPORT_METRICS),
    "kind_key": semconv.KIND,
    "kind_rag": semconv.KIND_RAG,
    "steps": list(STEPS[1:]),
}

_REQUESTS_WHERE = (
    "Timestamp >= fromUnixTimestamp64Milli({since_ms:Int64})"
    " AND ({service:String} = '' OR ServiceName = {service:String})"
)
_SCORES_WHERE = (
    "RequestTime >= fromUnixTimestamp64Milli({since_ms:Int64})"
    " AND ({service:String} = '' OR ServiceName = {service:String})"
)


def variant_traffic(store: Store, params: dict[str, Any]) -> list[VariantTraffic]:
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


def first_request(store: Store, params: dict[str, Any]) -> list[dict[str, Any]]:
    return store.query_dicts(
        f"SELECT min(Timestamp) AS first FROM {store.table('ragpulse_requests')}"
        f" WHERE {_REQUESTS_WHERE} HAVING count() > 0",
        params,
    )


def score_aggregates(store: Store, params: dict[str, Any]) -> list[dict[str, Any]]:
    return store.query_dicts(
        "SELECT Scorer, Metric, Variant, count() AS n, countIf(Value >= 0.5) AS positives,"
        " avg(Value) AS mean"
        f" FROM {store.table('ragpulse_scores')} FINAL"
        f" WHERE {_SCORES_WHERE} AND Error = '' AND Value IS NOT NULL"
        " GROUP BY Scorer, Metric, Variant ORDER BY Scorer, Metric, Variant",
        params,
    )


def score_spread(store: Store, params: dict[str, Any]) -> dict[tuple[str, str, str], float]:
    """Sample variance of each (scorer, metric, variant)'s values, for Welch's interval on their means."""
    rows = store.query_dicts(
        "SELECT Scorer, Metric, Variant, varSamp(Value) AS variance"
        f" FROM {store.table('ragpulse_scores')} FINAL"
        f" WHERE {_SCORES_WHERE} AND Error = '' AND Value IS NOT NULL AND Metric != {{hallucination:String}}"
        " GROUP BY Scorer, Metric, Variant",
        {**params, **NAMES},
    )
    return {(row["Scorer"], row["Metric"], row["Variant"]): float(row["variance"]) for row in rows}


def latency(store: Store, params: dict[str, Any]) -> list[LatencyRow]:
    rows = store.query_dicts(
        "SELECT if(SpanAttributes[{kind_key:String}] = {kind_rag:String}, {kind_rag:String}, SpanName)"
        " AS step, count() AS n,"
        " quantileExact(0.5)(Duration) / 1e6 AS p50, quantileExact(0.95)(Duration) / 1e6 AS p95"
        f" FROM {store.table('otel_traces')} WHERE {_REQUESTS_WHERE}"
        " AND (SpanAttributes[{kind_key:String}] = {kind_rag:String} OR has({steps:Array(String)}, SpanName))"
        " GROUP BY step",
        {**params, **NAMES},
    )
    by_step = {row["step"]: row for row in rows}
    return [
        LatencyRow(step, int(by_step[step]["n"]), float(by_step[step]["p50"]), float(by_step[step]["p95"]))
        for step in STEPS
        if step in by_step
    ]


def hallucination_series(store: Store, params: dict[str, Any]) -> list[SeriesPoint]:
    rows = store.query_dicts(
        "SELECT toUnixTimestamp(toStartOfInterval(RequestTime, toIntervalSecond({bucket:UInt32}))) AS bucket,"
        " Variant, count() AS n, countIf(Value >= 0.5) AS positives"
        f" FROM {store.table('ragpulse_scores')} FINAL WHERE {_SCORES_WHERE} AND Scorer = {{scorer:String}}"
        " AND Metric = {hallucination:String} AND Error = '' AND Value IS NOT NULL"
        " GROUP BY bucket, Variant ORDER BY bucket, Variant",
        {**params, **NAMES},
    )
    return [
        SeriesPoint(int(row["bucket"]), row["Variant"], Rate(int(row["positives"]), int(row["n"])))
        for row in rows
    ]


def traffic_series(store: Store, params: dict[str, Any]) -> list[TrafficPoint]:
    rows = store.query_dicts(
        "SELECT toUnixTimestamp(toStartOfInterval(Timestamp, toIntervalSecond({bucket:UInt32}))) AS bucket,"
        " count() AS requests, countIf(StatusCode = 'Error') AS errors"
        f" FROM {store.table('ragpulse_requests')} FINAL WHERE {_REQUESTS_WHERE}"
        " GROUP BY bucket ORDER BY bucket",
        params,
    )
    return [TrafficPoint(int(row["bucket"]), int(row["requests"]), int(row["errors"])) for row in rows]


def worst_requests(store: Store, params: dict[str, Any]) -> list[WorstRequest]:
    scored = store.query_dicts(
        "SELECT TraceId, any(Variant) AS variant,"
        " maxIf(Value, Metric = {hallucination:String}) AS hallucination,"
        " minIf(Value, has({support_metrics:Array(String)}, Metric)) AS support,"
        " groupArray(Details) AS details"
        f" FROM {store.table('ragpulse_scores')} FINAL WHERE {_SCORES_WHERE} AND Scorer = {{scorer:String}}"
        " AND Error = '' GROUP BY TraceId"
        " HAVING countIf(Metric = {hallucination:String}) > 0"
        " ORDER BY hallucination DESC, support ASC NULLS LAST, TraceId LIMIT {limit:UInt32}",
        {**params, **NAMES},
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


def spend(store: Store, params: dict[str, Any]) -> list[SpendRow]:
    rows = store.query_dicts(
        "SELECT toString(toDate(ScoredAt, 'UTC')) AS day, Scorer, sum(CostUSD) AS cost,"
        " sum(InputTokens) AS input, sum(OutputTokens) AS output, uniqExact(TraceId) AS scored"
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


def scoring_health(store: Store, params: dict[str, Any], requests: int) -> ScoringHealth:
    # Lag is from the request to its first successful score; a trace with only error rows is not scored.
    lag = store.query_dicts(
        "SELECT count() AS scored, quantileExact(0.5)(lag_s) AS p50, quantileExact(0.95)(lag_s) AS p95,"
        " toString(max(last), 'UTC') AS last_scored"
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


def alerts(store: Store, since: datetime, service: str | None) -> list[AlertRecord]:
    # A store migrated before the alerts table existed still gets its report, without the alerts.
    if not store.query(f"EXISTS TABLE {store.table('ragpulse_alerts')}")[0][0]:
        return []
    start = since if since.tzinfo else since.replace(tzinfo=UTC)
    return [
        alert
        for alert in load_alerts(store, include_resolved=True, limit=ALERTS_LIMIT)
        if (service is None or alert.key.service == service)
        and (alert.state == FIRING or (alert.resolved_at is not None and alert.resolved_at >= start))
    ]


def _finite(value: Any) -> float | None:
    return None if value is None or math.isnan(float(value)) else float(value)
