"""The OTLP/gRPC receiver: the stock OpenTelemetry gRPC exporter lands spans in chDB, and every refusal has
the status code (and RetryInfo) the OTLP spec gives it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import grpc
import pytest
from conftest import StartCollector
from google.rpc import error_details_pb2, status_pb2
from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from otlp_testing import FlakyStore, make_request, make_span, span_count, wait_until
from ragpulse_collector.server import CollectorServer
from ragpulse_core.store import Store

EXPORT = "/opentelemetry.proto.collector.trace.v1.TraceService/Export"


ChannelTo = Callable[[CollectorServer], grpc.Channel]


@pytest.fixture
def channel_to() -> Iterator[ChannelTo]:
    channels: list[grpc.Channel] = []

    def open_channel(server: CollectorServer) -> grpc.Channel:
        channel = grpc.insecure_channel(f"127.0.0.1:{server.grpc_port}")
        channels.append(channel)
        return channel

    yield open_channel
    for channel in channels:
        channel.close()


def _export(
    channel: grpc.Channel,
    body: bytes,
    metadata: tuple[tuple[str, str], ...] = (),
    compression: grpc.Compression = grpc.Compression.NoCompression,
) -> ExportTraceServiceResponse:
    call = channel.unary_unary(EXPORT)
    reply = call(body, metadata=metadata, timeout=30, compression=compression)
    return ExportTraceServiceResponse.FromString(reply)


def _failure(
    channel: grpc.Channel,
    body: bytes,
    metadata: tuple[tuple[str, str], ...] = (),
    compression: grpc.Compression = grpc.Compression.NoCompression,
) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        _export(channel, body, metadata, compression)
    return caught.value


def _retry_delay_s(error: grpc.RpcError) -> int | None:
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                info = error_details_pb2.RetryInfo()
                if detail.Unpack(info):
                    return int(info.retry_delay.seconds)
    return None


@pytest.mark.parametrize("compression", [grpc.Compression.NoCompression, grpc.Compression.Gzip])
def test_stock_grpc_exporter_spans_land_in_otel_traces(
    start_collector: StartCollector, store: Store, compression: grpc.Compression
) -> None:
    server = start_collector(grpc_port=0, auth_token="s3cret")
    provider = TracerProvider(resource=Resource.create({"service.name": "grpc-svc"}))
    exporter = OTLPSpanExporter(
        endpoint=f"127.0.0.1:{server.grpc_port}",
        insecure=True,
        headers={"authorization": "Bearer s3cret"},
        compression=compression,
    )
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("ragpulse", "0.1.0")
    with (
        tracer.start_as_current_span("rag", attributes={"input.value": "Why?"}),
        tracer.start_as_current_span("retrieve"),
    ):
        pass
    provider.shutdown()
    assert server.flush()
    rows = store.query(
        f"SELECT SpanName, ServiceName, SpanAttributes FROM {store.table('otel_traces')} ORDER BY SpanName"
    )
    assert rows == [("rag", "grpc-svc", {"input.value": "Why?"}), ("retrieve", "grpc-svc", {})]


def test_grpc_answers_carry_partial_success_and_refusals_their_codes(
    start_collector: StartCollector, store: Store, channel_to: ChannelTo
) -> None:
    server = start_collector(grpc_port=0, auth_token="s3cret", max_body_bytes=64 * 1024)
    channel = channel_to(server)
    auth = (("authorization", "Bearer s3cret"),)
    body = make_request([make_span(), make_span(span_id=b"\x01")]).SerializeToString()

    response = _export(channel, body, auth)
    assert response.partial_success.rejected_spans == 1
    assert "malformed" in response.partial_success.error_message
    assert _failure(channel, body).code() is grpc.StatusCode.UNAUTHENTICATED
    invalid = _failure(channel, b"\x0a\xff\xff\xff", auth)
    assert invalid.code() is grpc.StatusCode.INVALID_ARGUMENT and _retry_delay_s(invalid) is None
    too_large = _failure(channel, b"\x0a" * (65 * 1024), auth)
    assert too_large.code() is grpc.StatusCode.RESOURCE_EXHAUSTED and _retry_delay_s(too_large) is None
    bomb = make_request([make_span(attrs={"zeros": "0" * (4 << 20)})]).SerializeToString()
    inflated = _failure(channel, bomb, auth, grpc.Compression.Gzip)
    assert inflated.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert span_count(store) == (1, 1)


def test_grpc_full_queue_and_store_outage_are_retryable_with_retry_info(
    start_collector: StartCollector, store: Store, chdb_dsn: str, channel_to: ChannelTo
) -> None:
    flaky = FlakyStore(chdb_dsn)
    flaky.release.clear()  # the writer blocks inside its first insert
    server = start_collector(store_override=flaky, grpc_port=0, queue_max_spans=2, batch_idle_ms=0)
    channel = channel_to(server)
    first = threading.Thread(target=_export, args=(channel, make_request([make_span()]).SerializeToString()))
    first.start()
    assert wait_until(lambda: flaky.insert_calls == 1)
    second = threading.Thread(
        target=_export, args=(channel, make_request([make_span(), make_span()]).SerializeToString())
    )
    second.start()
    assert wait_until(lambda: server.writer.queued_rows == 3)
    full = _failure(channel, make_request([make_span()]).SerializeToString())
    assert full.code() is grpc.StatusCode.RESOURCE_EXHAUSTED and _retry_delay_s(full) == 1
    flaky.release.set()
    first.join()
    second.join()

    flaky.down.set()
    down = _failure(channel, make_request([make_span()]).SerializeToString())
    assert down.code() is grpc.StatusCode.UNAVAILABLE and (_retry_delay_s(down) or 0) >= 1
    flaky.down.clear()
    assert span_count(store) == (3, 3)


def test_grpc_calls_awaiting_acks_hold_no_more_bytes_than_the_budget(
    start_collector: StartCollector, store: Store, chdb_dsn: str, channel_to: ChannelTo
) -> None:
    flaky = FlakyStore(chdb_dsn)
    flaky.release.clear()  # the writer blocks inside its first insert, so the first call keeps its bytes
    held = make_request([make_span(attrs={"pad": "x" * 3000})]).SerializeToString()
    server = start_collector(store_override=flaky, grpc_port=0, max_buffered_bytes=len(held) + 1024)
    channel = channel_to(server)
    first = threading.Thread(target=_export, args=(channel, held))
    first.start()
    assert wait_until(lambda: flaky.insert_calls == 1)

    over = _failure(channel, make_request([make_span(attrs={"pad": "y" * 3000})]).SerializeToString())

    assert over.code() is grpc.StatusCode.RESOURCE_EXHAUSTED and _retry_delay_s(over) == 1
    flaky.release.set()
    first.join()
    assert span_count(store) == (1, 1)
