"""How a report reads the tables: one function per question, each a query or two with bound values.

Every query filters on the window start (``since_ms``) and optionally one service, and keeps each service's
rows apart, so one service's variant is never compared with another's. Scores are read from the tables the
Grafana panels read, with the same sums: ``ragpulse_score_values`` (a re-scored request's earlier rows are
taken back at write time with Sign = -1, so sums of Sign count it once, before its parts merge as after),
its hourly sums beyond ``HOURLY_SCORES_AFTER``, judgments per minute and lag buckets per hour.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from ragpulse import semconv
from ragpulse_core.store import Store
from ragpulse_scorers import refused
from ragpulse_scorers.llm.pricing import known_price
from ragpulse_scorers.metric_names import HALLUCINATION, SUPPORT_METRICS
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.settings import PriceSettings
from ragpulse_scorers.stats import WeightedCount

from ragpulse_dashboards.alerts.state import FIRING, AlertRecord, load_alerts
from ragpulse_dashboards.report.agreement import JudgeAgreement
from ragpulse_dashboards.report.details import unsupported_sentences
from ragpulse_dashboards.report.model import (
    LatencyRow,
    NotScored,
    Rate,
    RequestLine,
    RequestOutcomes,
    ScoringHealth,
    SeriesPoint,
    SpendRow,
    TemplateVersionRow,
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
# Beyond this, latency comes from hourly quantile states rather than from every step row, and score sums from
# hourly sums rather than from every score (the panels switch at the same span).
HOURLY_LATENCY_AFTER = timedelta(days=2)
HOURLY_SCORES_AFTER = timedelta(days=2)
# Values every query may bind, so a metric or attribute name never enters SQL text.
NAMES: dict[str, Any] = {
    "hallucination": HALLUCINATION,
    "support_metrics": list(SUPPORT_METRICS),
    "kind_key": semconv.KIND,
    "kind_rag": semconv.KIND_RAG,
}

_REQUESTS_WHERE = (
    "Timestamp >= fromUnixTimestamp64Milli({since_ms:Int64})"
    " AND ({service:String} = '' OR ServiceName = {service:String})"
)
_SCORES_WHERE = (
    "RequestTime >= fromUnixTimestamp64Milli({since_ms:Int64})"
    " AND ({service:String} = '' OR ServiceName = {service:String})"
)

WORST_CANDIDATES = 1000
"""How many of the worst verdict rows a worst-requests read sums: a replaced verdict and the row cancelling it
sort side by side, so the first 1,000 rows hold the worst requests unless hundreds of replaced verdicts among
them wait for their parts to merge (the request explorer's panel reads as many)."""

# A request's duplicates share its sorting key, which holds its day, the partition: FINAL need not merge
# across days, and a day stored in one part is read without merging at all. The same holds for a score's
# duplicates (the hour of its request is in its key) and a verdict's.
_FINAL_WITHIN_PARTITIONS = " SETTINGS do_not_merge_across_partitions_select_final = 1"


_HOURS_WHERE = (
    "Hour >= toStartOfHour(fromUnixTimestamp64Milli({since_ms:Int64}))"
    " AND ({service:String} = '' OR ServiceName = {service:String})"
)


# The weighted sums beside the counts (directed sampling: each judged request weighs 1 / its inclusion
# probability; all weights are 1 without it). Read back by ``weighted_count``.
WEIGHTED_COLUMNS = ("weights", "weighted_positives", "squared_weights", "squared_weighted_positives")
_HOURLY_WEIGHTED = (
    "sum(Weights) AS weights, sum(WeightedPositives) AS weighted_positives,"
    " sum(SquaredWeights) AS squared_weights, sum(SquaredWeightedPositives) AS squared_weighted_positives"
)
_ROW_WEIGHTED = (
    "sum(Sign * Weight) AS weights, sumIf(Sign * Weight, Value >= 0.5) AS weighted_positives,"
    " sum(Sign * Weight * Weight) AS squared_weights,"
    " sumIf(Sign * Weight * Weight, Value >= 0.5) AS squared_weighted_positives"
)


# Means weigh each value by its request's weight: Σw·v and Σw·v² beside Σw and Σw² (``score_aggregates``).
_HOURLY_WEIGHTED_VALUES = (
    "sum(WeightedValueSum) AS weighted_value_sum, sum(WeightedValueSquares) AS weighted_squares"
)
_ROW_WEIGHTED_VALUES = (
    "sum(Sign * Weight * assumeNotNull(Value)) AS weighted_value_sum,"
    " sum(Sign * Weight * assumeNotNull(Value) * assumeNotNull(Value)) AS weighted_squares"
)
# The weighted mean Σw·v / Σw and the values' variance at Kish's effective size n_eff = (Σw)² / Σw²:
# Σw(v − m)² / Σw · n_eff / (n_eff − 1). Unweighted (Σw² = Σw: every weight 1) they are the plain mean and
# sample variance, computed as before so every figure over unweighted scores stays what it was; to 12
# decimals, so a constant metric has variance 0, not the sums' rounding residue.
_WEIGHTED_MEAN = (
    "if(squared_weights = weights, value_sum / n, weighted_value_sum / weights) AS mean,"
    " if(squared_weights = weights, if(n > 1, round((squares - n * mean * mean) / (n - 1), 12), nan),"
    " if(weights * weights > squared_weights, greatest(0, round((weighted_squares - weights * mean * mean)"
    " * weights / (weights * weights - squared_weights), 12)), nan)) AS variance,"
    " if(squared_weights = weights, toFloat64(n), weights * weights / squared_weights) AS effective_n"
)


def weighted_count(row: dict[str, Any]) -> WeightedCount:
    """A row's weighted sums, as ``score_aggregates`` and ``_score_sums`` name them."""
    return WeightedCount(
        float(row["weights"]),
        float(row["weighted_positives"]),
        float(row["squared_weights"]),
        float(row["squared_weighted_positives"]),
    )


def _long_window(params: dict[str, Any], span: timedelta) -> bool:
    return time.time() * 1000 - int(params["since_ms"]) > span.total_seconds() * 1000


def _score_sums(store: Store, params: dict[str, Any], time_key: str | None = None) -> str:
    """Per service, scorer, metric and variant (and ``time_key`` over the request time, if given): scores,
    positives, the sum and the sum of squares of the values. From the hourly sums over a long window, from
    every value row otherwise; each counts a re-scored request once without FINAL."""
    keys = "ServiceName, Scorer, Metric, Variant"
    if _long_window(params, HOURLY_SCORES_AFTER):
        timed = f"{time_key.format(time='Hour')} AS bucket, " if time_key else ""
        return (
            f"SELECT {timed}{keys}, sum(Scores) AS n, sum(Positives) AS positives,"
            f" sum(ValueSum) AS value_sum, sum(ValueSquares) AS squares, {_HOURLY_WEIGHTED}"
            f" FROM {store.table('ragpulse_score_hours')} WHERE {_HOURS_WHERE}"
            f" GROUP BY {'bucket, ' if time_key else ''}{keys}"
        )
    timed = f"{time_key.format(time='RequestTime')} AS bucket, " if time_key else ""
    return (
        f"SELECT {timed}{keys}, sum(Sign) AS n, sumIf(Sign, Value >= 0.5) AS positives,"
        " sum(Sign * assumeNotNull(Value)) AS value_sum,"
        f" sum(Sign * assumeNotNull(Value) * assumeNotNull(Value)) AS squares, {_ROW_WEIGHTED}"
        f" FROM {store.table('ragpulse_score_values')} WHERE {_SCORES_WHERE}"
        " AND Failed = 0 AND Value IS NOT NULL"
        f" GROUP BY {'bucket, ' if time_key else ''}{keys}"
    )


def _scored_requests(store: Store, params: dict[str, Any], keys: str) -> str:
    """Requests with a value (not only an error) per ``keys``, as the "scored share" panels count them: from
    hourly uniq states over a long window, every value row otherwise (a set counts a re-score once)."""
    if _long_window(params, HOURLY_SCORES_AFTER):
        return (
            f"SELECT {keys}, uniqMerge(Requests) AS scored"
            f" FROM {store.table('ragpulse_scored_request_hours')} WHERE {_HOURS_WHERE} GROUP BY {keys}"
        )
    return (
        f"SELECT {keys}, uniq(TraceKey, SpanId, RequestTime) AS scored"
        f" FROM {store.table('ragpulse_score_values')} WHERE {_SCORES_WHERE} AND Failed = 0 GROUP BY {keys}"
    )


def variant_traffic(store: Store, params: dict[str, Any]) -> list[VariantTraffic]:
    scored = {
        (row["ServiceName"], row["Variant"]): int(row["scored"])
        for row in store.query_dicts(_scored_requests(store, params, "ServiceName, Variant"), params)
    }
    rows = store.query_dicts(
        f"SELECT ServiceName, Variant, count() AS requests, countIf(StatusCode = 'Error') AS errors"
        f" FROM {store.table('ragpulse_requests')} FINAL WHERE {_REQUESTS_WHERE}"
        f" GROUP BY ServiceName, Variant ORDER BY ServiceName, Variant{_FINAL_WITHIN_PARTITIONS}",
        params,
    )
    return [
        VariantTraffic(
            row["Variant"],
            int(row["requests"]),
            int(row["errors"]),
            scored.get((row["ServiceName"], row["Variant"]), 0),
            row["ServiceName"],
        )
        for row in rows
    ]


def template_versions(store: Store, params: dict[str, Any]) -> list[TemplateVersionRow]:
    """Per service and learnt prompt template version (requests no learnt template read left out): the
    requests, those that cannot be scored, and the hallucination verdicts of the rest. Each counted
    verdict carries its request's version (0132): the two are summed side by side, not joined by request."""
    rows = store.query_dicts(
        f"""
        SELECT ServiceName, TemplateVersion, sum(request_rows) AS requests,
               sum(unscorable_rows) AS not_scored, sum(counted) AS judged,
               sum(counted_hallucinated) AS hallucinated
        FROM (
            SELECT ServiceName, TemplateVersion, count() AS request_rows,
                   countIf(Unscorable != '') AS unscorable_rows, toInt64(0) AS counted,
                   toInt64(0) AS counted_hallucinated
            FROM {store.table('ragpulse_requests')} FINAL
            WHERE {_REQUESTS_WHERE} AND TemplateVersion != ''
            GROUP BY ServiceName, TemplateVersion
            UNION ALL
            SELECT ServiceName, TemplateVersion, toUInt64(0), toUInt64(0), sum(Sign), sum(Sign * Hallucinated)
            FROM {store.table('ragpulse_request_verdicts')}
            WHERE {_SCORES_WHERE} AND TemplateVersion != ''
            GROUP BY ServiceName, TemplateVersion
        )
        GROUP BY ServiceName, TemplateVersion
        HAVING requests > 0
        ORDER BY ServiceName, TemplateVersion{_FINAL_WITHIN_PARTITIONS}
        """,
        params,
    )
    return [
        TemplateVersionRow(
            row["ServiceName"],
            row["TemplateVersion"],
            int(row["requests"]),
            int(row["not_scored"]),
            Rate(int(row["hallucinated"]), int(row["judged"])),
        )
        for row in rows
    ]


def not_scored(store: Store, params: dict[str, Any]) -> list[NotScored]:
    """Requests per service that cannot be judged, by reason (content capture off, no context, ...)."""
    rows = store.query_dicts(
        "SELECT ServiceName, Unscorable AS reason, count() AS requests"
        f" FROM {store.table('ragpulse_unscored_requests')} FINAL WHERE {_REQUESTS_WHERE}"
        f" GROUP BY ServiceName, reason ORDER BY ServiceName, reason{_FINAL_WITHIN_PARTITIONS}",
        params,
    )
    return [NotScored(row["ServiceName"], row["reason"], int(row["requests"])) for row in rows]


def request_outcomes(store: Store, params: dict[str, Any]) -> list[RequestOutcomes]:
    """Per service and scorer that has logged any of its requests: every request of the window as scored, not
    scored (by outcome) or pending (no log row yet).

    A request is (trace, span, start to the microsecond). Its state is the most final outcome logged for it:
    scored, else skipped, else failed, else its latest deferral. A log row from before requests had a SpanId
    (empty) stands for the requests of its trace that had started when it was logged.
    """
    log = store.table("ragpulse_scoring_log")
    window = (
        "RequestTime >= fromUnixTimestamp64Milli({since_ms:Int64})"
        " AND ({service:String} = '' OR ServiceName = {service:String})"
    )
    state = (
        "multiIf(has(groupUniqArray(Outcome), {scored:String}), {scored:String},"
        " has(groupUniqArray(Outcome), {skipped:String}), {skipped:String},"
        " has(groupUniqArray(Outcome), {failed:String}), {failed:String},"
        " argMax(Outcome, LoggedAt)) AS state, max(LoggedAt) AS last_logged"
    )
    rows = store.query(
        f"""
        SELECT r.ServiceName, s.Scorer,
               if(l.state != '', l.state, if(r.started <= t.last_logged, t.state, '')) AS outcome, count()
        FROM (
            SELECT TraceId, SpanId, toUnixTimestamp64Micro(Timestamp) AS at, ServiceName,
                   min(Timestamp) AS started
            FROM {store.table("ragpulse_requests")} WHERE {_REQUESTS_WHERE}
            GROUP BY TraceId, SpanId, at, ServiceName
        ) AS r
        INNER JOIN (SELECT DISTINCT ServiceName, Scorer FROM {log} WHERE {window}) AS s
            ON r.ServiceName = s.ServiceName
        LEFT JOIN (
            SELECT TraceId, SpanId, toUnixTimestamp64Micro(RequestTime) AS at, Scorer, {state}
            FROM {log} WHERE {window} AND SpanId != '' GROUP BY TraceId, SpanId, at, Scorer
        ) AS l ON r.TraceId = l.TraceId AND r.SpanId = l.SpanId AND r.at = l.at AND s.Scorer = l.Scorer
        LEFT JOIN (
            SELECT TraceId, Scorer, {state} FROM {log} WHERE {window} AND SpanId = '' GROUP BY TraceId, Scorer
        ) AS t ON r.TraceId = t.TraceId AND s.Scorer = t.Scorer
        GROUP BY r.ServiceName, s.Scorer, outcome
        ORDER BY r.ServiceName, s.Scorer, outcome
        """,
        {**params, "scored": Outcome.SCORED, "skipped": Outcome.SKIPPED, "failed": Outcome.FAILED},
    )
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for service, scorer, outcome, requests in rows:
        counts.setdefault((str(service), str(scorer)), {})[str(outcome)] = int(requests)
    return [
        RequestOutcomes(
            service=service,
            scorer=scorer,
            requests=sum(states.values()),
            scored=states.get(Outcome.SCORED, 0),
            not_scored={state: n for state, n in states.items() if state not in ("", Outcome.SCORED)},
            pending=states.get("", 0),
        )
        for (service, scorer), states in counts.items()
    ]


# The agreement table's cells, in JudgeAgreement's order: both hallucinated, only the free judge, only the
# LLM judge, neither.
_AGREEMENT_CELLS = (
    "free.hallucinated AND llm.hallucinated",
    "free.hallucinated AND NOT llm.hallucinated",
    "NOT free.hallucinated AND llm.hallucinated",
    "NOT free.hallucinated AND NOT llm.hallucinated",
)


def judge_agreement(store: Store, params: dict[str, Any], free_judge: str) -> list[JudgeAgreement]:
    """Per service, variant and LLM judge: how the free judge's hallucination verdicts and that judge's
    compare on the requests both scored (the newest verdict of each), with each cell's Σw and Σw² for w = 1 /
    the chance the LLM judge had of judging the request."""
    verdicts = store.table("ragpulse_trace_verdicts")
    cells = ", ".join(
        f"countIf({cell}), sumIf(llm.w, {cell}), sumIf(llm.w * llm.w, {cell})" for cell in _AGREEMENT_CELLS
    )
    rows = store.query(
        f"SELECT free.ServiceName, free.Variant, llm.Scorer, {cells}"
        " FROM (SELECT TraceKey, SpanId, RequestTime, ServiceName, Variant,"
        "       Hallucination >= 0.5 AS hallucinated"
        f"       FROM {verdicts} FINAL WHERE {_SCORES_WHERE} AND HasHallucination = 1"
        "        AND Scorer = {free:String}) AS free"
        " INNER JOIN (SELECT TraceKey, SpanId, RequestTime, Scorer, Hallucination >= 0.5 AS hallucinated,"
        "       1 / InclusionProbability AS w"
        f"       FROM {verdicts} FINAL WHERE {_SCORES_WHERE} AND HasHallucination = 1"
        "        AND Scorer != {free:String}) AS llm"
        " ON free.TraceKey = llm.TraceKey AND free.SpanId = llm.SpanId AND free.RequestTime = llm.RequestTime"
        " GROUP BY free.ServiceName, free.Variant, llm.Scorer"
        f" ORDER BY free.ServiceName, free.Variant, llm.Scorer{_FINAL_WITHIN_PARTITIONS}",
        {**params, "free": free_judge},
    )
    return [_agreement(free_judge, row) for row in rows]


def _agreement(free_judge: str, row: tuple[Any, ...]) -> JudgeAgreement:
    service, variant, judge, *sums = row
    a, b, c, d = (int(n) for n in sums[0::3])
    weights = (float(sums[1]), float(sums[4]), float(sums[7]), float(sums[10]))
    squared = (float(sums[2]), float(sums[5]), float(sums[8]), float(sums[11]))
    # Weights are at least 1, so Σw² = Σw only when every weight is 1: the plain counts, as before.
    if sum(squared) == sum(weights):
        return JudgeAgreement(str(service), str(variant), free_judge, str(judge), a, b, c, d)
    return JudgeAgreement(str(service), str(variant), free_judge, str(judge), a, b, c, d, weights, squared)


def traffic_span(store: Store, params: dict[str, Any]) -> list[dict[str, Any]]:
    """The window's first and last request (no row when it has none)."""
    return store.query_dicts(
        f"SELECT min(Timestamp) AS first, max(Timestamp) AS last FROM {store.table('ragpulse_requests')}"
        f" WHERE {_REQUESTS_WHERE} HAVING count() > 0",
        params,
    )


def score_aggregates(store: Store, params: dict[str, Any]) -> list[dict[str, Any]]:
    """Per service, scorer, metric and variant: n, positives (values ≥ 0.5), the weighted sums, and the
    weighted mean, variance and effective sample size (``_WEIGHTED_MEAN``; with every weight 1 the plain mean,
    sample variance and n). Whole hours come from the hourly sums, the window's first, partial hour from
    every value row."""
    keys = "ServiceName, Scorer, Metric, Variant"
    first_hour_end = "toStartOfHour(fromUnixTimestamp64Milli({since_ms:Int64})) + INTERVAL 1 HOUR"
    sums = (
        f"SELECT {keys}, sum(Scores) AS n, sum(Positives) AS positives, sum(ValueSum) AS value_sum,"
        f" sum(ValueSquares) AS squares, {_HOURLY_WEIGHTED}, {_HOURLY_WEIGHTED_VALUES}"
        f" FROM {store.table('ragpulse_score_hours')}"
        f" WHERE Hour >= {first_hour_end} AND ({{service:String}} = '' OR ServiceName = {{service:String}})"
        f" GROUP BY {keys}"
        f" UNION ALL SELECT {keys}, sum(Sign) AS n, sumIf(Sign, Value >= 0.5) AS positives,"
        " sum(Sign * assumeNotNull(Value)) AS value_sum,"
        f" sum(Sign * assumeNotNull(Value) * assumeNotNull(Value)) AS squares, {_ROW_WEIGHTED},"
        f" {_ROW_WEIGHTED_VALUES} FROM {store.table('ragpulse_score_values')} WHERE {_SCORES_WHERE}"
        f" AND RequestTime < {first_hour_end} AND Failed = 0 AND Value IS NOT NULL GROUP BY {keys}"
    )
    summed = (*WEIGHTED_COLUMNS, "weighted_value_sum", "weighted_squares")
    weighted = ", ".join(f"sum({column}) AS {column}" for column in summed)
    return store.query_dicts(
        f"SELECT {keys}, n, positives, {_WEIGHTED_MEAN}, {', '.join(WEIGHTED_COLUMNS)}"
        f" FROM (SELECT {keys}, sum(n) AS n, sum(positives) AS positives, sum(value_sum) AS value_sum,"
        f" sum(squares) AS squares, {weighted} FROM ({sums}) GROUP BY {keys}) WHERE n > 0"
        f" ORDER BY {keys}",
        params,
    )


def latency(store: Store, params: dict[str, Any]) -> list[LatencyRow]:
    # The step table names the request's own span 'total'; the report calls it by its kind. Windows longer
    # than HOURLY_LATENCY_AFTER read the hourly quantile states (from the hour the window starts in).
    long_window = _long_window(params, HOURLY_LATENCY_AFTER)
    sql = (
        "SELECT if(Step = 'total', {kind_rag:String}, Step) AS step, sum(Calls) AS n,"
        " quantilesTDigestMerge(0.5, 0.95, 0.99)(Latency) AS q, q[1] AS p50, q[2] AS p95"
        f" FROM {store.table('ragpulse_step_latency_digests')}"
        " WHERE Hour >= toStartOfHour(fromUnixTimestamp64Milli({since_ms:Int64}))"
        " AND ({service:String} = '' OR ServiceName = {service:String})"
        if long_window
        else "SELECT if(Step = 'total', {kind_rag:String}, Step) AS step, count() AS n,"
        " quantileExact(0.5)(DurationMs) AS p50, quantileExact(0.95)(DurationMs) AS p95"
        f" FROM {store.table('ragpulse_step_latency')} WHERE {_REQUESTS_WHERE}"
    )
    rows = store.query_dicts(f"{sql} GROUP BY step", {**params, **NAMES})
    by_step = {row["step"]: row for row in rows}
    return [
        LatencyRow(step, int(by_step[step]["n"]), float(by_step[step]["p50"]), float(by_step[step]["p95"]))
        for step in STEPS
        if step in by_step
    ]


def hallucination_series(store: Store, params: dict[str, Any]) -> list[SeriesPoint]:
    bucket = "toUnixTimestamp(toStartOfInterval({time}, toIntervalSecond({{bucket:UInt32}})))"
    rows = store.query_dicts(
        f"SELECT bucket, ServiceName, Variant, n, positives, {', '.join(WEIGHTED_COLUMNS)}"
        f" FROM ({_score_sums(store, params, bucket)})"
        " WHERE Scorer = {scorer:String} AND Metric = {hallucination:String} AND n > 0"
        " ORDER BY bucket, ServiceName, Variant",
        {**params, **NAMES},
    )
    return [
        SeriesPoint(
            int(row["bucket"]),
            row["Variant"],
            Rate(int(row["positives"]), int(row["n"]), weighted_count(row)),
            row["ServiceName"],
        )
        for row in rows
    ]


def traffic_series(store: Store, params: dict[str, Any]) -> list[TrafficPoint]:
    rows = store.query_dicts(
        "SELECT toUnixTimestamp(toStartOfInterval(Timestamp, toIntervalSecond({bucket:UInt32}))) AS bucket,"
        " count() AS requests, countIf(StatusCode = 'Error') AS errors"
        f" FROM {store.table('ragpulse_requests')} FINAL WHERE {_REQUESTS_WHERE}"
        f" GROUP BY bucket ORDER BY bucket{_FINAL_WITHIN_PARTITIONS}",
        params,
    )
    return [TrafficPoint(int(row["bucket"]), int(row["requests"]), int(row["errors"])) for row in rows]


def worst_requests(store: Store, params: dict[str, Any]) -> list[WorstRequest]:
    # The worst are the first rows of ragpulse_worst_verdicts, which holds each request's counted verdict
    # sorted worst first (a replaced one cancelled by a row of Sign -1 beside it), as the request explorer's
    # panel reads them; only their sentence details and texts are read from the wide tables.
    scored = store.query_dicts(
        "SELECT TraceId, SpanId, toUnixTimestamp64Micro(RequestTime) AS at, any(ServiceName) AS ServiceName,"
        " any(Variant) AS variant, any(Hallucination) AS hallucination, any(Support) AS support FROM ("
        f"  SELECT * FROM {store.table('ragpulse_worst_verdicts')}"
        f"  WHERE {_SCORES_WHERE} AND Scorer = {{scorer:String}} AND HasHallucination = 1"
        "  ORDER BY Scorer, HallucinationOrder, SupportOrder, RecencyOrder, TraceKey, SpanId, ScoredAt"
        f"  LIMIT {WORST_CANDIDATES})"
        " GROUP BY TraceKey, TraceId, SpanId, RequestTime, ScoredAt HAVING sum(Sign) > 0"
        " ORDER BY any(HallucinationOrder), any(SupportOrder), any(RecencyOrder), TraceKey, SpanId"
        " LIMIT {limit:UInt32}",
        params,
    )
    if not scored:
        return []
    ids = {"ids": [row["TraceId"] for row in scored]}
    # The newest scoring's details of each metric, so a request scored twice lists its sentences once.
    details = {
        (row["TraceId"], row["SpanId"], row["at"]): row["details"]
        for row in store.query_dicts(
            "SELECT TraceId, SpanId, at, groupArray(latest) AS details FROM ("
            "  SELECT TraceId, SpanId, toUnixTimestamp64Micro(RequestTime) AS at, Metric,"
            "  argMax(Details, ScoredAt) AS latest"
            f"  FROM {store.table('ragpulse_scores')} WHERE {_SCORES_WHERE} AND Scorer = {{scorer:String}}"
            "  AND Error = '' AND TraceId IN {ids:Array(String)} GROUP BY TraceId, SpanId, at, Metric"
            ") GROUP BY TraceId, SpanId, at",
            {**params, **ids},
        )
    }
    # A request is (trace, span, start); scores from before requests had a SpanId (empty) were their
    # trace's one request: its first.
    texts: dict[tuple[str, str, int], dict[str, Any]] = {}
    legacy: dict[str, dict[str, Any]] = {}
    for row in store.query_dicts(
        "SELECT TraceId, SpanId, toUnixTimestamp64Micro(Timestamp) AS at, any(Question) AS question,"
        f" any(Answer) AS answer FROM {store.table('ragpulse_requests')}"
        " WHERE TraceId IN {ids:Array(String)}"
        " GROUP BY TraceId, SpanId, at ORDER BY at DESC",
        ids,
    ):
        texts[(row["TraceId"], row["SpanId"], row["at"])] = legacy[row["TraceId"]] = row
    worst: list[WorstRequest] = []
    for row in scored:
        request = (row["TraceId"], row["SpanId"], row["at"])
        text = texts.get(request, {}) if row["SpanId"] else legacy.get(row["TraceId"], {})
        unsupported = [
            sentence for raw in details.get(request, []) for sentence in unsupported_sentences(raw)
        ]
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
                service=row["ServiceName"],
                span_id=row["SpanId"],
                at_us=int(row["at"]),
            )
        )
    return worst


