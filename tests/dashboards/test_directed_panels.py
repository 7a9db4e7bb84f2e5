"""The overview's hallucination-rate panels over directed samples: the same inverse-probability weighted rate
and interval as the report, from the hourly sums (long ranges) and from every value row (short ones) alike."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from grafana_macros import ALL, TimeRange, Variable, expand_dashboard_query
from ragpulse_core.store import Store
from ragpulse_dashboards.report import collect_report

OVERVIEW = Path(__file__).resolve().parents[2] / "dashboards" / "grafana" / "json" / "overview.json"
COLUMNS = ["TraceId", "SpanId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer",
           "ScorerVersion", "Metric", "Value", "Error", "InclusionProbability"]  # fmt: skip


def fill(store: Store, now: datetime) -> None:
    """Variant A: 12 hallucinated requests judged with probability 0.2, 48 grounded ones with 0.8; variant B:
    50 requests, 5 hallucinated, all with certainty. Spread over the last five hours."""
    rows: list[list[Any]] = []
    plan = (
        [("A", True, 0.2)] * 12 + [("A", False, 0.8)] * 48 + [("B", True, 1.0)] * 5 + [("B", False, 1.0)] * 45
    )
    for index, (variant, hallucinated, probability) in enumerate(plan):
        at = now - timedelta(minutes=5 + index * 2.5)
        rows.append([uuid.uuid4().hex, uuid.uuid4().hex[:16], at, at + timedelta(seconds=20), "svc",
                     "fusion", variant, "support", "1", "hallucination", float(hallucinated), "",
                     probability])  # fmt: skip
    store.insert("ragpulse_scores", rows, COLUMNS)


def panel_sql(title: str) -> str:
    for panel in json.loads(OVERVIEW.read_text())["panels"]:
        if panel["title"] == title:
            return str(panel["targets"][0]["rawSql"])
    raise AssertionError(title)


def run(store: Store, sql: str, start: datetime, end: datetime) -> list[dict[str, Any]]:
    variables = {
        "judge": Variable("support"),
        "service": Variable(ALL, ("svc",), multi=True),
        "pipeline": Variable(ALL, ("fusion",), multi=True),
        "variant": Variable(ALL, ("A", "B"), multi=True),
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
    overall = run(store, panel_sql("Hallucination rate"), start, now)
    assert overall[0]["hallucination_rate"] == pytest.approx((60 + 5) / (120 + 50))
