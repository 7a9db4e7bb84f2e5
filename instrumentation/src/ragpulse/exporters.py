"""The span exporters the standard ``OTEL_*`` variables describe, for :func:`ragpulse.configure`.

``OTEL_TRACES_EXPORTER`` (``otlp``, ``console``, ``none``; comma-separated) picks them; for OTLP,
``OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`` or ``OTEL_EXPORTER_OTLP_PROTOCOL`` picks the transport. Endpoint,
headers, timeout, compression and TLS files are left to the OpenTelemetry exporters, which read their
variables (the per-signal ``..._TRACES_...`` one first) exactly as zero-code instrumentation does. Imported by
``configure()`` only: it loads the SDK.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SpanExporter

logger = logging.getLogger("ragpulse")

TRACES_PATH = "/v1/traces"
GRPC = "grpc"
HTTP_PROTOBUF = "http/protobuf"
HTTP_JSON = "http/json"
PROTOCOLS = (GRPC, HTTP_PROTOBUF, HTTP_JSON)
PROTOCOL_VARIABLES = ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL")
TIMEOUT_VARIABLES = ("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT")
EXPORTER_VARIABLE = "OTEL_TRACES_EXPORTER"


def span_exporters(
    endpoint: str | None,
    headers: Mapping[str, str] | None,
    protocol: str | None,
    default_timeout_s: float | None,
) -> list[SpanExporter]:
    """The exporters ``OTEL_TRACES_EXPORTER`` names (OTLP when unset); empty for ``none``.

    ``default_timeout_s`` applies only when no timeout variable is set. Raises ``ValueError`` for a value
    ragpulse cannot honour, naming the variable, and for gRPC without its exporter installed.
    """
    names = [name.strip().lower() for name in os.environ.get(EXPORTER_VARIABLE, "otlp").split(",")]
    exporters: list[SpanExporter] = []
    for name in filter(None, names):
        if name == "otlp":
            exporters.append(otlp_exporter(endpoint, headers, protocol, default_timeout_s))
        elif name == "console":
            exporters.append(ConsoleSpanExporter())
        elif name != "none":
            raise ValueError(f"{EXPORTER_VARIABLE}={name!r}: configure() knows otlp, console and none")
    return exporters


def otlp_exporter(
    endpoint: str | None,
    headers: Mapping[str, str] | None,
    protocol: str | None,
    default_timeout_s: float | None,
) -> SpanExporter:
    chosen = (protocol or _first_set(PROTOCOL_VARIABLES) or HTTP_PROTOBUF).strip().lower()
    timeout = None if _first_set(TIMEOUT_VARIABLES) else default_timeout_s
    if chosen == GRPC:
        return _grpc_exporter(endpoint, headers, timeout)
    if chosen == HTTP_JSON:
        logger.warning(
            "ragpulse: the OpenTelemetry Python exporter has no http/json; sending http/protobuf to the same"
            " endpoint (OTLP/HTTP receivers take both)"
        )
    elif chosen != HTTP_PROTOBUF:
        raise ValueError(f"OTLP protocol {chosen!r} is not one of {', '.join(PROTOCOLS)}")
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    return OTLPSpanExporter(
        endpoint=traces_url(endpoint) if endpoint else None, headers=headers, timeout=timeout
    )


def _grpc_exporter(
    endpoint: str | None, headers: Mapping[str, str] | None, timeout: float | None
) -> SpanExporter:
    try:
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
    except ImportError:
        raise ValueError(
            "OTLP over gRPC needs its exporter: pip install 'ragpulse[grpc]'"
            " (opentelemetry-exporter-otlp-proto-grpc), or use protocol http/protobuf"
        ) from None
    return OTLPSpanExporter(endpoint=endpoint, headers=dict(headers) if headers else None, timeout=timeout)


def traces_url(endpoint: str) -> str:
    """An OTLP/HTTP base URL with the traces path, as ``OTEL_EXPORTER_OTLP_ENDPOINT`` is treated."""
    base = endpoint.rstrip("/")
    return base if base.endswith(TRACES_PATH) else base + TRACES_PATH


def _first_set(names: tuple[str, ...]) -> str | None:
    for name in names:
        value = os.environ.get(name, "").strip()
        if value:
            return value
    return None
