"""Grafana over directed samples: the overview's hallucination-rate panels give the report's
inverse-probability weighted rate and interval, from the hourly sums (long ranges) and every value row (short
ones) alike, and the Grafana alert rule the built-in alert's weighted lower bound."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from grafana_macros import ALL, TimeRange, Variable, expand_dashboard_query
from ragpulse_core.store import Store
from ragpulse_dashboards.alerts import rules
from ragpulse_dashboards.alerts.conditions import observe
from ragpulse_dashboards.report import collect_report
from ragpulse_dashboards.settings import AlertSettings
from test_alert_rule_queries import evaluate

BOARDS = Path(__file__).resolve().parents[2] / "dashboards" / "grafana" / "json"
OVERVIEW = BOARDS / "overview.json"
COLUMNS = ["TraceId", "SpanId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer",
           "ScorerVersion", "Metric", "Value", "Error", "InclusionProbability"]  # fmt: skip


def fill(store: Store, now: datetime, spacing_minutes: float = 2.5) -> None:
    """Variant A: 12 hallucinated requests judged with probability 0.2, 48 grounded ones with 0.8; variant B:
    50 requests, 5 hallucinated, all with certainty. ``spacing_minutes`` apart (the last five hours)."""
    rows: list[list[Any]] = []
    plan = (
        [("A", True, 0.2)] * 12 + [("A", False, 0.8)] * 48 + [("B", True, 1.0)] * 5 + [("B", False, 1.0)] * 45
    )
    for index, (variant, hallucinated, probability) in enumerate(plan):
        at = now - timedelta(minutes=5 + index * spacing_minutes)
        rows.append([uuid.uuid4().hex, uuid.uuid4().hex[:16], at, at + timedelta(seconds=20), "svc",
                     "fusion", variant, "support", "1", "hallucination", float(hallucinated), "",
                     probability])  # fmt: skip
    store.insert("ragpulse_scores", rows, COLUMNS)


def panel_sql(title: str, board: Path = OVERVIEW) -> str:
    for panel in json.loads(board.read_text())["panels"]:
        if panel["title"] == title:
            return str(panel["targets"][0]["rawSql"])
    raise AssertionError(title)


def run(store: Store, sql: str, start: datetime, end: datetime) -> list[dict[str, Any]]:
    variables = {
        "judge": Variable("support"),
        "service": Variable(ALL, ("svc",), multi=True),
        "pipeline": Variable(ALL, ("fusion",), multi=True),
        "variant": Variable(ALL, ("A", "B"), multi=True),
        "variant_a": Variable("A"),
        "variant_b": Variable("B"),
    }
    for variable in json.loads(OVERVIEW.read_text())["templating"]["list"]:
        if variable["type"] == "constant":
            variables[variable["name"]] = Variable(variable["query"])
    return store.query_dicts(expand_dashboard_query(sql, variables, TimeRange(start, end, interval_s=3600)))


@pytest.mark.parametrize("hours", [6, 72], ids=["value rows", "hourly sums"])
def test_the_rate_per_variant_panel_is_the_reports_weighted_rate(store: Store, hours: int) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    fill(store, now)
    start = now - timedelta(hours=hours)
    rows = {
        row["Variant"]: row for row in run(store, panel_sql("Hallucination rate per variant"), start, now)
    }
    report = {row.variant: row.rate for row in collect_report(store, start).hallucination}
    # A: 12 x 5 = 60 hallucinated of 60 + 48 x 1.25 = 120: 50%, where the judged requests say 20%.
    assert rows["A"]["rate"] == pytest.approx(0.5) == report["A"].value
    # The panels' z is 1.96, the report's 1.959964: the bounds agree to 1e-4.
    assert (rows["A"]["lower"], rows["A"]["upper"]) == pytest.approx(report["A"].interval, abs=1e-4)
    assert rows["A"]["scored"] == 60 and rows["A"]["hallucinated"] == 12
    # B is unweighted: exactly the plain proportion and its Wilson interval.
    assert rows["B"]["rate"] == 0.1 == report["B"].value
    assert (rows["B"]["lower"], rows["B"]["upper"]) == pytest.approx(report["B"].interval, abs=1e-4)
    compared = run(
        store, panel_sql("Hallucination rate: A vs B", BOARDS / "variant-comparison.json"), start, now
    )
    assert {row["Variant"]: (row["rate"], row["lower"], row["upper"]) for row in compared} == {
        variant: (rows[variant]["rate"], rows[variant]["lower"], rows[variant]["upper"]) for variant in "AB"
    }
    overall = run(store, panel_sql("Hallucination rate"), start, now)
    assert overall[0]["hallucination_rate"] == pytest.approx((60 + 5) / (120 + 50))


def test_the_grafana_hallucination_alert_has_the_built_in_alerts_weighted_lower_bound(store: Store) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    fill(store, now, spacing_minutes=0.4)
    rows = {row["Variant"]: row for row in evaluate(store, "ragpulse_hallucination_rate", now)}
    settings = AlertSettings(hallucination_threshold=0.2, min_samples=30, window_minutes=60)
    built_in = {
        o.key.variant: o for o in observe(store, settings, now) if o.key.rule == rules.HALLUCINATION_RATE
    }
    for variant in ("A", "B"):
        expected = built_in[variant].lower
        assert rows[variant]["hallucination_rate_lower_bound"] == pytest.approx(expected, abs=1e-4)
    assert "inverse-probability weighted" in built_in["A"].summary
