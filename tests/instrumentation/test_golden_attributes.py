"""The decorators record what they recorded before their path was made faster: every span, every attribute,
in the order set, each value byte for byte (see golden_attributes.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from golden_attributes import GOLDEN, SCENARIOS, record
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter


def _ordered(spans: list[dict[str, Any]]) -> list[tuple[str, list[tuple[str, Any]]]]:
    return [(span["name"], list(span["attributes"].items())) for span in spans]


@pytest.fixture
def recorded(span_exporter: InMemorySpanExporter) -> dict[str, list[dict[str, Any]]]:
    # After the autouse clean_state (settings from a clean environment); round-tripped through JSON as the
    # golden file was, so tuples and lists compare alike.
    return json.loads(json.dumps(record(span_exporter), ensure_ascii=False))


@pytest.mark.parametrize("scenario", [name for name, _, _ in SCENARIOS])
def test_every_span_carries_the_golden_attributes(
    scenario: str, recorded: dict[str, list[dict[str, Any]]]
) -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert _ordered(recorded[scenario]) == _ordered(golden[scenario])
