"""The report, the live page and Grafana's panels give the same figures on the same data (issue 42, item 3):
each judge's hallucination rate and interval (weighted under directed sampling, and the corrected-rate
table's raw rate the same figure), each judge against reviewers' labels, the free judge against the LLM judge,
and a service labelled with one class only reading "undefined (needs both labels)" on every surface. Grafana's
SQL runs on chDB with its macros expanded as the ClickHouse plugin expands them."""

from __future__ import annotations

import hashlib
import io
import json
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from demo_data import truncate
from grafana_macros import ALL, TimeRange, Variable, expand_dashboard_query
from ragpulse_core.store import Store
from ragpulse_dashboards.live import LivePage, ReadToken, TokenSource
from ragpulse_dashboards.report import collect_report, render_terminal
from ragpulse_dashboards.report.format import percent, rate_with_interval, raw_rate
from ragpulse_dashboards.report.model import ReportData
from ragpulse_dashboards.report.people import corrected_cells
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_scorers.labels.agreement import figure_text
from ragpulse_scorers.labels.store import Label, RequestRef, Source, write_labels
from rich.console import Console

GRAFANA = Path(__file__).resolve().parents[2] / "dashboards" / "grafana" / "json"
SPANS = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
         "SpanAttributes", "Duration", "StatusCode"]  # fmt: skip
SCORES = ["TraceId", "SpanId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer",
          "ScorerVersion", "Metric", "Value", "Error", "InclusionProbability"]  # fmt: skip
ONE_CLASS = "undefined (needs both labels)"
TOKEN = "figures-read-token"


def _request(spans: list[list[Any]], name: str, service: str, variant: str, at: datetime) -> RequestRef:
    trace = hashlib.md5(name.encode()).hexdigest()
    root = {"ragpulse.kind": "rag", "ragpulse.pipeline": "fusion", "ragpulse.variant": variant,
            "input.value": f"Question {name}?", "output.value": "An answer.",
            "ragpulse.context": json.dumps([{"id": "c1", "text": "An answer.", "rank": 1}])}  # fmt: skip
    spans.append([at, trace, trace[:16], "", "rag fusion", "Internal", service, root, 5_000_000, "Ok"])
    return RequestRef(trace, trace[:16], at, service, "fusion", variant)


def _verdict(ref: RequestRef, scorer: str, hallucinated: bool, probability: float = 1.0) -> list[Any]:
    at = ref.request_time
    return [ref.trace_id, ref.span_id, at, at + timedelta(seconds=5), ref.service_name, "fusion", ref.variant,
            scorer, "1", "hallucination", float(hallucinated), "", probability]  # fmt: skip


def fill(store: Store, now: datetime) -> None:
    """shop, variants A and B: lexical judges all 240 requests; support judges every uncertain one and one
    in four of the rest (directed sampling, so its rate is weighted); reviewers label every request.
    desk: 40 requests, lexical only, every label grounded (one class)."""
    spans: list[list[Any]] = []
    scores: list[list[Any]] = []
    labels: list[Label] = []
    for index in range(240):
        variant = "AB"[index % 2]
        ref = _request(spans, f"shop-{index}", "shop", variant, now - timedelta(minutes=5 + index / 10))
        truth = index % 5 == 0 or (variant == "B" and index % 7 == 0)
        uncertain = index % 3 == 0
        lexical = truth != (uncertain and index % 4 == 0)  # wrong on some uncertain requests
        scores.append(_verdict(ref, "lexical", lexical))
        if uncertain or index % 5 == 1:
            scores.append(_verdict(ref, "support", truth != (index % 11 == 0), 1.0 if uncertain else 0.25))
        labels.append(
            Label.of(ref, "hallucinated" if truth else "grounded", author="ann", source=Source.REVIEWER)
        )
    for index in range(40):
        ref = _request(spans, f"desk-{index}", "desk", "A", now - timedelta(minutes=5 + index / 10))
        scores.append(_verdict(ref, "lexical", index % 9 == 0))
        labels.append(Label.of(ref, "grounded", author="bo", source=Source.REVIEWER))
    store.insert("otel_traces", spans, SPANS)
    store.insert("ragpulse_scores", scores, SCORES)
    write_labels(store, labels)


def panel_rows(
    store: Store, board: str, title: str, now: datetime, **chosen: Variable
) -> list[dict[str, Any]]:
    panel = next(p for p in json.loads((GRAFANA / board).read_text())["panels"] if p["title"] == title)
    variables = {
        "service": Variable(ALL, ("desk", "shop"), multi=True),
        "pipeline": Variable(ALL, ("fusion",), multi=True),
        "variant": Variable(ALL, ("A", "B"), multi=True),
        "variant_a": Variable("A"),
        "variant_b": Variable("B"),
        **chosen,
    }
    sql = expand_dashboard_query(
        panel["targets"][0]["rawSql"], variables, TimeRange(now - timedelta(hours=2), now)
    )
    return store.query_dicts(sql)


def _null_text(board: str, title: str, column: str) -> str:
    panel = next(p for p in json.loads((GRAFANA / board).read_text())["panels"] if p["title"] == title)
    override = next(o for o in panel["fieldConfig"]["overrides"] if o["matcher"]["options"] == column)
    (mapping,) = next(p["value"] for p in override["properties"] if p["id"] == "mappings")
    assert mapping["options"]["match"] == "null"
    return str(mapping["options"]["result"]["text"])


