"""Reads the numbers each alert rule needs from ClickHouse and turns them into observations.

The same conditions run in Grafana (``dashboards/grafana/provisioning/alerting/rules.yml``); keep the two
in step.
A request counts as hallucinated when its ``hallucination`` score is at least 0.5 (lexical writes 1/0, the LLM
support judge 1 − adherence) and as supported otherwise; rows with an error or no value are not counted. Each
request counts once, judged by the best judge that scored it (support over any other LLM judge over lexical),
so one incident raises one alert per service and variant, not one per judge; and by that judge's newest
verdict, so a request scored twice (a new scorer version, a retried batch) counts once before its parts merge
as after. Those verdicts are read from ``ragpulse_request_verdicts`` (one counted row per request, kept by a
view as scores are written), summing ``Sign``, and ``Sign * Weight`` for the inverse-probability weighted
rates of directed sampling. Judge errors and scoring counts are counted per request, by its
newest row.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from ragpulse_core.store import Store
from ragpulse_scorers.labels.correction import NotCorrected
from ragpulse_scorers.metric_names import PASS
from ragpulse_scorers.stats import WeightedCount

from ragpulse_dashboards.alerts import rules
from ragpulse_dashboards.alerts.rules import AlertKey, Baseline, Observation
from ragpulse_dashboards.alerts.state import AlertRecord
from ragpulse_dashboards.review.figures import corrected_rates
from ragpulse_dashboards.settings import AlertSettings

_HALLUCINATION_COUNTS = """
SELECT ServiceName, Variant,
       sum(recent_hallucinated) AS hallucinated,
       sum(recent) AS scored,
       sum(baseline_supported) AS baseline_supported,
       sum(baseline) AS baseline_scored,
       sum(w_hallucinated) AS w_hallucinated, sum(w_scored) AS w_scored,
       sum(w2_hallucinated) AS w2_hallucinated, sum(w2_scored) AS w2_scored,
       sum(w_baseline_supported) AS w_baseline_supported, sum(w_baseline_scored) AS w_baseline_scored,
       sum(w2_baseline_supported) AS w2_baseline_supported, sum(w2_baseline_scored) AS w2_baseline_scored,
       arrayStringConcat(arraySort(groupArrayIf(Judge, recent > 0)), ', ') AS judges
FROM (
    SELECT ServiceName, Variant, Judge,
           sumIf(Sign, RequestTime > {start:DateTime64(6)} AND Hallucinated = 1) AS recent_hallucinated,
           sumIf(Sign, RequestTime > {start:DateTime64(6)}) AS recent,
           sumIf(Sign, RequestTime <= {start:DateTime64(6)} AND Hallucinated = 0) AS baseline_supported,
           sumIf(Sign, RequestTime <= {start:DateTime64(6)}) AS baseline,
           -- Directed sampling: the same sums weighted by 1 / inclusion probability (Weight), and squared.
           sumIf(Sign * Weight, RequestTime > {start:DateTime64(6)} AND Hallucinated = 1) AS w_hallucinated,
           sumIf(Sign * Weight, RequestTime > {start:DateTime64(6)}) AS w_scored,
           sumIf(Sign * Weight * Weight, RequestTime > {start:DateTime64(6)} AND Hallucinated = 1)
               AS w2_hallucinated,
           sumIf(Sign * Weight * Weight, RequestTime > {start:DateTime64(6)}) AS w2_scored,
           sumIf(Sign * Weight, RequestTime <= {start:DateTime64(6)} AND Hallucinated = 0)
               AS w_baseline_supported,
           sumIf(Sign * Weight, RequestTime <= {start:DateTime64(6)}) AS w_baseline_scored,
           sumIf(Sign * Weight * Weight, RequestTime <= {start:DateTime64(6)} AND Hallucinated = 0)
               AS w2_baseline_supported,
           sumIf(Sign * Weight * Weight, RequestTime <= {start:DateTime64(6)}) AS w2_baseline_scored
    FROM {verdicts}
    WHERE RequestTime > {baseline_start:DateTime64(6)} AND RequestTime <= {end:DateTime64(6)}
    GROUP BY ServiceName, Variant, Judge
)
GROUP BY ServiceName, Variant
HAVING scored + baseline_scored > 0
ORDER BY ServiceName, Variant
"""

# A firing support drop without a baseline of its own: the same counts over the traffic since it fired.
_SUPPORTED_SINCE = """
SELECT sumIf(Sign, Hallucinated = 0) AS supported, sum(Sign) AS scored,
       sumIf(Sign * Weight, Hallucinated = 0) AS w_supported, sum(Sign * Weight) AS w_scored,
       sumIf(Sign * Weight * Weight, Hallucinated = 0) AS w2_supported,
       sum(Sign * Weight * Weight) AS w2_scored,
       arrayStringConcat(arraySort(groupUniqArray(Judge)), ', ') AS judges
