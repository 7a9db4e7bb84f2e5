"""The OTLP/HTTP trace receiver: ``POST /v1/traces``, ``GET /healthz``, ``GET /metrics``.

Status codes follow the OTLP/HTTP spec, so stock exporters retry exactly what is worth retrying: 200 (with
``partial_success`` for refused spans), 400 for a body that cannot be decoded, 413 when too large, 415 for
an unknown content type, 401 for a missing or wrong bearer token, and 429/503 with ``Retry-After`` when the
write queue is full or the store is down with no spool room left.
"""

from __future__ import annotations

import gc
import hmac
import json
import logging
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store

from ragpulse_collector import otlp
from ragpulse_collector.mapping import map_request
from ragpulse_collector.metrics import CollectorMetrics
from ragpulse_collector.spool import Spool
from ragpulse_collector.writer import BatchWriter, QueueFull, WriteFailed

logger = logging.getLogger(__name__)

TRACES_PATH = "/v1/traces"
RETRY_AFTER_QUEUE_FULL_S = 1
RETRY_AFTER_UNAVAILABLE_S = 5


# Mapping allocates a few dozen short-lived, GC-tracked objects per span (protobuf wrappers, dicts, lists),
# so with CPython's default gen0 threshold of 700 a collection runs every couple of dozen spans.
COLLECTOR_GC_THRESHOLD = (50_000, 20, 20)


class _RequestTooLarge(Exception):
    pass


