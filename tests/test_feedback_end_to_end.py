"""End-user feedback from a decorated service: ``ragpulse.feedback`` → stock OTLP exporter → collector →
the scorer's tick → labels with source ``user``, apart from reviewers' labels."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import pytest
import ragpulse
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace.export import SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse_collector.server import CollectorServer
from ragpulse_core.store import Store
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_scorers.labels.store import read_labels
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.pipeline.tick import ScoringJob

sent_inside: list[bool] = []


@ragpulse.generate(model="extractive-test")
def generate(question: str, chunks: list[dict[str, object]]) -> str:
    return "Returns are accepted within 30 days."


@ragpulse.rag(pipeline="faq", variant="A")
def answer(question: str, *, unhappy: bool = False) -> str:
    ragpulse.set_user("u-17")
    reply = generate(question, [{"id": "returns", "text": "Returns are accepted within 30 days."}])
    if unhappy:
        sent_inside.append(ragpulse.feedback(0, comment="it is 14 days for sale items"))
    return reply


def tick(store: Store) -> None:
    settings = DashboardsSettings.load(store={"dsn": "chdb:///unused"})
    ScoringJob(settings, store, [LexicalScorer()]).run(datetime.now(UTC))


def test_feedback_arrives_as_user_labels(
    store: Store, collector: CollectorServer, span_exporter: InMemorySpanExporter
) -> None:
    span_exporter.clear()
    answer("Can I return a sale item?", unhappy=True)
    answer("How long do I have to return shoes?")
    roots = [span for span in span_exporter.get_finished_spans() if span.name == "rag faq"]
    later = roots[1].get_span_context()
    # Later, from the service's feedback endpoint: only the trace id the response carried.
    assert ragpulse.feedback(True, trace_id=format(later.trace_id, "032x"))
    assert sent_inside == [True]

    exporter = OTLPSpanExporter(endpoint=f"{collector.url}/v1/traces")
    assert exporter.export(span_exporter.get_finished_spans()) is SpanExportResult.SUCCESS
    assert collector.flush()
    tick(store)
    tick(store)  # a second tick labels nothing twice

    labels = sorted(read_labels(store, source="user"), key=lambda label: label.label_time)
    assert [(label.label, label.score, label.note, label.author) for label in labels] == [
        ("hallucinated", 0.0, "it is 14 days for sale items", "u-17"),
        ("grounded", 1.0, "", "u-17"),
    ]
    first = roots[0].get_span_context()
    assert [(label.trace_id, label.span_id) for label in labels] == [
        (format(first.trace_id, "032x"), format(first.span_id, "016x")),
        (format(later.trace_id, "032x"), format(later.span_id, "016x")),
    ]
    started = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=roots[0].start_time // 1000)
    assert labels[0].request_time == started
    assert read_labels(store, source="reviewer") == []
    raw = store.query(f"SELECT count() FROM {store.table('ragpulse_labels')} WHERE Source = 'user'")
    assert raw == [(2,)]
    # A feedback span is not a request: assembly makes none of it, and nothing scores it.
    assert store.query(f"SELECT count() FROM {store.table('ragpulse_requests')}") == [(2,)]


def test_feedback_that_names_no_request_is_refused_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="ragpulse"):
        assert not ragpulse.feedback(0.3)
        assert not ragpulse.feedback(7, trace_id="ab" * 16)
        assert not ragpulse.feedback(1, trace_id="not-a-trace-id")
    assert len(caplog.records) == 3