FROM {verdicts}
WHERE ServiceName = {service:String} AND Variant = {variant:String}
  AND RequestTime > {since:DateTime64(6)} AND RequestTime <= {end:DateTime64(6)}
"""

_TRAFFIC_AND_SCORES = """
SELECT r.ServiceName AS ServiceName, r.requests AS requests, s.scores AS scores
FROM (
    -- A hybrid trace has a view row and an assembled row until parts merge: count requests, not rows.
    SELECT ServiceName, uniqExact(TraceId, SpanId, toUnixTimestamp64Micro(Timestamp)) AS requests
    FROM {requests}
    WHERE Timestamp > {start:DateTime64(6)} AND Timestamp <= {settled:DateTime64(6)}
    GROUP BY ServiceName
) AS r
LEFT JOIN (
    SELECT ServiceName, uniqExact(TraceKey, SpanId, RequestTime) AS scores
    FROM {scores}
    WHERE ScoredAt > {start:DateTime64(6)} AND ScoredAt <= {end:DateTime64(6)}
    GROUP BY ServiceName
) AS s USING (ServiceName)
ORDER BY ServiceName
"""

_JUDGE_ERRORS = """
SELECT ServiceName, Scorer, countIf(failed) AS failed, count() AS judged
FROM (
    SELECT ServiceName, Scorer, TraceKey, SpanId, RequestTime, argMax(Error, ScoredAt) != '' AS failed
    FROM {scores}
    WHERE ScoredAt > {start:DateTime64(6)} AND ScoredAt <= {end:DateTime64(6)}
    GROUP BY ServiceName, Scorer, TraceKey, SpanId, RequestTime
)
GROUP BY ServiceName, Scorer
ORDER BY ServiceName, Scorer
"""


_PASS_COUNTS = """
SELECT ServiceName, Variant, Scorer,
       sumIf(Sign, Value >= 0.5) AS passed, sum(Sign) AS judged,
       sumIf(Sign * Weight, Value >= 0.5) AS w_passed, sum(Sign * Weight) AS w_judged,
       sumIf(Sign * Weight * Weight, Value >= 0.5) AS w2_passed, sum(Sign * Weight * Weight) AS w2_judged
FROM {values}
WHERE Metric = {pass_metric:String} AND has({scorers:Array(String)}, Scorer) AND Failed = 0
  AND Value IS NOT NULL AND RequestTime > {start:DateTime64(6)} AND RequestTime <= {end:DateTime64(6)}
