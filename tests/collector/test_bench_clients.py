"""bench_collector's two clients send the same spans: the stock exporter's encoding of the SDK spans the
benchmark builds holds what the pre-encoded bodies hold, in about as many bytes, so the two throughputs it
prints side by side differ only by who encodes and how."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_collector

# The stock encoder also writes each span's W3C trace flags, a few bytes a span.
SIZE_TOLERANCE = 0.05


def _spans(request: ExportTraceServiceRequest) -> list[tuple[Any, ...]]:
    return [
        (
            tuple((kv.key, kv.value.SerializeToString()) for kv in resource_spans.resource.attributes),
            scope_spans.scope.name,
            scope_spans.scope.version,
            span.trace_id,
            span.span_id,
            span.parent_span_id,
            span.name,
            span.kind,
            span.start_time_unix_nano,
            span.end_time_unix_nano,
            sorted((kv.key, kv.value.SerializeToString()) for kv in span.attributes),
        )
        for resource_spans in request.resource_spans
        for scope_spans in resource_spans.scope_spans
        for span in scope_spans.spans
    ]


@pytest.mark.parametrize("mix", sorted(bench_collector.MIXES))
def test_the_stock_client_sends_the_spans_of_the_raw_bodies(mix: str) -> None:
    (body,) = bench_collector.build_bodies(1, 60, seed=3, mix=mix)
    stock = encode_spans(bench_collector.readable_spans(body))
    raw = ExportTraceServiceRequest.FromString(body)
    assert _spans(stock) == _spans(raw)
    assert len(_spans(raw)) >= 50
    stock_size = len(stock.SerializeToString())
    assert abs(stock_size - len(body)) <= SIZE_TOLERANCE * len(body)
