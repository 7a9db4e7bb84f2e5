"""What the example service did on purpose, read from its ``ragpulse.example.*`` labels, against the judge.

The labels sit on each request's root span in ``otel_traces``; attribute names and every value are bound as
query parameters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ragpulse import semconv
from ragpulse_core.store import Store
from ragpulse_dashboards.report.model import Rate
from ragpulse_example.labels import DEGRADED_RETRIEVAL_ATTRIBUTE, PLANTED_ATTRIBUTE
from ragpulse_scorers.metric_names import HALLUCINATION

# One row per labelled request: whether it was planted, whether its retrieval was degraded.
_LABELS = """
SELECT TraceId,
       max(lower(SpanAttributes[{planted_key:String}]) IN ('true', '1')) AS planted,
       max(lower(SpanAttributes[{degraded_key:String}]) IN ('true', '1')) AS degraded
FROM {traces}
WHERE SpanAttributes[{kind_key:String}] = {kind_rag:String} AND {where}
GROUP BY TraceId
"""

_MEASURED_VS_TRUTH = """
SELECT s.Variant AS variant, count() AS scored,
       countIf(t.planted) AS planted, countIf(t.degraded) AS degraded,
       countIf(s.hallucinated) AS measured,
       countIf(s.hallucinated AND (t.planted OR t.degraded)) AS caught,
       countIf(t.planted OR t.degraded) AS caused,
       countIf(s.hallucinated AND NOT (t.planted OR t.degraded)) AS false_alarms
FROM (
    SELECT TraceId, any(Variant) AS Variant, max(Value) >= 0.5 AS hallucinated
    FROM {scores} FINAL
    WHERE RequestTime >= fromUnixTimestamp64Milli({since_ms:Int64}) AND ServiceName = {service:String}
      AND Scorer = {scorer:String} AND Metric = {metric:String} AND Error = '' AND Value IS NOT NULL
    GROUP BY TraceId
) AS s
LEFT JOIN ({labels}) AS t ON s.TraceId = t.TraceId
GROUP BY variant
ORDER BY variant
"""


@dataclass(frozen=True)
class TruthRow:
    """One variant's scored requests: what the service caused, what the judge measured, how they agree."""

    variant: str
    scored: int
    planted: int
    degraded: int
    caused: int
    """Planted or degraded: requests whose answer the service made unsupported on purpose."""
    measured: Rate
    caught: int
    false_alarms: int


@dataclass(frozen=True)
class RequestLabels:
    planted: bool
    degraded_retrieval: bool


def _label_params() -> dict[str, Any]:
    return {
        "planted_key": PLANTED_ATTRIBUTE,
        "degraded_key": DEGRADED_RETRIEVAL_ATTRIBUTE,
        "kind_key": semconv.KIND,
        "kind_rag": semconv.KIND_RAG,
    }


def _labels_sql(store: Store, where: str) -> str:
    # Only table names and fixed SQL fragments are formatted in; every value is bound server-side.
    return _LABELS.replace("{traces}", store.table("otel_traces")).replace("{where}", where)


def measured_vs_truth(store: Store, since: datetime, service: str, scorer: str) -> list[TruthRow]:
    """Per variant, the requests ``scorer`` judged since ``since``: labelled causes against verdicts."""
    labels = _labels_sql(
        store,
        "Timestamp >= fromUnixTimestamp64Milli({since_ms:Int64}) AND ServiceName = {service:String}",
    )
    sql = _MEASURED_VS_TRUTH.replace("{scores}", store.table("ragpulse_scores")).replace("{labels}", labels)
    params = {
        **_label_params(),
        "since_ms": int(since.timestamp() * 1000),
        "service": service,
        "scorer": scorer,
        "metric": HALLUCINATION,
    }
    return [
        TruthRow(
            variant=row["variant"],
            scored=int(row["scored"]),
            planted=int(row["planted"]),
            degraded=int(row["degraded"]),
            caused=int(row["caused"]),
            measured=Rate(int(row["measured"]), int(row["scored"])),
            caught=int(row["caught"]),
            false_alarms=int(row["false_alarms"]),
        )
        for row in store.query_dicts(sql, params)
    ]


def labels_of(store: Store, trace_ids: Sequence[str]) -> dict[str, RequestLabels]:
    """The labels of the given requests; a request the service did nothing to has no entry."""
    if not trace_ids:
        return {}
    rows = store.query_dicts(
        _labels_sql(store, "TraceId IN {ids:Array(String)}"), {**_label_params(), "ids": list(trace_ids)}
    )
    return {
        row["TraceId"]: RequestLabels(bool(row["planted"]), bool(row["degraded"]))
        for row in rows
        if row["planted"] or row["degraded"]
    }
