"""OpenTelemetry SDK set up the way the SDK's own docs do it: a provider per signal, the stock OTLP/HTTP
exporters, endpoint from ``OTEL_EXPORTER_OTLP_ENDPOINT``. Everything is flushed and shut down on exit."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor


def export_logs(resource: Resource) -> Any:
    """A global LoggerProvider exporting log records (GenAI events among them) over OTLP/HTTP."""
    from opentelemetry._logs import set_logger_provider
    from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import BatchLogRecordProcessor

    provider = LoggerProvider(resource=resource)
    provider.add_log_record_processor(BatchLogRecordProcessor(OTLPLogExporter()))
    set_logger_provider(provider)
    return provider


def export_metrics(resource: Resource) -> Any:
    """A global MeterProvider exporting over OTLP/HTTP (at shutdown, at the latest)."""
    from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
    from opentelemetry.metrics import set_meter_provider
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader

    provider = MeterProvider([PeriodicExportingMetricReader(OTLPMetricExporter())], resource=resource)
    set_meter_provider(provider)
    return provider


@contextmanager
def traced(service: str, logs: bool = False, metrics: bool = False) -> Iterator[TracerProvider]:
    """Global tracer (and, when asked, logger and meter) providers exporting over OTLP/HTTP."""
    resource = Resource.create({"service.name": service})
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    others = [
        export(resource) for export, wanted in ((export_logs, logs), (export_metrics, metrics)) if wanted
    ]
    try:
        yield provider
    finally:
        for each in (provider, *others):
            each.shutdown()
