"""Builders for OTLP requests and a Store double whose writes fail on demand."""

from __future__ import annotations

import http.client
import itertools
import threading
import time
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, ArrayValue, KeyValue, KeyValueList
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord
from opentelemetry.proto.trace.v1.trace_pb2 import Span
from ragpulse_core.store import Store, StoreUnavailable

_ids = itertools.count(1)


def recent_ns(minutes_ago: float = 5) -> int:
    return time.time_ns() - int(minutes_ago * 60 * 1e9)


def any_value(raw: Any) -> AnyValue:
    if isinstance(raw, AnyValue):
        return raw
    if isinstance(raw, str):
        return AnyValue(string_value=raw)
    if isinstance(raw, bool):
        return AnyValue(bool_value=raw)
    if isinstance(raw, int):
        return AnyValue(int_value=raw)
    if isinstance(raw, float):
        return AnyValue(double_value=raw)
    if isinstance(raw, bytes):
        return AnyValue(bytes_value=raw)
    if isinstance(raw, dict):
        return AnyValue(kvlist_value=KeyValueList(values=attributes(raw)))
    return AnyValue(array_value=ArrayValue(values=[any_value(item) for item in raw]))


def attributes(values: dict[str, Any]) -> list[KeyValue]:
    return [KeyValue(key=key, value=any_value(raw)) for key, raw in values.items()]


def make_span(name: str = "step", attrs: dict[str, Any] | None = None, **fields: Any) -> Span:
    """A valid span with unique ids, started five minutes ago, lasting 2 ms; ``fields`` override."""
    serial = next(_ids)
    start = recent_ns()
    values: dict[str, Any] = {
        "trace_id": serial.to_bytes(16, "big"),
        "span_id": serial.to_bytes(8, "big"),
        "name": name,
        "kind": Span.SPAN_KIND_INTERNAL,
        "start_time_unix_nano": start,
        "end_time_unix_nano": start + 2_000_000,
        "attributes": attributes(attrs or {}),
    }
    values.update(fields)
    return Span(**values)


def make_request(
    spans: Sequence[Span], service: str = "svc", resource: dict[str, Any] | None = None
) -> ExportTraceServiceRequest:
    request = ExportTraceServiceRequest()
    resource_spans = request.resource_spans.add()
    resource_spans.resource.attributes.extend(attributes({"service.name": service, **(resource or {})}))
    scope = resource_spans.scope_spans.add()
    scope.scope.name, scope.scope.version = "tests", "1.0"
    scope.spans.extend(spans)
    return request


def make_log_record(body: Any = "", attrs: dict[str, Any] | None = None, **fields: Any) -> LogRecord:
    """A log record of a unique span of a unique trace, five minutes old; ``fields`` override."""
    serial = next(_ids)
    values: dict[str, Any] = {
        "time_unix_nano": recent_ns(),
        "observed_time_unix_nano": recent_ns(),
        "trace_id": serial.to_bytes(16, "big"),
        "span_id": serial.to_bytes(8, "big"),
        "severity_number": 9,
        "severity_text": "INFO",
        "body": any_value(body),
        "attributes": attributes(attrs or {}),
    }
    values.update(fields)
    return LogRecord(**values)


def make_logs_request(
    records: Sequence[LogRecord], service: str = "svc", resource: dict[str, Any] | None = None
) -> ExportLogsServiceRequest:
    request = ExportLogsServiceRequest()
    resource_logs = request.resource_logs.add()
    resource_logs.resource.attributes.extend(attributes({"service.name": service, **(resource or {})}))
    scope = resource_logs.scope_logs.add()
    scope.scope.name, scope.scope.version = "tests", "1.0"
    scope.log_records.extend(records)
    return request


def post(
    url: str,
    body: bytes,
    content_type: str = "application/x-protobuf",
    headers: dict[str, str] | None = None,
    path: str = "/v1/traces",
    method: str = "POST",
) -> tuple[int, dict[str, str], bytes]:
    """One request on a fresh connection: (status, headers, body)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    try:
        connection.request(method, path, body, {"Content-Type": content_type, **(headers or {})})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


class FlakyStore(Store):
    """The real store, except that span inserts fail while ``down`` is set.

    ``lose_acks`` makes an insert go through and then fail anyway, as when a connection drops after the
    server committed: the collector must not write those rows twice.
    """

    def __init__(self, dsn: str) -> None:
        super().__init__(dsn)
        self.down = threading.Event()
        self.lose_acks = False
        self.release = threading.Event()
        self.release.set()
        self.insert_calls = 0

    def insert_columns(
        self, table: str, columns: Any, column_types: Any, *, dedup_token: str | None = None
    ) -> None:
        self.insert_calls += 1
        self.release.wait(30)
        if self.down.is_set():
            if self.lose_acks:
                super().insert_columns(table, columns, column_types, dedup_token=dedup_token)
            raise StoreUnavailable("test double: store is down")
        super().insert_columns(table, columns, column_types, dedup_token=dedup_token)

    def ping(self) -> bool:
        return not self.down.is_set() and super().ping()


def span_count(store: Store) -> tuple[int, int]:
    """(rows, distinct span ids) in otel_traces."""
    rows = store.query(f"SELECT count(), uniqExact(SpanId) FROM {store.table('otel_traces')}")
    return int(rows[0][0]), int(rows[0][1])


def log_count(store: Store) -> int:
    return int(store.query(f"SELECT count() FROM {store.table('otel_logs')}")[0][0])


# The stored signals by path: a body of ``n`` new items, and how many rows their table holds.
STORED_SIGNALS = ("/v1/traces", "/v1/logs")


def export_body(path: str, count: int) -> bytes:
    if path == "/v1/logs":
        return make_logs_request([make_log_record() for _ in range(count)]).SerializeToString()
    return make_request([make_span() for _ in range(count)]).SerializeToString()


def stored_rows(store: Store, path: str) -> int:
    return log_count(store) if path == "/v1/logs" else span_count(store)[0]


def wait_until(predicate: Any, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return bool(predicate())