def spend(store: Store, params: dict[str, Any], prices: Mapping[str, PriceSettings]) -> list[SpendRow]:
    """Judge spend per day and scorer, naming the judge models whose price is not known (their calls count
    $0 in the sums, which is not what they cost)."""
    models: dict[tuple[str, str], list[str]] = {}
    for day, scorer, used in store.query(
        "SELECT toString(toDate(ScoredAt, 'UTC')) AS day, Scorer, groupUniqArray(JudgeModel)"
        f" FROM {store.table('ragpulse_scores')} WHERE {_SCORES_WHERE}"
        " AND JudgeModel != '' AND InputTokens + OutputTokens > 0 GROUP BY day, Scorer",
        params,
    ):
        models[(str(day), str(scorer))] = sorted(str(model) for model in used)
    # Judgments per minute they were made (a request judged by one scorer in one write is one judgment).
    rows = store.query_dicts(
        "SELECT toString(toDate(Minute, 'UTC')) AS day, Scorer, sum(CostUSD) AS cost,"
        " sum(InputTokens) AS input, sum(OutputTokens) AS output, sum(Judgments) AS scored"
        f" FROM {store.table('ragpulse_judgment_minutes')}"
        " WHERE Minute >= toStartOfMinute(fromUnixTimestamp64Milli({since_ms:Int64}))"
        " AND ({service:String} = '' OR ServiceName = {service:String})"
        " GROUP BY day, Scorer HAVING scored != 0 OR cost != 0 ORDER BY day, Scorer",
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
            tuple(
                model
                for model in models.get((row["day"], row["Scorer"]), [])
                if known_price(model, prices) is None
            ),
        )
        for row in rows
    ]


