"""Means over directed samples: where a rule judges the low-scoring requests more often than the others, the
report, the live page and the Grafana panels weigh each value by 1 / its inclusion probability, recover the
population's mean, and see no difference where there is none; the same values read unweighted are biased low
and show a difference that does not exist. From every value row and from the hourly sums alike."""

from __future__ import annotations

import json
import math
import urllib.request
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from grafana_macros import ALL, TimeRange, Variable, expand_dashboard_query
from ragpulse_core.store import Store
from ragpulse_dashboards.live import LivePage, ReadToken, TokenSource
from ragpulse_dashboards.report import collect_report
from ragpulse_dashboards.report.model import Difference, MetricRow
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_scorers.stats import welch_interval

BOARDS = Path(__file__).resolve().parents[2] / "dashboards" / "grafana" / "json"
COLUMNS = ["TraceId", "SpanId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer",
           "ScorerVersion", "Metric", "Value", "Error", "InclusionProbability"]  # fmt: skip
# The directed metric and the same values with their probabilities dropped.
WEIGHTED, NAIVE = "adherence", "completeness"
LOW, HIGH = (0.2, 0.3, 0.4), (0.8, 0.9, 1.0)
HIGH_PROBABILITY = 0.2
TOKEN = "read-means-7c1d"


def population() -> list[tuple[str, float, float | None]]:
    """Per variant 200 requests, half low-scoring (about 0.3), half high (about 0.9), the same values in
    both, each with the chance it had of being judged (None: not drawn). In A a rule judges every low request
    and one high request in five (p = 0.2, one of each block of five alike); B is judged whole."""
    requests: list[tuple[str, float, float | None]] = []
    for variant in ("A", "B"):
        for index in range(100):
            requests.append((variant, LOW[index % 3], 1.0))
            directed = HIGH_PROBABILITY if index % 5 == 0 else None
            requests.append((variant, HIGH[index // 5 % 3], 1.0 if variant == "B" else directed))
    return requests


POPULATION_MEAN = sum(value for _, value, _ in population()) / len(population())
JUDGED = [(variant, value, p) for variant, value, p in population() if p is not None]
# A's judged values read as if every request had been judged alike: the low ones outvote the high ones.
NAIVE_MEAN_A = sum(value for variant, value, _ in JUDGED if variant == "A") / 120


def fill(store: Store, hour: datetime) -> None:
    """Every judged request scored on both metrics within ``hour``: the directed one with its probability, the
    naive one with probability 1 (as if the draw were ignored)."""
    rows: list[list[Any]] = []
    requests: list[list[Any]] = []
    for index, (variant, value, probability) in enumerate(JUDGED):
        at = hour + timedelta(seconds=5 + index * 5)
        trace, span = uuid.uuid4().hex, uuid.uuid4().hex[:16]
        requests.append([trace, span, at, "svc", "fusion", variant, "Ok"])
        for metric, chance in ((WEIGHTED, probability), (NAIVE, 1.0)):
            scored = at + timedelta(seconds=20)
            rows.append([trace, span, at, scored, "svc", "fusion", variant, "support", "1", metric, value, "",
                         chance])  # fmt: skip
    store.insert(
        "ragpulse_requests", requests,
        ["TraceId", "SpanId", "Timestamp", "ServiceName", "Pipeline", "Variant", "StatusCode"],
    )  # fmt: skip
    store.insert("ragpulse_scores", rows, COLUMNS)


def expected_weighted(variant: str) -> tuple[float, float, float]:
    """Mean, variance at Kish's effective size, and that size, straight from the judged values."""
    sample = [(value, 1 / p) for v, value, p in JUDGED if v == variant]
    weights = sum(w for _, w in sample)
    mean = sum(w * value for value, w in sample) / weights
    effective = weights**2 / sum(w * w for _, w in sample)
    spread = sum(w * (value - mean) ** 2 for value, w in sample) / weights
    return mean, spread * effective / (effective - 1), effective


def _hour(now: datetime) -> datetime:
    return now.replace(minute=0, second=0, microsecond=0) - timedelta(hours=2)


def _panel_sql(board: str, title: str) -> str:
    for panel in json.loads((BOARDS / board).read_text())["panels"]:
        if panel["title"] == title:
            return str(panel["targets"][0]["rawSql"])
    raise AssertionError(title)


def _run(
    store: Store, sql: str, start: datetime, end: datetime, metric: str = WEIGHTED
) -> list[dict[str, Any]]:
    variables = {
        "service": Variable(ALL, ("svc",), multi=True),
        "pipeline": Variable(ALL, ("fusion",), multi=True),
        "variant": Variable(ALL, ("A", "B"), multi=True),
        "variant_a": Variable("A"),
        "variant_b": Variable("B"),
        "metric": Variable(metric),
        "judge": Variable("support"),
    }
    return store.query_dicts(expand_dashboard_query(sql, variables, TimeRange(start, end, interval_s=3600)))


def _difference(differences: list[Difference], metric: str) -> Difference:
    return next(d for d in differences if d.metric == metric and not d.is_rate)


@pytest.mark.parametrize("hours", [6, 72], ids=["value rows", "hourly sums"])
def test_the_report_weighs_means_and_recovers_the_population_mean(store: Store, hours: int) -> None:
    now = datetime.now(UTC)
    fill(store, _hour(now))
    data = collect_report(store, now - timedelta(hours=hours))
    rows: dict[tuple[str, str], MetricRow] = {(row.metric, row.variant): row for row in data.metrics}
    weighted_a, naive_a = rows[(WEIGHTED, "A")], rows[(NAIVE, "A")]
    mean, variance, effective = expected_weighted("A")
    assert weighted_a.mean == pytest.approx(POPULATION_MEAN) == pytest.approx(mean)
    assert weighted_a.variance == pytest.approx(variance)
    assert weighted_a.effective_n == pytest.approx(effective) and weighted_a.n == 120
    assert NAIVE_MEAN_A < POPULATION_MEAN - 0.15
    assert naive_a.mean == pytest.approx(NAIVE_MEAN_A) and not naive_a.is_weighted
    # B, judged whole, is the plain mean: exactly as it was before weights existed.
    assert not rows[(WEIGHTED, "B")].is_weighted and rows[(WEIGHTED, "B")].mean == pytest.approx(
        POPULATION_MEAN
    )

    weighted, naive = _difference(data.differences, WEIGHTED), _difference(data.differences, NAIVE)
    # B − A is 0 in the population: the weighted interval holds it, at A's effective sample size.
    assert weighted.low < 0 < weighted.high and not weighted.detectable
    base = rows[(WEIGHTED, "B")]
    expected = welch_interval(base.mean, base.variance, 200, mean, variance, effective)
    assert (weighted.low, weighted.high) == pytest.approx(expected)
    # Unweighted, A looks 0.2 worse with confidence: a difference that is not there.
    assert naive.detectable and naive.low > 0


def test_the_live_page_shows_the_weighted_means(store: Store) -> None:
    now = datetime.now(UTC)
    fill(store, _hour(now))
    settings = DashboardsSettings.load(None, live={"host": "127.0.0.1", "port": 0, "window_hours": 24})
    page = LivePage(settings, store, ReadToken(TOKEN, TokenSource.READ_TOKEN))
    page.start()
    try:
        request = urllib.request.Request(page.url, headers={"Authorization": f"Bearer {TOKEN}"})
        with urllib.request.urlopen(request, timeout=60) as response:
            html = response.read().decode()
    finally:
        page.stop()
    assert "means inverse-probability weighted" in html
    assert f"{POPULATION_MEAN:.3f} <span class='muted'>(n=120)</span>" in html
    assert f"{NAIVE_MEAN_A:.3f} <span class='muted'>(n=120)</span>" in html
    assert "no detectable difference" in html


@pytest.mark.parametrize("hours", [6, 72], ids=["value rows", "hourly sums"])
def test_the_grafana_panels_agree_with_the_report(store: Store, hours: int) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    fill(store, _hour(now))
    start = now - timedelta(hours=hours)
    data = collect_report(store, start)
    compared = {
        row["Metric"]: row
        for row in _run(store, _panel_sql("variant-comparison.json", "Every metric: A vs B"), start, now)
    }
    for metric in (WEIGHTED, NAIVE):
        difference = _difference(data.differences, metric)
        row = compared[metric]
        means = {r.variant: r.mean for r in data.metrics if r.metric == metric}
        assert (row["a_mean"], row["b_mean"]) == pytest.approx((means["A"], means["B"]))
        assert (row["a_n"], row["b_n"]) == (120, 200)
        # The panel's t quantile is a three-term expansion in 1 / df: its bounds agree to 1e-4.
        assert (row["diff"], row["low"], row["high"]) == pytest.approx(
            (difference.estimate, difference.low, difference.high), abs=1e-4
        )
    assert compared[WEIGHTED]["verdict"] == "no detectable difference at n = 120 / 200"
    assert compared[NAIVE]["verdict"].startswith(f"B higher by {POPULATION_MEAN - NAIVE_MEAN_A:.3f}")

    over_time = _panel_sql("variant-comparison.json", "${metric} over time: A vs B")
    for metric, mean_a in ((WEIGHTED, POPULATION_MEAN), (NAIVE, NAIVE_MEAN_A)):
        series = {row["Variant"]: row for row in _run(store, over_time, start, now, metric)}
        assert series["A"]["mean"] == pytest.approx(mean_a) and series["B"]["mean"] == pytest.approx(
            POPULATION_MEAN
        )

    overview = _panel_sql("overview.json", "Support, utilization, completeness")
    pooled = {row["metric"]: row["mean"] for row in _run(store, overview, start, now)}
    # Both variants pooled: 400 requests weighted, the 320 judged ones read unweighted.
    assert pooled[f"{WEIGHTED} · support"] == pytest.approx(POPULATION_MEAN)
    assert pooled[f"{NAIVE} · support"] == pytest.approx((120 * NAIVE_MEAN_A + 200 * POPULATION_MEAN) / 320)


def test_with_every_weight_one_the_means_are_the_plain_ones(store: Store) -> None:
    now = datetime.now(UTC)
    fill(store, _hour(now))
    data = collect_report(store, now - timedelta(hours=6))
    naive = [row for row in data.metrics if row.metric == NAIVE]
    for row in naive:
        values = [value for v, value, _ in JUDGED if v == row.variant]
        mean = sum(values) / len(values)
        assert row.mean == pytest.approx(mean, abs=1e-12)
        assert row.variance == pytest.approx(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
        assert row.sample_size == len(values) and not math.isnan(row.variance)
