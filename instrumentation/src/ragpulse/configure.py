"""``configure()``: an OTLP TracerProvider for applications that have none, and the content settings.

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

SYNC_EXPORT_TIMEOUT_S = 1.0
"""The export deadline (retries included) of ``batch=False``, which exports on the decorated call's thread:
with the collector down a call waits at most this long per span instead of the exporter's default 10 s.
An ``OTEL_EXPORTER_OTLP_(TRACES_)TIMEOUT`` variable wins over it."""


def configure(
    service_name: str | None = None,
    endpoint: str | None = None,
    *,
    headers: dict[str, str] | None = None,
    protocol: str | None = None,
    capture_content: bool | None = None,
    max_text_chars: int | None = None,
    redact: Callable[[str], str] | None = None,
    batch: bool = True,
) -> TracerProvider | None:
    """Apply the content settings and, when the application has no TracerProvider, install one.

    Its trace and span ids come from the operating system's entropy, so an application that seeds
    ``random`` does not repeat the ids of its previous run (``ragpulse.ids``).

    The provider exports over OTLP as the standard variables say, like OpenTelemetry's zero-code setup:
    ``OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL`` (``http/protobuf``, the default; ``grpc`` with
    ``ragpulse[grpc]``; ``http/json`` is sent as protobuf, which every OTLP/HTTP receiver takes),
    ``OTEL_EXPORTER_OTLP_ENDPOINT`` (a base URL: ``/v1/traces`` is appended for HTTP) or
    ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` (used as is), ``..._HEADERS``, ``..._TIMEOUT`` (seconds, as the
    Python exporters read it), ``..._COMPRESSION``, ``OTEL_SERVICE_NAME``, ``OTEL_RESOURCE_ATTRIBUTES``,
    ``OTEL_TRACES_EXPORTER`` (``otlp``, ``console``, ``none``) and ``OTEL_SDK_DISABLED``. Arguments win over
    the environment: ``service_name``, ``endpoint`` (a base URL for HTTP; host and port for gRPC),
    ``headers`` and ``protocol``. Content settings fall back to ``RAGPULSE_CAPTURE_CONTENT`` and
    ``RAGPULSE_MAX_TEXT_CHARS``.

    ``batch=False`` exports each span as it ends, on the caller's thread, with a deadline of
    ``SYNC_EXPORT_TIMEOUT_S`` (meant for tests and short scripts); the default batches on a background thread.

    Returns the new provider, or None when ``OTEL_SDK_DISABLED`` is true or a provider was already set (the
    decorators then use that one). Raises ``ValueError`` for ``max_text_chars`` below 1 and for a protocol
    or exporter name it cannot honour.
    """
    apply_settings(capture_content=capture_content, max_text_chars=max_text_chars, redact=redact)
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        logger.info("ragpulse: OTEL_SDK_DISABLED is true; no TracerProvider installed")
        return None
    if not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider):
        logger.info("ragpulse: the application already set a TracerProvider; ragpulse uses it")
        return None
    provider = build_tracer_provider(service_name, endpoint, headers=headers, protocol=protocol, batch=batch)
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
    protocol: str | None = None,
    batch: bool = True,
) -> TracerProvider:
    """The provider ``configure`` installs, without installing it (for tests and for apps that compose)."""
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

    from ragpulse.exporters import span_exporters
    from ragpulse.ids import EntropyIdGenerator

    resource = Resource.create({SERVICE_NAME: service_name} if service_name else {})
    exporters = span_exporters(endpoint, headers, protocol, None if batch else SYNC_EXPORT_TIMEOUT_S)
    provider = TracerProvider(resource=resource, id_generator=EntropyIdGenerator())
    for exporter in exporters:
        provider.add_span_processor(BatchSpanProcessor(exporter) if batch else SimpleSpanProcessor(exporter))
    return provider