def _live_pages(store: Store, *paths: str) -> list[str]:
    """The live page's views, as served (the window is the page's default day)."""
    settings = DashboardsSettings.load(None, live={"host": "127.0.0.1", "port": 0})
    page = LivePage(settings, store, ReadToken(TOKEN, TokenSource.READ_TOKEN))
    page.start()
    try:
        bodies = []
        for path in paths:
            request = urllib.request.Request(f"{page.url.rstrip('/')}{path}")
            request.add_header("Authorization", f"Bearer {TOKEN}")
            with urllib.request.urlopen(request, timeout=60) as answer:
                bodies.append(" ".join(answer.read().decode("utf-8").split()))
        return bodies
    finally:
        page.stop()


def _terminal(data: ReportData) -> str:
    console = Console(file=io.StringIO(), width=400, color_system=None)
    render_terminal(data, console)
    return " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def filled(migrated_store: Store) -> Iterator[tuple[Store, datetime, ReportData]]:
    """The session database, emptied and filled once for the module (every surface only reads)."""
    truncate(migrated_store)
    now = datetime.now(UTC).replace(microsecond=0)
    fill(migrated_store, now)
    yield migrated_store, now, collect_report(migrated_store, now - timedelta(hours=2))
    truncate(migrated_store)


def test_hallucination_rates_agree_and_the_corrected_tables_raw_rate_is_the_same(
    filled: tuple[Store, datetime, ReportData],
) -> None:
    store, now, data = filled
    rates = {(row.scorer, row.service, row.variant): row.rate for row in data.hallucination}
    assert rates[("support", "shop", "A")].is_weighted and not rates[("lexical", "shop", "A")].is_weighted
    for judge in ("lexical", "support"):
        rows = panel_rows(store, "overview.json", "Hallucination rate per variant", now,
                          judge=Variable(judge), service=Variable(["shop"], multi=True))  # fmt: skip
        for row in rows:
            rate = rates[(judge, "shop", row["Variant"])]
            assert row["rate"] == pytest.approx(rate.value) and row["scored"] == rate.n
            assert (row["lower"], row["upper"]) == pytest.approx(rate.interval, abs=1e-4)
    assert data.people is not None
    for corrected in data.people.corrected:
        rate = rates[(corrected.judge, corrected.service, corrected.variant)]
        assert corrected.rate == rate and corrected_cells(corrected)[3] == raw_rate(rate)
        assert raw_rate(rate).startswith(percent(rate.value))
    said = _terminal(data)
    weighted = rates[("support", "shop", "B")]
    assert rate_with_interval(weighted) in said and raw_rate(weighted) in said
    assert "(inverse-probability weighted;" in raw_rate(weighted)


def test_judges_against_people_agree_and_one_class_is_undefined_everywhere(
    filled: tuple[Store, datetime, ReportData],
) -> None:
    store, now, data = filled
    assert data.people is not None
    figures = {(row.judge, row.service, row.variant): row.agreement for row in data.people.reviewer}
    desk = figures[("lexical", "desk", "A")]
    assert desk.balanced_accuracy.value is None and desk.kappa.value is None
    rows = panel_rows(store, "overview.json", "Judges against reviewer labels", now)
    assert {(row["Judge"], row["ServiceName"], row["Variant"]) for row in rows} == set(figures)
    for row in rows:
        shown = figures[(row["Judge"], row["ServiceName"], row["Variant"])]
        for column, low, high, figure in (
            ("balanced_accuracy", "ba_low", "ba_high", shown.balanced_accuracy),
            ("kappa", "kappa_low", "kappa_high", shown.kappa),
        ):
            if figure.value is None:
                assert row[column] is row[low] is row[high] is None
            else:
                assert row[column] == pytest.approx(figure.value)
                assert (row[low], row[high]) == pytest.approx((figure.low, figure.high), abs=1e-4)
        for column, figure in (("sensitivity", shown.sensitivity), ("specificity", shown.specificity)):
            assert row[column] == (None if figure.value is None else pytest.approx(figure.value))
    for column in ("balanced_accuracy", "kappa"):
        assert _null_text("overview.json", "Judges against reviewer labels", column) == ONE_CLASS
    assert _null_text("overview.json", "Judges against reviewer labels", "sensitivity") == figure_text(
        desk.sensitivity
    )

    shop = figures[("lexical", "shop", "B")]
    said = _terminal(data)
    live, review = _live_pages(store, "/", "/review")
    for surface in (said, live, review):
        assert ONE_CLASS in surface
        assert figure_text(shop.kappa) in surface and figure_text(shop.balanced_accuracy) in surface
        assert "– (needs both labels)" not in surface and "one verdict throughout" not in surface


def test_the_free_judge_against_the_llm_judge_agrees(filled: tuple[Store, datetime, ReportData]) -> None:
    store, now, data = filled
    agreement = {row.variant: row for row in data.agreement if row.service == "shop"}
    title = "Can the free judge be trusted here? Online agreement"
    rows = panel_rows(store, "variant-comparison.json", title, now, service=Variable(["shop"], multi=True))
    assert {row["Variant"] for row in rows} == {"A", "B"}
    for row in rows:
        shown = agreement[row["Variant"]]
        assert shown.is_weighted and row["shared"] == shown.n
        for column, low, high, figure in (
            ("balanced_accuracy", "ba_low", "ba_high", shown.balanced_accuracy),
            ("kappa", "kappa_low", "kappa_high", shown.kappa),
        ):
            assert row[column] == pytest.approx(figure.value)
            assert (row[low], row[high]) == pytest.approx((figure.low, figure.high), abs=1e-4)
    assert figure_text(agreement["B"].kappa) in _terminal(data)
