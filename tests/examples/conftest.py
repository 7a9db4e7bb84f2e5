"""Spans of the example service, from the session's in-memory `span_exporter` (tests/conftest.py)."""

from __future__ import annotations

import pytest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter


@pytest.fixture
def exporter(span_exporter: InMemorySpanExporter) -> InMemorySpanExporter:
    """Holds the spans finished during this test."""
    span_exporter.clear()
    return span_exporter
