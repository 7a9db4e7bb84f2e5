"""The three OTLP signals, and what the collector does with each: traces and logs are stored, metrics are
decoded, counted and dropped (ragpulse reads no metrics; a stock SDK exports them beside traces and must not
see errors for it).

A :class:`Signal` holds everything that differs between them (paths, message types, where ids sit in OTLP
JSON, how rows are mapped), so decoding, admission, acknowledgement and answers are one code path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import Message
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import (
    ExportLogsServiceRequest,
    ExportLogsServiceResponse,
)
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

from ragpulse_collector.log_mapping import map_log_records
from ragpulse_collector.mapping import map_spans
from ragpulse_collector.tables import LOG_RECORDS, SPANS, Layout, Mapped

EXPORT_METHOD = "Export"


@dataclass(frozen=True)
class JsonIds:
    """Where one item in OTLP JSON carries ids as hex (proto3 JSON would have base64): its id fields, and the
    objects below it that carry more, by their camelCase names (snake_case is accepted too)."""

    ids: tuple[str, ...] = ()
    below: dict[str, JsonIds] = field(default_factory=dict)


_CONTEXT_IDS = JsonIds(("traceId", "spanId"))
_EXEMPLARS = JsonIds(below={"dataPoints": JsonIds(below={"exemplars": _CONTEXT_IDS})})


@dataclass(frozen=True)
class Storage:
    """Where a stored signal's items go, and how one request becomes rows."""

    layout: Layout
    map: Callable[[Any], Mapped]


@dataclass(frozen=True)
class Signal:
    name: str
    path: str
    grpc_service: str
    request_type: type[Message]
    response_type: type[Message]
    # The ExportXPartialSuccess field counting what was refused.
    rejected_field: str
    # The repeated fields leading from a request to its items: resource, scope, item.
    nesting: tuple[str, str, str]
    item_json_ids: JsonIds
    # None for a signal that is validated and dropped.
    storage: Storage | None

    @property
    def grpc_method(self) -> str:
        return f"/{self.grpc_service}/{EXPORT_METHOD}"


TRACES = Signal(
    name="traces",
    path="/v1/traces",
    grpc_service="opentelemetry.proto.collector.trace.v1.TraceService",
    request_type=ExportTraceServiceRequest,
    response_type=ExportTraceServiceResponse,
    rejected_field="rejected_spans",
    nesting=("resource_spans", "scope_spans", "spans"),
    item_json_ids=JsonIds(("traceId", "spanId", "parentSpanId"), {"links": _CONTEXT_IDS}),
    storage=Storage(SPANS, map_spans),
)
LOGS = Signal(
    name="logs",
    path="/v1/logs",
    grpc_service="opentelemetry.proto.collector.logs.v1.LogsService",
    request_type=ExportLogsServiceRequest,
    response_type=ExportLogsServiceResponse,
    rejected_field="rejected_log_records",
    nesting=("resource_logs", "scope_logs", "log_records"),
    item_json_ids=_CONTEXT_IDS,
    storage=Storage(LOG_RECORDS, map_log_records),
)
METRICS = Signal(
    name="metrics",
    path="/v1/metrics",
    grpc_service="opentelemetry.proto.collector.metrics.v1.MetricsService",
    request_type=ExportMetricsServiceRequest,
    response_type=ExportMetricsServiceResponse,
    rejected_field="rejected_data_points",
    nesting=("resource_metrics", "scope_metrics", "metrics"),
    item_json_ids=JsonIds(
        below={kind: _EXEMPLARS for kind in ("gauge", "sum", "histogram", "exponentialHistogram")}
    ),
    storage=None,
)
SIGNALS: tuple[Signal, ...] = (TRACES, LOGS, METRICS)


def expanded_size(signal: Signal, request: Any, encoded_bytes: int) -> tuple[int, int]:
    """(items, estimated bytes of their rows): the items as encoded, plus their resource's and scope's
    attributes repeated on each row.

    Cheap (the sizes of resources and scopes only, no mapping), so a request that would balloon is refused
    before any work.
    """
    resources_field, scopes_field, items_field = signal.nesting
    items = 0
    size = encoded_bytes
    for resource_items in getattr(request, resources_field):
        shared = resource_items.resource.ByteSize()
        for scope_items in getattr(resource_items, scopes_field):
            count = len(getattr(scope_items, items_field))
            items += count
            size += (shared + scope_items.scope.ByteSize()) * count
    return items, size


def data_points(request: ExportMetricsServiceRequest) -> int:
    """How many data points a metrics request carries, whatever their kind."""
    count = 0
    for resource_metrics in request.resource_metrics:
        for scope_metrics in resource_metrics.scope_metrics:
            for metric in scope_metrics.metrics:
                kind = metric.WhichOneof("data")
                if kind is not None:
                    count += len(getattr(metric, kind).data_points)
    return count
