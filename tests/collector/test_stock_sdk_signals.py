"""A service exporting all three signals with the stock OpenTelemetry SDK, as zero-code instrumentation does,
over OTLP/HTTP and over OTLP/gRPC: no export fails, nothing is logged as an error, and the spans and logs land
(the metrics are counted and dropped)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from conftest import StartCollector
from opentelemetry.exporter.otlp.proto.grpc._log_exporter import OTLPLogExporter as GrpcLogExporter
from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter as GrpcMetricExporter
from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcSpanExporter
from opentelemetry.exporter.otlp.proto.http import Compression
from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter as HttpLogExporter
from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter as HttpMetricExporter
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter as HttpSpanExporter
from opentelemetry.sdk._logs import LoggerProvider, LoggingHandler
from opentelemetry.sdk._logs.export import LogRecordExportResult, SimpleLogRecordProcessor
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import MetricExportResult, PeriodicExportingMetricReader
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExportResult
from ragpulse_collector.server import CollectorServer
from ragpulse_core.store import Store

# The reader exports when flushed, not on a timer, so the test decides when.
NEVER_MS = 3_600_000


class Results:
    """Every result the exporters returned, by signal."""

    def __init__(self) -> None:
        self.by_signal: dict[str, list[Any]] = {"traces": [], "logs": [], "metrics": []}


def _recording(base: type, signal: str, results: Results) -> type:
    """``base`` (a stock exporter class) that also keeps the result of each export."""

    def export(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = base.export(self, *args, **kwargs)
        results.by_signal[signal].append(result)
        return result

    return type(f"Recording{base.__name__}", (base,), {"export": export})


def _exporters(transport: str, server: CollectorServer, results: Results) -> tuple[Any, Any, Any]:
    if transport == "http":
        options: dict[str, Any] = {"compression": Compression.Gzip}
        return (
            _recording(HttpSpanExporter, "traces", results)(endpoint=f"{server.url}/v1/traces", **options),
            _recording(HttpLogExporter, "logs", results)(endpoint=f"{server.url}/v1/logs", **options),
            _recording(HttpMetricExporter, "metrics", results)(
                endpoint=f"{server.url}/v1/metrics", **options
            ),
        )
    target = {"endpoint": f"127.0.0.1:{server.grpc_port}", "insecure": True}
    return (
        _recording(GrpcSpanExporter, "traces", results)(**target),
        _recording(GrpcLogExporter, "logs", results)(**target),
        _recording(GrpcMetricExporter, "metrics", results)(**target),
    )


@pytest.mark.parametrize("transport", ["http", "grpc"])
def test_stock_sdk_exports_traces_logs_and_metrics_without_an_error(
    transport: str, start_collector: StartCollector, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    server = start_collector(grpc_port=0)
    results = Results()
    span_exporter, log_exporter, metric_exporter = _exporters(transport, server, results)
    resource = Resource.create({"service.name": f"three-signals-{transport}"})
    tracer_provider = TracerProvider(resource=resource)
    tracer_provider.add_span_processor(SimpleSpanProcessor(span_exporter))
    logger_provider = LoggerProvider(resource=resource)
    logger_provider.add_log_record_processor(SimpleLogRecordProcessor(log_exporter))
    reader = PeriodicExportingMetricReader(metric_exporter, export_interval_millis=NEVER_MS)
    meter_provider = MeterProvider(resource=resource, metric_readers=[reader])
    app_log = logging.getLogger(f"rag-app-{transport}")
    app_log.addHandler(LoggingHandler(logger_provider=logger_provider))
    meter = meter_provider.get_meter("rag-app")
    requests = meter.create_counter("rag.requests")
    latency = meter.create_histogram("rag.latency", unit="s")

    with caplog.at_level(logging.DEBUG, logger="opentelemetry"):
        with tracer_provider.get_tracer("rag-app").start_as_current_span("chat") as span:
            logger_provider.get_logger("rag-app").emit(
                event_name="gen_ai.user.message",
                body={"content": "Why is the sky blue?"},
                attributes={"gen_ai.system": "openai"},
            )
            app_log.warning("retrieved %d documents", 3)
            requests.add(1, {"route": "/chat"})
            latency.record(0.25, {"route": "/chat"})
        trace_id = format(span.get_span_context().trace_id, "032x")
        span_id = format(span.get_span_context().span_id, "016x")
        assert meter_provider.force_flush()
        tracer_provider.shutdown()
        logger_provider.shutdown()
        meter_provider.shutdown()

    complaints = [
        record.getMessage()
        for record in caplog.records
        if record.name.startswith("opentelemetry") and record.levelno >= logging.WARNING
    ]
    assert complaints == []
    assert results.by_signal["traces"] and set(results.by_signal["traces"]) == {SpanExportResult.SUCCESS}
    assert results.by_signal["logs"] and set(results.by_signal["logs"]) == {LogRecordExportResult.SUCCESS}
    assert results.by_signal["metrics"] and set(results.by_signal["metrics"]) == {MetricExportResult.SUCCESS}

    assert server.flush()
    assert store.query(
        f"SELECT SpanName, ServiceName FROM {store.table('otel_traces')} WHERE TraceId = {{t:String}}",
        {"t": trace_id},
    ) == [("chat", f"three-signals-{transport}")]
    logs = store.query_dicts(
        f"SELECT SpanId, EventName, Body, SeverityText, ServiceName FROM {store.table('otel_logs')}"
        " WHERE TraceId = {t:String} ORDER BY EventName",
        {"t": trace_id},
    )
    assert logs == [
        {
            "SpanId": span_id,
            "EventName": "",
            "Body": "retrieved 3 documents",
            "SeverityText": "WARN",
            "ServiceName": f"three-signals-{transport}",
        },
        {
            "SpanId": span_id,
            "EventName": "gen_ai.user.message",
            "Body": '{"content":"Why is the sky blue?"}',
            "SeverityText": "",
            "ServiceName": f"three-signals-{transport}",
        },
    ]
    assert server.metrics.value("metric_data_points_dropped_total") >= 2
