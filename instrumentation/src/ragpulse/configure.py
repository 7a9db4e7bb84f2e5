"""``configure()``: an OTLP/HTTP TracerProvider for applications that have none, and the content settings.

The SDK and the exporter are imported when ``configure()`` runs, not with ``ragpulse``: an application (or a
library) that only decorates pays for the OpenTelemetry API alone.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from opentelemetry import trace

from ragpulse.settings import apply_settings

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider

logger = logging.getLogger("ragpulse")

TRACES_PATH = "/v1/traces"
SYNC_EXPORT_TIMEOUT_S = 1.0
"""The export deadline (retries included) of ``batch=False``, which exports on the decorated call's thread:
with the collector down a call waits at most this long per span instead of the exporter's default 10 s."""


def configure(
    service_name: str | None = None,
    endpoint: str | None = None,
    *,
    headers: dict[str, str] | None = None,
    capture_content: bool | None = None,
    max_text_chars: int | None = None,
    redact: Callable[[str], str] | None = None,
    batch: bool = True,
) -> TracerProvider | None:
    """Apply the content settings and, when the application has no TracerProvider, install one.

    The provider exports over OTLP/HTTP (protobuf). Arguments win over the environment: ``service_name``
    over ``OTEL_SERVICE_NAME``, ``endpoint`` (a base URL; ``/v1/traces`` is appended when missing) over
    ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``/``OTEL_EXPORTER_OTLP_ENDPOINT``, ``headers`` over
    ``OTEL_EXPORTER_OTLP_HEADERS``; ``OTEL_RESOURCE_ATTRIBUTES`` adds resource attributes. Content settings
    fall back to ``RAGPULSE_CAPTURE_CONTENT`` and ``RAGPULSE_MAX_TEXT_CHARS``.

    ``batch=False`` exports each span as it ends, on the caller's thread, with a deadline of
    ``SYNC_EXPORT_TIMEOUT_S`` (meant for tests and short scripts); the default batches on a background thread.

    Returns the new provider, or None when ``OTEL_SDK_DISABLED`` is true or a provider was already set (the
    decorators then use that one). Raises ``ValueError`` for ``max_text_chars`` below 1.
    """
    apply_settings(capture_content=capture_content, max_text_chars=max_text_chars, redact=redact)
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        logger.info("ragpulse: OTEL_SDK_DISABLED is true; no TracerProvider installed")
        return None
    if not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider):
        logger.info("ragpulse: the application already set a TracerProvider; ragpulse uses it")
        return None
    provider = build_tracer_provider(service_name, endpoint, headers=headers, batch=batch)
    trace.set_tracer_provider(provider)
    if trace.get_tracer_provider() is not provider:
        # Another thread won the one-time global set; ours would export nothing.
        provider.shutdown()
        return None
    return provider


def build_tracer_provider(
    service_name: str | None = None,
    endpoint: str | None = None,
    *,
    headers: dict[str, str] | None = None,
    batch: bool = True,
) -> TracerProvider:
    """The provider ``configure`` installs, without installing it (for tests and for apps that compose)."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

    resource = Resource.create({SERVICE_NAME: service_name} if service_name else {})
    exporter = OTLPSpanExporter(
        endpoint=traces_url(endpoint) if endpoint else None,
        headers=headers,
        timeout=None if batch else SYNC_EXPORT_TIMEOUT_S,
    )
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(exporter) if batch else SimpleSpanProcessor(exporter))
    return provider


def traces_url(endpoint: str) -> str:
    base = endpoint.rstrip("/")
    return base if base.endswith(TRACES_PATH) else base + TRACES_PATH