def request_lines(store: Store, params: dict[str, Any], unscored_only: bool, limit: int) -> list[RequestLine]:
    """The window's newest requests (only those no judge may score, with ``unscored_only``), each with the
    verdict of the best judge that scored it."""
    only = " AND Unscorable != ''" if unscored_only else ""
    rows = store.query(
        "SELECT TraceId, SpanId, Timestamp, ServiceName, Source, ContextSource, Unscorable,"
        " substringUTF8(Question, 1, 300), substringUTF8(Answer, 1, 300)"
        f" FROM {store.table('ragpulse_requests')} FINAL WHERE {_REQUESTS_WHERE}{only}"
        f" ORDER BY Timestamp DESC, TraceId LIMIT {{limit:UInt32}}{_FINAL_WITHIN_PARTITIONS}",
        {**params, "limit": limit},
    )
    verdicts = _verdicts(store, sorted({str(row[0]) for row in rows})) if rows else {}
    lines = []
    for trace, span, timestamp, service, source, context, code, question, answer in rows:
        judge, hallucinated = verdicts.get((trace, span), verdicts.get((trace, ""), ("", None)))
        verdict = "" if hallucinated is None else "hallucinated" if hallucinated else "supported"
        texts = (str(service), str(source), str(context), str(code), str(question), str(answer))
        lines.append(RequestLine(str(trace), timestamp, *texts, verdict, judge))
    return lines


