"""The foreign-trace tests' collector. Until the collector takes ``/v1/logs`` and ``/v1/metrics`` itself
(the collector's branch adds both), a loopback front passes traces to it, writes log records into
``otel_logs`` as the stock clickhouseexporter maps them, and accepts metrics; once the collector answers
``/v1/logs``, it is used as it is and this front is not started."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from ragpulse_collector.server import CollectorServer
from ragpulse_core.store import Store

LOG_COLUMNS = [
    "Timestamp", "TraceId", "SpanId", "ServiceName", "Body", "ScopeName", "LogAttributes", "EventName",
]  # fmt: skip


def _text(value: AnyValue) -> str:
    """``pcommon.Value.AsString()``: strings as they are, structured values as compact JSON."""
    kind = value.WhichOneof("value")
    if kind == "string_value":
        return value.string_value
    if kind in ("array_value", "kvlist_value"):
        return json.dumps(_plain(value), separators=(",", ":"), ensure_ascii=False)
    if kind == "bool_value":
        return "true" if value.bool_value else "false"
    return "" if kind is None else str(getattr(value, kind))


def _plain(value: AnyValue) -> Any:
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [_plain(item) for item in value.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: _plain(kv.value) for kv in value.kvlist_value.values}
    return None if kind is None else getattr(value, kind)


def _attributes(pairs: Any) -> dict[str, str]:
    return {kv.key: _text(kv.value) for kv in pairs if isinstance(kv, KeyValue)}


def log_rows(body: bytes) -> list[list[Any]]:
    request = ExportLogsServiceRequest()
    request.ParseFromString(body)
    rows = []
    for resource_logs in request.resource_logs:
        service = _attributes(resource_logs.resource.attributes).get("service.name", "")
        for scope_logs in resource_logs.scope_logs:
            for record in scope_logs.log_records:
                attributes = _attributes(record.attributes)
                nanoseconds = record.time_unix_nano or record.observed_time_unix_nano
                at = datetime.fromtimestamp(nanoseconds / 1e9, UTC)
                name = record.event_name or attributes.get("event.name", "")
                ids = (record.trace_id.hex(), record.span_id.hex())
                rows.append([at, *ids, service, _text(record.body), scope_logs.scope.name, attributes, name])
    return rows


class LogsFront:
    """Traces to the collector, logs into ``otel_logs``, metrics accepted and dropped."""

    def __init__(self, collector: CollectorServer, store: Store) -> None:
        self._collector = collector

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                status = 200
                if self.path == "/v1/traces":
                    kind = {"Content-Type": self.headers["Content-Type"]}
                    forwarded = httpx.post(f"{collector.url}/v1/traces", content=body, headers=kind)
                    status, body = forwarded.status_code, forwarded.content
                elif self.path == "/v1/logs":
                    store.insert("otel_logs", log_rows(body), LOG_COLUMNS)
                    body = b""
                elif self.path != "/v1/metrics":
                    status, body = 404, b""
                self.send_response(status)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                return

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._http.server_address[1]}"
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._http.shutdown()
        self._http.server_close()

    def flush(self) -> bool:
        return self._collector.flush()


def _takes_logs(collector: CollectorServer) -> bool:
    answer = httpx.post(
        f"{collector.url}/v1/logs", content=b"", headers={"Content-Type": "application/x-protobuf"}
    )
    return answer.status_code != 404


@pytest.fixture
def collector(collector: CollectorServer, store: Store) -> Iterator[Any]:
    if _takes_logs(collector):
        yield collector
        return
    front = LogsFront(collector, store)
    front.start()
    yield front
    front.stop()
