"""The standard ``OTEL_EXPORTER_OTLP_*`` variables as defaults of ``[export]``: the logs-specific one first,
then the general one, as the OTel specification orders them."""

from __future__ import annotations

import logging
import os
from typing import Literal
from urllib.parse import unquote

logger = logging.getLogger(__name__)

OtlpProtocol = Literal["http/protobuf", "grpc"]
DEFAULT_PROTOCOL: OtlpProtocol = "http/protobuf"
DEFAULT_TIMEOUT_S = 10.0


def _variable(name: str) -> str | None:
    value = os.environ.get(f"OTEL_EXPORTER_OTLP_LOGS_{name}") or os.environ.get(f"OTEL_EXPORTER_OTLP_{name}")
    return value.strip() if value and value.strip() else None


def env_protocol() -> OtlpProtocol:
    """Another value (``http/json``) is handed on as it is, so the settings' error names it."""
    value = _variable("PROTOCOL")
    return DEFAULT_PROTOCOL if value is None else value  # type: ignore[return-value]


def env_headers() -> dict[str, str]:
    """``key=value`` pairs separated by commas, values percent-encoded (the W3C Baggage format)."""
    value = _variable("HEADERS")
    headers: dict[str, str] = {}
    for pair in (value or "").split(","):
        name, sep, content = pair.partition("=")
        if not sep or not name.strip():
            if pair.strip():
                logger.warning("OTEL_EXPORTER_OTLP_HEADERS: %r is not key=value; left out", pair.strip())
            continue
        headers[unquote(name.strip()).lower()] = unquote(content.strip())
    return headers


def env_timeout_s() -> float:
    """The specification's unit is milliseconds (Python's own exporters read seconds, against it)."""
    value = _variable("TIMEOUT")
    if value is None:
        return DEFAULT_TIMEOUT_S
    try:
        milliseconds = float(value)
    except ValueError:
        logger.warning("OTEL_EXPORTER_OTLP_TIMEOUT=%r is not a number of milliseconds; using 10 s", value)
        return DEFAULT_TIMEOUT_S
    return milliseconds / 1000.0 if milliseconds > 0 else DEFAULT_TIMEOUT_S


def env_compression() -> Literal["none", "gzip"]:
    return "gzip" if (_variable("COMPRESSION") or "").lower() == "gzip" else "none"
