"""The report's step latency: from step rows over short windows, from hourly quantile states over long ones,
and the two agree."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from ragpulse_core.store import Store
from ragpulse_dashboards.report import queries
from ragpulse_dashboards.report.model import LatencyRow

SPAN_COLUMNS = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
                "SpanAttributes", "Duration", "StatusCode"]  # fmt: skip


def test_long_windows_read_hourly_states_that_agree_with_the_rows(store: Store) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    spans: list[list[object]] = []
    for index in range(50):
        trace, root = uuid.uuid4().hex, uuid.uuid4().hex[:16]
        at = now - timedelta(minutes=index)
        kind = {"ragpulse.kind": "rag"}
        total_ns, generate_ns = (400 + 10 * index) * 10**6, 300 * 10**6
        spans.append([at, trace, root, "", "rag fusion", "Server", "svc", kind, total_ns, "Ok"])
        step = uuid.uuid4().hex[:16]
        spans.append([at, trace, step, root, "generate", "Internal", "svc", {}, generate_ns, "Ok"])
    store.insert("otel_traces", spans, SPAN_COLUMNS)

    def latency(since: timedelta) -> dict[str, LatencyRow]:
        params = {"since_ms": int((now - since).timestamp() * 1000), "service": ""}
        return {row.step: row for row in queries.latency(store, params)}

    rows = latency(timedelta(hours=2))
    hourly = latency(queries.HOURLY_LATENCY_AFTER + timedelta(hours=1))
    assert list(rows) == list(hourly) == ["rag", "generate"]
    for step, row in rows.items():
        assert hourly[step].count == row.count == 50
        assert hourly[step].p95_ms == pytest.approx(row.p95_ms, rel=0.02)
        assert hourly[step].p50_ms == pytest.approx(row.p50_ms, rel=0.02)