GROUP BY ServiceName, Variant, Scorer
HAVING judged > 0
ORDER BY ServiceName, Variant, Scorer
"""


def _weighted(row: dict[str, Any], events: str, scored: str) -> WeightedCount:
    """The weighted sums of ``events`` among ``scored`` (columns ``w_…`` and ``w2_…`` of the counts query)."""
    w2_events, w2_scored = events.replace("w_", "w2_", 1), scored.replace("w_", "w2_", 1)
    return WeightedCount(float(row[scored]), float(row[events]), float(row[w2_scored]), float(row[w2_events]))


def _supported(hallucinated: WeightedCount) -> WeightedCount:
    """The complement: supported requests' weighted sums from the hallucinated ones' among the same."""
    return WeightedCount(
        hallucinated.weights,
        hallucinated.weights - hallucinated.weighted_events,
        hallucinated.squared_weights,
        hallucinated.squared_weights - hallucinated.squared_weighted_events,
    )


def _with_tables(sql: str, store: Store) -> str:
    # Only table names are formatted in; every value is bound server-side.
    return (
        sql.replace("{scores}", store.table("ragpulse_scores"))
        .replace("{requests}", store.table("ragpulse_requests"))
        .replace("{verdicts}", store.table("ragpulse_request_verdicts"))
        .replace("{values}", store.table("ragpulse_score_values"))
    )


def observe(
    store: Store,
    settings: AlertSettings,
    now: datetime,
    *,
    sample_rate: float = 1.0,
    firing: Mapping[AlertKey, AlertRecord] | None = None,
) -> list[Observation]:
    """Every rule's observation for every service/variant/scorer with data around ``now``.

    ``sample_rate`` is the scorers' (``scorer.sample_rate``): a stall is judged on the requests it selects.
    ``firing`` are the episodes firing now: a support drop among them whose window has too little history
    before it is judged against the baseline it fired on (:func:`rules.recovered_against`).
    """
    window = timedelta(minutes=settings.window_minutes)
    bounds: dict[str, Any] = {"start": now - window, "end": now}
    observations: list[Observation] = []

    baseline_start = now - window - timedelta(days=settings.baseline_days)
    rows = store.query_dicts(
        _with_tables(_HALLUCINATION_COUNTS, store),
        {**bounds, "baseline_start": baseline_start},
    )
    for row in rows:
        labels = (row["ServiceName"], row["Variant"])
        observations.append(
            rules.rate_above(
                AlertKey(rules.HALLUCINATION_RATE, *labels),
                "hallucination rate",
                int(row["hallucinated"]),
                int(row["scored"]),
                weighted=_weighted(row, "w_hallucinated", "w_scored"),
                threshold=settings.hallucination_threshold,
                min_samples=settings.min_samples,
                resolve_margin=settings.resolve_margin,
                judged_by=row["judges"],
            )
        )
        supported = int(row["scored"]) - int(row["hallucinated"])
        drop = AlertKey(rules.SUPPORT_DROP, *labels)
        episode = (firing or {}).get(drop)
        without_baseline = row["baseline_scored"] < settings.min_samples
        if episode is not None and episode.baseline is not None and without_baseline:
            observations.append(_recovery(store, episode, episode.baseline, now))
            continue
        observations.append(
            rules.rate_dropped(
                drop,
                "support rate",
                (supported, int(row["scored"])),
                (int(row["baseline_supported"]), int(row["baseline_scored"])),
                weighted=(
                    _supported(_weighted(row, "w_hallucinated", "w_scored")),
                    _weighted(row, "w_baseline_supported", "w_baseline_scored"),
                ),
                min_samples=settings.min_samples,
                judged_by=row["judges"],
            )
        )

    settled = now - timedelta(minutes=settings.stall_grace_minutes)
    for row in store.query_dicts(_with_tables(_TRAFFIC_AND_SCORES, store), {**bounds, "settled": settled}):
        observations.append(
            rules.scoring_stalled(
                AlertKey(rules.SCORING_STALLED, row["ServiceName"]),
                int(row["requests"]),
                int(row["scores"]),
                min_requests=settings.stall_min_requests,
                sample_rate=sample_rate,
            )
        )

    if settings.corrected_threshold is not None:
        observations.extend(_corrected_rates(store, settings, now, settings.corrected_threshold))

    if settings.pass_rates:
        observations.extend(_pass_rates(store, settings, bounds))

    for row in store.query_dicts(_with_tables(_JUDGE_ERRORS, store), bounds):
        observations.append(
            rules.rate_above(
                AlertKey(rules.JUDGE_ERRORS, row["ServiceName"], scorer=row["Scorer"]),
                "judge error rate",
                int(row["failed"]),
                int(row["judged"]),
                threshold=settings.judge_error_threshold,
                min_samples=settings.min_samples,
                resolve_margin=settings.resolve_margin,
            )
        )
    return observations


def _recovery(store: Store, episode: AlertRecord, baseline: Baseline, now: datetime) -> Observation:
    key = episode.key
    params: dict[str, Any] = {
        "service": key.service,
        "variant": key.variant,
        "since": episode.fired_at,
        "end": now,
    }
    (row,) = store.query_dicts(_with_tables(_SUPPORTED_SINCE, store), params)
    return rules.recovered_against(
        key,
        "support rate",
        _weighted(row, "w_supported", "w_scored"),
        int(row["supported"]),
        int(row["scored"]),
        baseline,
        judged_by=row["judges"] or episode.judged_by,
    )


def _pass_rates(store: Store, settings: AlertSettings, bounds: dict[str, Any]) -> list[Observation]:
    """Each evaluator's pass rate per service and variant over the window (its newest verdict per request),
    against its ``alerts.pass_rates`` threshold."""
    rows = store.query_dicts(
        _with_tables(_PASS_COUNTS, store),
        {**bounds, "pass_metric": PASS, "scorers": sorted(settings.pass_rates)},
    )
    return [
        rules.rate_below(
            AlertKey(rules.EVALUATOR_PASS_RATE, row["ServiceName"], row["Variant"], row["Scorer"]),
            f"{row['Scorer']} pass rate",
            int(row["passed"]),
            int(row["judged"]),
            weighted=_weighted(row, "w_passed", "w_judged"),
            threshold=settings.pass_rates[row["Scorer"]],
            min_samples=settings.min_samples,
            resolve_margin=settings.resolve_margin,
        )
        for row in rows
    ]


def _corrected_rates(
    store: Store, settings: AlertSettings, now: datetime, threshold: float
) -> list[Observation]:
    """The free judge's rate over the window per service and variant, corrected with its error rates over
    ``baseline_days`` (labels are few: a window of minutes holds almost none). Grafana has no such rule: the
    correction and its interval are no single SQL expression."""
    start = now - timedelta(minutes=settings.window_minutes)
    rates_since = now - timedelta(days=settings.baseline_days)
    observations = []
    for found in corrected_rates(store, start, now, None, rates_since):
        result = found.result
        estimate = None if isinstance(result, NotCorrected) else (result.estimate, result.low, result.high)
        observations.append(
            rules.corrected_rate_above(
                AlertKey(rules.CORRECTED_RATE, found.service, found.variant),
                estimate,
                found.judged,
                threshold=threshold,
                min_samples=settings.min_samples,
                source=result.reason if isinstance(result, NotCorrected) else result.source,
                resolve_margin=settings.resolve_margin,
            )
        )
    return observations
