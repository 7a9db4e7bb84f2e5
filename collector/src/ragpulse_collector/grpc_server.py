"""The OTLP/gRPC receiver (``TraceService``, ``LogsService`` and ``MetricsService``, port 4317 by
convention), beside the HTTP one.

The same :class:`ExportHandler` decides, so mapping, limits, deduplication and acknowledgement mean the
same on both transports. Status codes follow the OTLP/gRPC spec: ``INVALID_ARGUMENT`` for a payload that
cannot be decoded, ``UNAUTHENTICATED`` for a wrong token (metadata ``authorization: Bearer ...``), and for
what a client should retry, ``RESOURCE_EXHAUSTED`` (queue full) or ``UNAVAILABLE`` (not written) with a
``google.rpc.RetryInfo`` in the status details. A request over the size limits gets ``RESOURCE_EXHAUSTED``
without RetryInfo, which the spec makes non-retryable. A method it does not serve gets ``UNIMPLEMENTED`` with
the methods it does serve.

The method handler takes the raw request bytes (no deserializer), so decoding, its limits and its errors are
the same code as on HTTP.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import error_details_pb2, status_pb2
from ragpulse_core.settings import CollectorSettings

from ragpulse_collector import hints, otlp
from ragpulse_collector.auth import BearerAuth
from ragpulse_collector.exports import (
    HTTP_STATUS,
    HTTP_UNAUTHORIZED,
    RETRY_AFTER_S,
    ExportHandler,
    ExportResult,
    ExportStatus,
)
from ragpulse_collector.metrics import CollectorMetrics
from ragpulse_collector.signals import EXPORT_METHOD, SIGNALS, Signal

logger = logging.getLogger(__name__)

HTTP_NOT_FOUND = 404

GRPC_STATUS: dict[ExportStatus, grpc.StatusCode] = {
    ExportStatus.OK: grpc.StatusCode.OK,
    ExportStatus.INVALID: grpc.StatusCode.INVALID_ARGUMENT,
    ExportStatus.TOO_LARGE: grpc.StatusCode.RESOURCE_EXHAUSTED,
    ExportStatus.QUEUE_FULL: grpc.StatusCode.RESOURCE_EXHAUSTED,
    ExportStatus.UNAVAILABLE: grpc.StatusCode.UNAVAILABLE,
}


@dataclass(frozen=True)
class _Status(grpc.Status):  # type: ignore[misc]
    code: grpc.StatusCode
    details: str
    trailing_metadata: tuple[tuple[str, bytes], ...]


def _status(code: grpc.StatusCode, message: str, retry_after_s: int | None) -> _Status:
    """A status whose details (``grpc-status-details-bin``) carry RetryInfo when the client should retry."""
    detail = status_pb2.Status(code=code.value[0], message=message)
    if retry_after_s is not None:
        packed = any_pb2.Any()
        packed.Pack(error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(seconds=retry_after_s)))
        detail.details.append(packed)
    return _Status(code, message, (("grpc-status-details-bin", detail.SerializeToString()),))


class GrpcReceiver:
    def __init__(
        self, settings: CollectorSettings, exports: ExportHandler, auth: BearerAuth, metrics: CollectorMetrics
    ) -> None:
        assert settings.grpc_port is not None
        self._settings = settings
        self._exports = exports
        self._auth = auth
        self._metrics = metrics
        # Message bytes held by calls awaiting their acks, within the same budget the HTTP receiver keeps.
        self._held_bytes = 0
        self._held_lock = threading.Lock()
        # Each call holds its thread until acknowledged, as an HTTP request awaits its answer.
        self._server = grpc.server(
            ThreadPoolExecutor(settings.max_concurrent_requests, thread_name_prefix="ragpulse-grpc"),
            handlers=[
                *(
                    grpc.method_handlers_generic_handler(
                        signal.grpc_service,
                        {EXPORT_METHOD: grpc.unary_unary_rpc_method_handler(self._exporting(signal))},
                    )
                    for signal in SIGNALS
                ),
                _UnknownMethods(self._unknown_method),
            ],
            options=[
                ("grpc.max_receive_message_length", settings.max_body_bytes),
                ("grpc.so_reuseport", 0),
            ],
            maximum_concurrent_rpcs=settings.max_concurrent_requests * 4,
        )
        self.port = self._server.add_insecure_port(f"{settings.host}:{settings.grpc_port}")
        if self.port == 0:
            raise OSError(f"cannot listen for OTLP/gRPC on {settings.host}:{settings.grpc_port}")

    def start(self) -> None:
        self._server.start()

    def stop(self) -> None:
        self._server.stop(grace=self._settings.ack_timeout_s).wait()

    def _exporting(self, signal: Signal) -> Callable[[bytes, grpc.ServicerContext], bytes]:
        def export(body: bytes, context: grpc.ServicerContext) -> bytes:
            return self._export(signal, body, context)

        return export

    def _export(self, signal: Signal, body: bytes, context: grpc.ServicerContext) -> bytes:
        metadata = dict(context.invocation_metadata())
        if not self._auth.allows(_text(metadata.get("authorization"))):
            self._abort(
                context,
                _status(grpc.StatusCode.UNAUTHENTICATED, "missing or wrong bearer token", None),
                HTTP_UNAUTHORIZED,
            )
        if not self._hold(len(body)):
            self._abort(
                context,
                _status(
                    GRPC_STATUS[ExportStatus.QUEUE_FULL],
                    "too many request bytes held at once; retry later",
                    RETRY_AFTER_S[ExportStatus.QUEUE_FULL],
                ),
                HTTP_STATUS[ExportStatus.QUEUE_FULL],
            )
        try:
            # gRPC has already inflated a compressed message, within max_receive_message_length.
            result = self._exports.export(signal, body, otlp.PROTOBUF, None)
        finally:
            self._release(len(body))
        if result.status is not ExportStatus.OK:
            self._abort(context, self._error_status(result), HTTP_STATUS[result.status])
        self._metrics.count_response(200)
        return otlp.encode_response(signal, otlp.PROTOBUF, result.rejected, result.message)

    @staticmethod
    def _error_status(result: ExportResult) -> _Status:
        return _status(GRPC_STATUS[result.status], result.message, RETRY_AFTER_S.get(result.status))

    def _hold(self, size: int) -> bool:
        with self._held_lock:
            if self._held_bytes + size > self._settings.max_buffered_bytes:
                return False
            self._held_bytes += size
            return True

    def _release(self, size: int) -> None:
        with self._held_lock:
            self._held_bytes -= size

    def _abort(self, context: grpc.ServicerContext, status: _Status, counted_as: int) -> None:
        self._metrics.count_response(counted_as)
        context.abort_with_status(status)

    def _unknown_method(
        self, method: str, requests: Iterator[bytes], context: grpc.ServicerContext
    ) -> Iterator[bytes]:
        """Any call to a method not served: UNIMPLEMENTED naming the ones that are, without reading it."""
        self._abort(
            context,
            _status(grpc.StatusCode.UNIMPLEMENTED, hints.unknown_grpc_method(method), None),
            HTTP_NOT_FOUND,
        )
        yield from ()


UnknownMethodBehaviour = Callable[[str, Iterator[bytes], grpc.ServicerContext], Iterator[bytes]]


class _UnknownMethods(grpc.GenericRpcHandler):  # type: ignore[misc]
    """Last in line: takes every call no service claimed, whatever its cardinality (a streaming handler
    serves unary calls too, and never waits for a request it does not read)."""

    def __init__(self, behaviour: UnknownMethodBehaviour) -> None:
        self._behaviour = behaviour

    def service(self, handler_call_details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
        method = str(handler_call_details.method)

        def answer(requests: Iterator[bytes], context: grpc.ServicerContext) -> Iterator[bytes]:
            return self._behaviour(method, requests, context)

        return grpc.stream_stream_rpc_method_handler(answer)


def _text(value: str | bytes | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value