def tune_gc_for_collector() -> None:
    """Tune the garbage collector for a process whose main job is collecting spans.

    Freezes everything allocated so far (modules, the store's client) so collections stop rescanning it, and
    raises the collection thresholds. It changes process-wide state, so the ``collector`` command and the
    benchmark call it explicitly; embedding a :class:`CollectorServer` does not.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_GC_THRESHOLD)


class CollectorServer:
    """The receiver and its writer; ``start()`` serves in background threads."""

    def __init__(self, settings: RagpulseSettings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.metrics = CollectorMetrics()
        collector = settings.collector
        self.spool = Spool(collector.spool_dir, collector.spool_max_bytes) if collector.spool_dir else None
        self.writer = BatchWriter(store, collector, self.spool, self.metrics)
        self.metrics.gauge(
            "queue_spans", "Spans accepted and not yet written or spooled", lambda: self.writer.queued_spans
        )
        self.metrics.gauge(
            "spool_batches", "Batches waiting in the spool", lambda: len(self.spool) if self.spool else 0
        )
        self.metrics.gauge(
            "spool_bytes", "Bytes in the spool", lambda: self.spool.size_bytes if self.spool else 0
        )
        self.metrics.gauge(
            "store_reachable",
            "1 when the last write reached the store",
            lambda: int(self.writer.store_reachable),
        )
        self._http: ThreadingHTTPServer | None = None
        self._serving: threading.Thread | None = None
        self._stopped = threading.Event()
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        if self._http is None:
            raise RuntimeError("the collector is not started")
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> None:
        """Listen, and start the writer (which replays any spool in the background)."""
        with self._lock:
            if self._http is not None:
                return
            collector = self.settings.collector
            self._http = ThreadingHTTPServer((collector.host, collector.port), _handler_class(self))
            self._http.daemon_threads = True
            self.writer.start()
            self._serving = threading.Thread(
                target=self._http.serve_forever, name="ragpulse-http", daemon=True
            )
            self._serving.start()
        logger.info("collector listening on %s%s", self.url, TRACES_PATH)

    def tune_process(self) -> None:
        tune_gc_for_collector()

    def flush(self, timeout: float = 10.0) -> bool:
        return self.writer.flush(timeout)

    def stop(self) -> None:
        with self._lock:
            if self._http is None or self._stopped.is_set():
                return
            self._http.shutdown()
            self._http.server_close()
            self.writer.stop(timeout=self.settings.collector.ack_timeout_s)
            self._stopped.set()

    def serve_forever(self) -> None:
        self.start()
        try:
            self._stopped.wait()
        finally:
            self.stop()

    def health(self) -> tuple[bool, dict[str, Any]]:
        reachable = self.store.ping()
        spool_batches = len(self.spool) if self.spool else 0
        report = {
            "ok": reachable or self.spool is not None,
            "store_reachable": reachable,
            "queue_spans": self.writer.queued_spans,
            "spool_batches": spool_batches,
            "spool_bytes": self.spool.size_bytes if self.spool else 0,
        }
        return bool(report["ok"]), report

    def authorized(self, header: str | None) -> bool:
        token = self.settings.collector.auth_token
        if token is None:
            return True
        expected = f"Bearer {token.get_secret_value()}".encode()
        return hmac.compare_digest((header or "").encode(), expected)

    def export(self, body: bytes, kind: str) -> tuple[int, bytes, dict[str, str]]:
        """One decoded POST body to (status, response body, extra headers)."""
        request = otlp.decode_request(body, kind)
        mapped = map_request(request)
        received = len(mapped.spans) + mapped.rejected
        self.metrics.add("spans_received_total", received)
        if mapped.rejected:
            self.metrics.add("spans_rejected_total", mapped.rejected)
        if len(mapped.spans):
            try:
                self.writer.submit(mapped.spans).wait(self.settings.collector.ack_timeout_s)
            except QueueFull as exc:
                message = f"write queue full ({exc}); retry later"
                return (
                    429,
                    otlp.encode_status(kind, otlp.RPC_RESOURCE_EXHAUSTED, message),
                    {"Retry-After": str(RETRY_AFTER_QUEUE_FULL_S)},
                )
            except WriteFailed as exc:
                return (
                    503,
                    otlp.encode_status(kind, otlp.RPC_UNAVAILABLE, str(exc)),
                    {"Retry-After": str(RETRY_AFTER_UNAVAILABLE_S)},
                )
        return 200, otlp.encode_response(kind, mapped.rejected, mapped.rejection_reason), {}


def _handler_class(server: CollectorServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_OtlpHandler):
        collector = server

    return Handler


class _OtlpHandler(BaseHTTPRequestHandler):
    collector: CollectorServer
    protocol_version = "HTTP/1.1"
    server_version = "ragpulse-collector"
    # An idle keep-alive connection gives its thread back after this long.
    timeout = 60

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("%s " + format, self.address_string(), *args)

    def do_GET(self) -> None:
        if self.path == "/healthz":
            ok, report = self.collector.health()
            self._reply(200 if ok else 503, json.dumps(report).encode(), "application/json")
        elif self.path == "/metrics":
            self._reply(
                200, self.collector.metrics.render().encode(), "text/plain; version=0.0.4; charset=utf-8"
            )
        elif self.path == TRACES_PATH:
            self._reply(405, b"use POST\n", "text/plain", {"Allow": "POST"})
        else:
            self._reply(404, b"not found\n", "text/plain")

    def do_POST(self) -> None:
        if self.path.split("?", 1)[0] != TRACES_PATH:
            self._discard_body()
            self._reply(404, b"not found\n", "text/plain")
            return
        try:
            kind, unsupported = otlp.media_type(self.headers.get("Content-Type")), None
        except otlp.UnsupportedMediaType as exc:
            kind, unsupported = otlp.PROTOBUF, exc
        if not self.collector.authorized(self.headers.get("Authorization")):
            self.close_connection = True
            self._error(
                401,
                kind,
                otlp.RPC_UNAUTHENTICATED,
                "missing or wrong bearer token",
                {"WWW-Authenticate": "Bearer"},
            )
            return
        if unsupported is not None:
            self.close_connection = True
            self._error(415, kind, otlp.RPC_INVALID_ARGUMENT, str(unsupported))
            return
        try:
            body = self._read_body(self.collector.settings.collector.max_body_bytes)
            body = otlp.decompress(
                body, self.headers.get("Content-Encoding"), self.collector.settings.collector.max_body_bytes
            )
            status, payload, headers = self.collector.export(body, kind)
        except (_RequestTooLarge, otlp.PayloadTooLarge) as exc:
            self.close_connection = True
            self._error(413, kind, otlp.RPC_INVALID_ARGUMENT, str(exc))
            return
        except otlp.PayloadError as exc:
            self._error(400, kind, otlp.RPC_INVALID_ARGUMENT, str(exc))
            return
        self.collector.metrics.count_response(status)
        self._reply(status, payload, kind, headers)

    def do_PUT(self) -> None:
        self._discard_body()
        self._reply(405, b"use POST\n", "text/plain", {"Allow": "POST"})

    do_DELETE = do_PATCH = do_PUT

    def _read_body(self, limit: int) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self._read_chunked(limit)
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError as exc:
            raise otlp.PayloadError("invalid Content-Length") from exc
        if length > limit:
            raise _RequestTooLarge(f"body of {length} bytes exceeds {limit} bytes")
        return self.rfile.read(length) if length > 0 else b""

    def _read_chunked(self, limit: int) -> bytes:
        parts: list[bytes] = []
        total = 0
        while True:
            line = self.rfile.readline(65537)
            try:
                size = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError as exc:
                raise otlp.PayloadError("malformed chunked body") from exc
            if size == 0:
                while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                    pass
                return b"".join(parts)
            total += size
            if total > limit:
                raise _RequestTooLarge(f"body exceeds {limit} bytes")
            parts.append(self.rfile.read(size))
            self.rfile.readline(3)

    def _discard_body(self) -> None:
        try:
            self._read_body(self.collector.settings.collector.max_body_bytes)
        except (_RequestTooLarge, otlp.PayloadError):
            self.close_connection = True

    def _error(
        self, status: int, kind: str, rpc_code: int, message: str, headers: dict[str, str] | None = None
    ) -> None:
        self.collector.metrics.count_response(status)
        self._reply(status, otlp.encode_status(kind, rpc_code, message), kind, headers)

    def _reply(
        self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status, HTTPStatus(status).phrase)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
