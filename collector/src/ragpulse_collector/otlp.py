"""OTLP/HTTP payloads of any signal: decompress within a size limit, decode protobuf or OTLP JSON, encode
replies."""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from google.rpc import status_pb2

from ragpulse_collector.signals import JsonIds, Signal

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


def decode_request(body: bytes, kind: str, signal: Signal) -> Any:
    """The body as the signal's export request (``ExportTraceServiceRequest``...)."""
    if kind == PROTOBUF:
        request = signal.request_type()
        try:
            request.ParseFromString(body)
        except (DecodeError, RecursionError) as exc:
            raise PayloadError(f"body is not a protobuf {_type_name(signal)}: {exc}") from exc
        return request
    return decode_json_request(body, signal)


def decode_json_request(body: bytes, signal: Signal) -> Any:
    """OTLP JSON: like proto3 JSON except that trace and span ids are hex, not base64."""
    try:
        document = json.loads(body)
    except RecursionError as exc:
        raise PayloadError("body is JSON nested too deeply for an OTLP request") from exc
    except ValueError as exc:  # not JSON, not UTF-8, or a number of more digits than Python converts
        raise PayloadError(f"body is not usable JSON: {str(exc)[:200]}") from exc
    if not isinstance(document, dict):
        raise PayloadError("body must be a JSON object")
    try:
        resources, scopes, items = (_camel(name) for name in signal.nesting)
        for resource_items in _objects(document, resources):
            for scope_items in _objects(resource_items, scopes):
                for item in _objects(scope_items, items):
                    _hex_ids_to_base64(item, signal.item_json_ids)
        # OTLP receivers must ignore fields they do not know (newer senders add some).
        request = signal.request_type()
        json_format.ParseDict(document, request, ignore_unknown_fields=True)
        return request
    except (json_format.ParseError, TypeError, ValueError, RecursionError) as exc:
        raise PayloadError(f"body is not an OTLP JSON {_type_name(signal)}: {exc}") from exc


def _type_name(signal: Signal) -> str:
    return str(signal.request_type.DESCRIPTOR.name)


def _hex_ids_to_base64(holder: dict[str, Any], where: JsonIds) -> None:
    for name in where.ids:
        for spelled in (name, _snake(name)):
            value = holder.get(spelled)
            if value is None:
                continue
            if not isinstance(value, str):
                raise PayloadError(f"{spelled} must be a hex string")
            try:
                holder[spelled] = base64.b64encode(bytes.fromhex(value)).decode("ascii")
            except ValueError as exc:
                raise PayloadError(f"{spelled} {value!r} is not hex") from exc
    for name, below in where.below.items():
        for child in _objects(holder, name):
            _hex_ids_to_base64(child, below)


def _objects(parent: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """The objects under ``name`` (or its snake_case spelling): an array of them, or a single one."""
    for spelled in (name, _snake(name)):
        value = parent.get(spelled)
        if value is None:
            continue
        if isinstance(value, dict):
            return [value]
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise PayloadError(f"{spelled} must be an array of objects")
        return value
    return []


def _snake(camel: str) -> str:
    return "".join(f"_{char.lower()}" if char.isupper() else char for char in camel)


def _camel(snake: str) -> str:
    head, *rest = snake.split("_")
    return head + "".join(word.capitalize() for word in rest)


def encode_response(signal: Signal, kind: str, rejected: int = 0, error_message: str = "") -> bytes:
    """The signal's export response, with ``partial_success`` when something was refused."""
    response: Any = signal.response_type()
    if rejected or error_message:
        setattr(response.partial_success, signal.rejected_field, rejected)
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
