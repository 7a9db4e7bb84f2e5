"""OTLP/HTTP trace payloads: decompress within a size limit, decode protobuf or OTLP JSON, encode replies."""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from google.rpc import status_pb2
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

PROTOBUF = "application/x-protobuf"
JSON = "application/json"
SUPPORTED_CONTENT_TYPES = (PROTOBUF, JSON)

# google.rpc.Code values used in error bodies.
RPC_INVALID_ARGUMENT = 3
RPC_RESOURCE_EXHAUSTED = 8
RPC_UNAVAILABLE = 14
RPC_UNAUTHENTICATED = 16


class PayloadError(ValueError):
    """The body cannot be decoded (400)."""


class PayloadTooLarge(ValueError):
    """The body, compressed or decompressed, is over the configured limit (413)."""


class UnsupportedMediaType(ValueError):
    """Neither protobuf nor JSON (415)."""


def media_type(content_type: str | None) -> str:
    """``application/json; charset=utf-8`` -> ``application/json``; raises for types OTLP does not define."""
    kind = (content_type or "").split(";", 1)[0].strip().lower()
    if kind not in SUPPORTED_CONTENT_TYPES:
        raise UnsupportedMediaType(
            f"unsupported content type {content_type!r}; use {' or '.join(SUPPORTED_CONTENT_TYPES)}"
        )
    return kind


def decompress(body: bytes, content_encoding: str | None, max_bytes: int) -> bytes:
    """The body without its content encoding, never inflating more than ``max_bytes`` (no gzip bombs)."""
    encoding = (content_encoding or "identity").strip().lower()
    if encoding == "identity":
        return body
    if encoding not in ("gzip", "deflate"):
        raise PayloadError(f"unsupported content encoding {content_encoding!r}; use gzip or none")
    # wbits: 16+ for the gzip wrapper, plain for zlib-wrapped deflate.
    inflater = zlib.decompressobj(wbits=zlib.MAX_WBITS | 16 if encoding == "gzip" else zlib.MAX_WBITS)
    try:
        inflated = inflater.decompress(body, max_bytes + 1)
    except zlib.error as exc:
        raise PayloadError(f"body is not valid {encoding}: {exc}") from exc
    if len(inflated) > max_bytes:
        raise PayloadTooLarge(f"decompressed body exceeds {max_bytes} bytes")
    if not inflater.eof:
        raise PayloadError(f"truncated {encoding} body")
    return inflated


def decode_request(body: bytes, kind: str) -> ExportTraceServiceRequest:
    if kind == PROTOBUF:
        request = ExportTraceServiceRequest()
        try:
            request.ParseFromString(body)
        except (DecodeError, RecursionError) as exc:
            raise PayloadError(f"body is not a protobuf ExportTraceServiceRequest: {exc}") from exc
        return request
    return decode_json_request(body)


def decode_json_request(body: bytes) -> ExportTraceServiceRequest:
    """OTLP JSON: like proto3 JSON except that trace and span ids are hex, not base64."""
    try:
        document = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PayloadError(f"body is not JSON: {exc}") from exc
    except RecursionError as exc:
        raise PayloadError("body is JSON nested too deeply for an OTLP request") from exc
    if not isinstance(document, dict):
        raise PayloadError("body must be a JSON object")
    try:
        for resource_spans in _objects(document, "resourceSpans", "resource_spans"):
            for scope_spans in _objects(resource_spans, "scopeSpans", "scope_spans"):
                for span in _objects(scope_spans, "spans"):
                    _hex_ids_to_base64(
                        span, ("traceId", "trace_id", "spanId", "span_id", "parentSpanId", "parent_span_id")
                    )
                    for link in _objects(span, "links"):
                        _hex_ids_to_base64(link, ("traceId", "trace_id", "spanId", "span_id"))
        # OTLP receivers must ignore fields they do not know (newer senders add some).
        request = ExportTraceServiceRequest()
        json_format.ParseDict(document, request, ignore_unknown_fields=True)
        return request
    except (json_format.ParseError, TypeError, ValueError, RecursionError) as exc:
        raise PayloadError(f"body is not an OTLP JSON ExportTraceServiceRequest: {exc}") from exc


def _objects(parent: dict[str, Any], *names: str) -> list[dict[str, Any]]:
    for name in names:
        value = parent.get(name)
        if value is not None:
            if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
                raise PayloadError(f"{name} must be an array of objects")
            return value
    return []


def _hex_ids_to_base64(holder: dict[str, Any], names: tuple[str, ...]) -> None:
    for name in names:
        value = holder.get(name)
        if value is None:
            continue
        if not isinstance(value, str):
            raise PayloadError(f"{name} must be a hex string")
        try:
            holder[name] = base64.b64encode(bytes.fromhex(value)).decode("ascii")
        except ValueError as exc:
            raise PayloadError(f"{name} {value!r} is not hex") from exc


def expanded_size(request: ExportTraceServiceRequest, encoded_bytes: int) -> tuple[int, int]:
    """(spans, estimated bytes of their rows): the spans as encoded, plus their resource's and scope's
    attributes repeated on each row.

    Cheap (the sizes of resources and scopes only, no mapping), so a request that would balloon is refused
    before any work.
    """
    spans = 0
    size = encoded_bytes
    for resource_spans in request.resource_spans:
        shared = resource_spans.resource.ByteSize()
        for scope_spans in resource_spans.scope_spans:
            count = len(scope_spans.spans)
            spans += count
            size += (shared + scope_spans.scope.ByteSize()) * count
    return spans, size


def encode_response(kind: str, rejected: int = 0, error_message: str = "") -> bytes:
    response = ExportTraceServiceResponse()
    if rejected or error_message:
        response.partial_success.rejected_spans = rejected
        response.partial_success.error_message = error_message
    if kind == JSON:
        return _to_json(response)
    return bytes(response.SerializeToString())


def encode_status(kind: str, code: int, message: str) -> bytes:
    """A ``google.rpc.Status`` error body, in the request's encoding (protobuf when it had none we know)."""
    status = status_pb2.Status(code=code, message=message)
    if kind == JSON:
        return _to_json(status)
    return bytes(status.SerializeToString())


def _to_json(message: Message) -> bytes:
    return str(json_format.MessageToJson(message, indent=None)).encode()
