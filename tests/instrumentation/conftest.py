"""Spans land in the session's in-memory exporter (``span_exporter`` in tests/conftest.py), emptied before
each test; content settings go back to their defaults before each test too.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse.settings import ENV_CAPTURE_CONTENT, ENV_MAX_TEXT_CHARS, apply_settings
from span_capture import Spans


@pytest.fixture
def spans(span_exporter: InMemorySpanExporter) -> Spans:
    return Spans(span_exporter)


@pytest.fixture(autouse=True)
def clean_state(span_exporter: InMemorySpanExporter, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv(ENV_CAPTURE_CONTENT, raising=False)
    monkeypatch.delenv(ENV_MAX_TEXT_CHARS, raising=False)
    apply_settings()
    span_exporter.clear()
    yield
    apply_settings()
