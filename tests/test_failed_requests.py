"""A request whose decorated function raised is "the request failed: <exception type>", from its root span's
status and exception event, never "no answer" with advice about content capture or streaming."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
import ragpulse
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace.export import SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse_collector.server import CollectorServer
from ragpulse_core.store import Store
from ragpulse_dashboards.report import collect_report, render_terminal
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.pipeline.tick import ScoringJob
from rich.console import Console


class IndexOffline(RuntimeError):
    """What a service's search backend raises when it is down."""


@ragpulse.retrieve
def search(query: str) -> list[dict[str, object]]:
    raise IndexOffline("connection refused")


@ragpulse.rag(pipeline="failing", variant="A")
def answer(question: str) -> str:
    return str(search(question))


@pytest.fixture
def exporter(span_exporter: InMemorySpanExporter) -> Iterator[InMemorySpanExporter]:
    span_exporter.clear()
    yield span_exporter
    span_exporter.clear()


def test_a_request_whose_function_raised_is_reported_as_failed_with_its_exception_type(
    store: Store, collector: CollectorServer, exporter: InMemorySpanExporter
) -> None:
    with pytest.raises(IndexOffline):
        answer("Where is the index?")
    spans = exporter.get_finished_spans()
    assert OTLPSpanExporter(endpoint=f"{collector.url}/v1/traces").export(spans) is SpanExportResult.SUCCESS
    assert collector.flush()

    settings = DashboardsSettings.load(store={"dsn": "chdb:///unused"}, scorer={"settle_delay_s": 60})
    ScoringJob(settings, store, [LexicalScorer()]).run(datetime.now(UTC) + timedelta(minutes=2))

    [(outcome, reason)] = store.query(
        f"SELECT Outcome, Reason FROM {store.table('ragpulse_scoring_log')} WHERE Scorer = 'lexical'"
    )
    assert outcome == "skipped"
    assert reason.startswith("the request failed: ") and reason.endswith("IndexOffline")
    data = collect_report(store, datetime.now(UTC) - timedelta(hours=1))
    console = Console(record=True, width=200)
    render_terminal(data, console)
    text = console.export_text()
    assert "not scored: 1 (request failed: 1)" in text
    assert "no answer" not in text and "content capture" not in text and "stream" not in text
