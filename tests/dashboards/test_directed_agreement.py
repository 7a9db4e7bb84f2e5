"""Online agreement over directed samples: the LLM judge saw the requests the free judge was unsure of
(where it errs) far more often than the others, so the shared requests alone make the free judge look no
better than chance. Weighted by 1 / the LLM judge's inclusion probability, the report (hence the live page)
and the Grafana panel give the agreement over all traffic, and agree with each other."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from grafana_macros import ALL, TimeRange, Variable, expand_dashboard_query
from ragpulse_core.store import Store
from ragpulse_dashboards.report import collect_report, render_html
from ragpulse_dashboards.report.agreement import JudgeAgreement

PANEL = "Can the free judge be trusted here? Online agreement"
BOARD = Path(__file__).resolve().parents[2] / "dashboards" / "grafana" / "json" / "variant-comparison.json"
COLUMNS = ["TraceId", "SpanId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer",
           "ScorerVersion", "Metric", "Value", "Error", "InclusionProbability"]  # fmt: skip
CERTAIN_PROBABILITY = 0.2


def population() -> list[tuple[bool, bool, float | None]]:
    """(free judge says hallucinated, LLM judge says so, the LLM judge's chance of judging it; None: not
    drawn) for 100 requests. 50 the free judge is sure of, where both agree (25 each way), judged with p = 0.2
    (one in five); 50 it is unsure of, judged whole, where it catches 10 of 25 hallucinations and raises 15
    false alarms on 25 grounded answers. Over all traffic: balanced accuracy 0.7, kappa 0.4; over the shared
    requests alone: 0.5 and 0."""
    requests: list[tuple[bool, bool, float | None]] = []
    for index in range(50):
        hallucinated = index < 25
        requests.append((hallucinated, hallucinated, CERTAIN_PROBABILITY if index % 5 == 0 else None))
    for index in range(50):
        reference = index < 25
        free = index < 10 if reference else index < 40
        requests.append((free, reference, 1.0))
    return requests


def fill(store: Store, now: datetime, directed: bool = True) -> None:
    """The free judge's verdict on every request, then the LLM judge's on those drawn (``directed``: with the
    chance each had; else as if each had been certain)."""
    free_rows: list[list[Any]] = []
    llm_rows: list[list[Any]] = []
    for index, (free, reference, probability) in enumerate(population()):
        at = now - timedelta(minutes=5 + index)
        trace, span = uuid.uuid4().hex, uuid.uuid4().hex[:16]
        row = [trace, span, at, at + timedelta(seconds=10), "svc", "fusion", "A"]
        free_rows.append([*row, "lexical", "1", "hallucination", float(free), "", 1.0])
        if probability is not None:
            scored = at + timedelta(seconds=40)
            chance = probability if directed else 1.0
            llm_rows.append([*row[:3], scored, *row[4:], "support", "1", "hallucination", float(reference),
                             "", chance])  # fmt: skip
    store.insert("ragpulse_scores", free_rows, COLUMNS)
    store.insert("ragpulse_scores", llm_rows, COLUMNS)


def panel_rows(store: Store, start: datetime, end: datetime) -> list[dict[str, Any]]:
    (panel,) = [p for p in json.loads(BOARD.read_text())["panels"] if p["title"] == PANEL]
    variables = {
        "service": Variable(ALL, ("svc",), multi=True),
        "pipeline": Variable(ALL, ("fusion",), multi=True),
        "variant_a": Variable("A"),
        "variant_b": Variable("B"),
    }
    sql = expand_dashboard_query(panel["targets"][0]["rawSql"], variables, TimeRange(start, end))
    return store.query_dicts(sql)


def agreement(store: Store, start: datetime) -> JudgeAgreement:
    (row,) = collect_report(store, start).agreement
    return row


def test_weighted_agreement_speaks_for_all_traffic(store: Store) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    fill(store, now)
    start = now - timedelta(hours=3)
    row = agreement(store, start)
    assert row.n == 60 and row.is_weighted
    balanced, kappa = row.balanced_accuracy, row.kappa
    assert balanced is not None and kappa is not None
    assert balanced.value == pytest.approx(0.7) and kappa.value == pytest.approx(0.4)
    # Unweighted these would be chance (0.5 and 0), far outside the intervals.
    assert 0.5 < balanced.low < 0.7 < balanced.high and 0 < kappa.low < 0.4 < kappa.high
    assert "60 (inverse-probability weighted)" in render_html(collect_report(store, start))

    (panel,) = panel_rows(store, start, now)
    assert panel["shared"] == 60
    # The panel's z is 1.96, the report's 1.959964: the bounds agree to 1e-4.
    assert (panel["balanced_accuracy"], panel["ba_low"], panel["ba_high"]) == pytest.approx(
        (balanced.value, balanced.low, balanced.high), abs=1e-4
    )
    assert (panel["kappa"], panel["kappa_low"], panel["kappa_high"]) == pytest.approx(
        (kappa.value, kappa.low, kappa.high), abs=1e-4
    )


def test_with_every_probability_one_the_agreement_is_the_plain_one(store: Store) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    fill(store, now, directed=False)
    start = now - timedelta(hours=3)
    row = agreement(store, start)
    plain = JudgeAgreement("svc", "A", "lexical", "support", 15, 15, 15, 15)
    assert row == plain and not row.is_weighted
    assert row.balanced_accuracy == plain.balanced_accuracy and row.kappa == plain.kappa
    assert row.balanced_accuracy is not None and row.balanced_accuracy.value == 0.5
    (panel,) = panel_rows(store, start, now)
    assert panel["balanced_accuracy"] == 0.5 and panel["kappa"] == 0.0