_JUDGE_RANK = {"support": 0, "lexical": 2}


def _verdicts(store: Store, trace_ids: list[str]) -> dict[tuple[str, str], tuple[str, bool]]:
    """Per request, the newest verdict of its best judge (support, then another LLM judge, then lexical)."""
    best: dict[tuple[str, str], tuple[int, str, bool]] = {}
    for trace, span, scorer, value in store.query(
        "SELECT TraceId, SpanId, Scorer, Hallucination"
        f" FROM {store.table('ragpulse_trace_verdicts')} FINAL"
        " WHERE TraceId IN {ids:Array(String)} AND HasHallucination = 1 AND Hallucination IS NOT NULL",
        {"ids": trace_ids},
    ):
        rank = _JUDGE_RANK.get(str(scorer), 1)
        key = (str(trace), str(span))
        if key not in best or rank < best[key][0]:
            best[key] = (rank, str(scorer), float(value) >= 0.5)
    return {key: (scorer, bad) for key, (_, scorer, bad) in best.items()}


def scoring_health(store: Store, params: dict[str, Any], requests: int) -> ScoringHealth:
    # Lag is from the request to each judgment, per hour judged, in buckets of two significant digits (the
    # panels' table); scored requests are those with a value, not only an error, counted as the panels count.
    lag = store.query_dicts(
        "SELECT quantilesExactWeighted(0.5, 0.95)(seconds, toUInt64(greatest(judgments, 0))) AS q,"
        " q[1] AS p50, q[2] AS p95"
        " FROM (SELECT sumMap(LagMap.Seconds, LagMap.Judgments) AS lags"
        f"       FROM {store.table('ragpulse_scoring_lag_hours')} WHERE {_HOURS_WHERE})"
        " ARRAY JOIN lags.1 AS seconds, lags.2 AS judgments",
        params,
    )[0]
    scored = sum(
        int(row["scored"])
        for row in store.query_dicts(
            f"SELECT scored FROM ({_scored_requests(store, params, 'ServiceName')})", params
        )
    )
    scored_rows = store.query_dicts(
        "SELECT sumIf(Sign, Failed = 1) AS judge_errors,"
        " toString(maxIf(ScoredAt, Failed = 0), 'UTC') AS last_scored"
        f" FROM {store.table('ragpulse_score_values')} WHERE {_SCORES_WHERE}",
        params,
    )[0]
    # Log rows per outcome: whole hours from the hourly counts, the window's first, partial hour from the log.
    first_hour_end = "toStartOfHour(fromUnixTimestamp64Milli({since_ms:Int64})) + INTERVAL 1 HOUR"
    service = "({service:String} = '' OR ServiceName = {service:String})"
    outcomes = {
        f"{row['Scorer']}: {row['Outcome']}": int(row["n"])
        for row in store.query_dicts(
            "SELECT Scorer, Outcome, sum(rows) AS n FROM ("
            f" SELECT Scorer, Outcome, sum(Rows) AS rows FROM {store.table('ragpulse_scoring_outcome_hours')}"
            f" WHERE Hour >= {first_hour_end} AND {service} GROUP BY Scorer, Outcome"
            " UNION ALL SELECT Scorer, Outcome, toInt64(count()) AS rows"
            f" FROM {store.table('ragpulse_scoring_log')}"
            f" WHERE {_SCORES_WHERE} AND RequestTime < {first_hour_end} GROUP BY Scorer, Outcome"
            ") GROUP BY Scorer, Outcome HAVING n != 0 ORDER BY Scorer, Outcome",
            params,
        )
    }
    return ScoringHealth(
        requests=requests,
        scored=scored,
        lag_p50_s=_finite(lag["p50"]) if scored else None,
        lag_p95_s=_finite(lag["p95"]) if scored else None,
        last_scored_at=scored_rows["last_scored"] if scored else None,
        judge_errors=int(scored_rows["judge_errors"]),
        outcomes=outcomes,
        refused=refused.counts(
            store, datetime.fromtimestamp(params["since_ms"] / 1000, UTC), params.get("service") or None
        ),
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
