"""Decoding OTLP/HTTP bodies: JSON with hex ids, gzip within a limit, and what counts as malformed."""

from __future__ import annotations

import contextlib
import gzip
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from otlp_testing import make_request, make_span
from ragpulse_collector import otlp
from ragpulse_collector.mapping import map_spans
from ragpulse_collector.signals import TRACES

OTLP_JSON = {
    "resourceSpans": [
        {
            "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "json-svc"}}]},
            "scopeSpans": [
                {
                    "scope": {"name": "manual", "version": "2"},
                    "spans": [
                        {
                            "traceId": "5B8EFFF798038103D269B633813FC60C",
                            "spanId": "EEE19B7EC3C1B174",
                            "parentSpanId": "",
                            "name": "retrieve",
                            "kind": 3,
                            "startTimeUnixNano": "1544712660000000000",
                            "endTimeUnixNano": "1544712661000000000",
                            "attributes": [
                                {"key": "ragpulse.query_index", "value": {"intValue": "3"}},
                                {"key": "score", "value": {"doubleValue": 0.5}},
                                {"key": "ids", "value": {"arrayValue": {"values": [{"stringValue": "a"}]}}},
                            ],
                            "links": [
                                {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b175"}
                            ],
                            "status": {"code": 2, "message": "bad"},
                            "someFutureField": {"ignored": True},
                        }
                    ],
                }
            ],
        }
    ],
}


def test_otlp_json_with_hex_ids_and_string_ints_decodes() -> None:
    request = otlp.decode_request(json.dumps(OTLP_JSON).encode(), otlp.JSON, TRACES)
    (row,) = map_spans(request).rows.rows()
    assert row["TraceId"] == "5b8efff798038103d269b633813fc60c"
    assert row["SpanId"] == "eee19b7ec3c1b174"
    assert row["SpanKind"] == "Client"
    assert row["StatusCode"] == "Error"
    assert row["Duration"] == 1_000_000_000
    assert row["SpanAttributes"] == {"ragpulse.query_index": "3", "score": "0.5", "ids": '["a"]'}
    assert row["Links.SpanId"] == ["eee19b7ec3c1b175"]
    assert (row["ServiceName"], row["ScopeName"], row["ScopeVersion"]) == ("json-svc", "manual", "2")


@pytest.mark.parametrize(
    "body",
    [
        b"{not json",
        b"[]",
        b'{"resourceSpans": 3}',
        b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz"}]}]}]}',
        b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"startTimeUnixNano": "soon"}]}]}]}',
        b"\xff\xfe",
    ],
)
def test_malformed_json_is_a_payload_error(body: bytes) -> None:
    with pytest.raises(otlp.PayloadError):
        otlp.decode_request(body, otlp.JSON, TRACES)


@given(st.binary(min_size=1, max_size=64))
def test_garbage_protobuf_either_decodes_or_is_a_payload_error(body: bytes) -> None:
    with contextlib.suppress(otlp.PayloadError):
        otlp.decode_request(body, otlp.PROTOBUF, TRACES)


def test_truncated_protobuf_is_a_payload_error() -> None:
    body = make_request([make_span(attrs={"k": "v" * 100})]).SerializeToString()
    with pytest.raises(otlp.PayloadError):
        otlp.decode_request(body[:-10], otlp.PROTOBUF, TRACES)


def test_gzip_body_inflates() -> None:
    body = make_request([make_span()]).SerializeToString()
    assert otlp.decompress(gzip.compress(body), "gzip", 1 << 20) == body


def test_gzip_bomb_stops_at_the_limit() -> None:
    bomb = gzip.compress(b"\0" * (20 << 20))
    assert len(bomb) < 64 << 10
    with pytest.raises(otlp.PayloadTooLarge):
        otlp.decompress(bomb, "gzip", 1 << 20)


@pytest.mark.parametrize(
    ("body", "encoding"), [(b"not gzip", "gzip"), (gzip.compress(b"x" * 1000)[:-30], "gzip"), (b"abc", "br")]
)
def test_broken_or_unknown_encodings_are_payload_errors(body: bytes, encoding: str) -> None:
    with pytest.raises(otlp.PayloadError):
        otlp.decompress(body, encoding, 1 << 20)


def test_media_type_ignores_parameters_and_case_and_refuses_others() -> None:
    assert otlp.media_type("Application/JSON; charset=utf-8") == otlp.JSON
    assert otlp.media_type("application/x-protobuf") == otlp.PROTOBUF
    for other in (None, "", "text/plain", "application/grpc"):
        with pytest.raises(otlp.UnsupportedMediaType):
            otlp.media_type(other)


def test_partial_success_response_round_trips_in_both_encodings() -> None:
    as_json = json.loads(otlp.encode_response(TRACES, otlp.JSON, 2, "bad ids"))
    assert as_json == {"partialSuccess": {"rejectedSpans": "2", "errorMessage": "bad ids"}}
    assert json.loads(otlp.encode_response(TRACES, otlp.JSON)) == {}
    assert otlp.encode_response(TRACES, otlp.PROTOBUF) == b""
