"""The receiver over real HTTP into the session's chDB: stock exporters, JSON, gzip and every status code."""

from __future__ import annotations

import gzip
import json
import threading

import pytest
from conftest import StartCollector
from google.rpc import status_pb2
from opentelemetry.exporter.otlp.proto.http import Compression
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from otlp_testing import (
    STORED_SIGNALS,
    FlakyStore,
    export_body,
    make_request,
    make_span,
    post,
    span_count,
    stored_rows,
    wait_until,
)
from ragpulse_core.store import Store


def _rag_spans_through_sdk(endpoint: str, compression: Compression = Compression.NoCompression) -> None:
    provider = TracerProvider(resource=Resource.create({"service.name": "rag-svc"}))
    exporter = OTLPSpanExporter(endpoint=endpoint, compression=compression)
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("ragpulse", "0.1.0")
    with tracer.start_as_current_span(
        "rag fusion",
        attributes={
            "ragpulse.kind": "rag",
            "ragpulse.variant": "B",
            "input.value": "Why is the sky blue?",
            "output.value": "Rayleigh scattering.",
            "ragpulse.context": '[{"id":"d1","text":"light scatters"}]',
            "ragpulse.fusion.k": 60,
            "flags": [True, False],
        },
    ) as root:
        root.add_event("cache miss", {"key": "q1"})
        with tracer.start_as_current_span(
            "retrieve", attributes={"retrieval.documents.0.document.score": 0.75}
        ):
            pass
    provider.shutdown()


def test_stock_sdk_exporter_round_trip_into_otel_traces_and_requests(
    start_collector: StartCollector, store: Store
) -> None:
    server = start_collector()
    _rag_spans_through_sdk(server.url + "/v1/traces")
    assert server.flush()
    spans = store.query_dicts(
        f"SELECT SpanName, SpanKind, ServiceName, ScopeName, ScopeVersion, SpanAttributes, ParentSpanId, "
        f"Events.Name AS EventNames, length(TraceId) AS TraceIdLength FROM {store.table('otel_traces')} "
        "ORDER BY SpanName"
    )
    assert [s["SpanName"] for s in spans] == ["rag fusion", "retrieve"]
    root, retrieve = spans
    assert root["SpanAttributes"]["ragpulse.fusion.k"] == "60"
    assert root["SpanAttributes"]["flags"] == "[true,false]"
    assert retrieve["SpanAttributes"] == {"retrieval.documents.0.document.score": "0.75"}
    assert (root["ServiceName"], root["ScopeName"], root["ScopeVersion"]) == ("rag-svc", "ragpulse", "0.1.0")
    assert root["SpanKind"] == "Internal" and root["ParentSpanId"] == "" and root["TraceIdLength"] == 32
    assert root["EventNames"] == ["cache miss"]
    requests = store.query_dicts(
        f"SELECT Question, Answer, Variant, ServiceName FROM {store.table('ragpulse_requests')}"
    )
    assert requests == [
        {
            "Question": "Why is the sky blue?",
            "Answer": "Rayleigh scattering.",
            "Variant": "B",
            "ServiceName": "rag-svc",
        }
    ]


def test_stock_exporter_with_gzip_is_accepted(start_collector: StartCollector, store: Store) -> None:
    server = start_collector()
    _rag_spans_through_sdk(server.url + "/v1/traces", Compression.Gzip)
    assert server.flush()
    assert span_count(store) == (2, 2)


def test_json_body_gets_a_json_reply_and_lands(start_collector: StartCollector, store: Store) -> None:
    server = start_collector()
    span = make_span("from-json")
    body = {
        "resourceSpans": [
            {
                "scopeSpans": [
                    {
                        "spans": [
                            {
                                "traceId": span.trace_id.hex(),
                                "spanId": span.span_id.hex(),
                                "name": "from-json",
                                "kind": 2,
                                "startTimeUnixNano": str(span.start_time_unix_nano),
                                "endTimeUnixNano": str(span.end_time_unix_nano),
                                "attributes": [{"key": "n", "value": {"intValue": "42"}}],
                            }
                        ]
                    }
                ]
            }
        ]
    }
    status, headers, reply = post(
        server.url, gzip.compress(json.dumps(body).encode()), "application/json", {"Content-Encoding": "gzip"}
    )
    assert (status, headers["Content-Type"], json.loads(reply)) == (200, "application/json", {})
    rows = store.query(f"SELECT SpanName, SpanKind, SpanAttributes FROM {store.table('otel_traces')}")
    assert rows == [("from-json", "Server", {"n": "42"})]


def test_malformed_ids_are_rejected_through_partial_success(
    start_collector: StartCollector, store: Store
) -> None:
    server = start_collector()
    body = make_request([make_span(), make_span(span_id=b"\x01\x02")]).SerializeToString()
    status, _, reply = post(server.url, body)
    response = ExportTraceServiceResponse.FromString(reply)
    assert status == 200
    assert response.partial_success.rejected_spans == 1
    assert "malformed" in response.partial_success.error_message
    assert span_count(store) == (1, 1)


def _status_message(reply: bytes) -> str:
    return str(status_pb2.Status.FromString(reply).message)


def test_bad_requests_get_their_codes_and_accepted_spans_stay(
    start_collector: StartCollector, store: Store
) -> None:
    server = start_collector(max_body_bytes=64 * 1024)
    good = make_request([make_span()]).SerializeToString()
    assert post(server.url, good)[0] == 200

    status, _, reply = post(server.url, b"\x0a\xff\xff\xff")
    assert status == 400 and "protobuf" in _status_message(reply)
    assert post(server.url, b"{oops", "application/json")[0] == 400
    assert post(server.url, good, "text/plain")[0] == 415
    assert post(server.url, b"x" * (65 * 1024))[0] == 413
    bomb = gzip.compress(b"\0" * (4 << 20))
    assert post(server.url, bomb, headers={"Content-Encoding": "gzip"})[0] == 413
    assert post(server.url, good, path="/v1/profiles")[0] == 404
    assert post(server.url, b"", path="/v1/traces", method="GET")[0] == 405
    assert post(server.url, good, method="PUT")[0] == 405

    assert post(server.url, make_request([make_span()]).SerializeToString())[0] == 200
    assert span_count(store) == (2, 2)


def test_bearer_token_is_required_when_configured(start_collector: StartCollector, store: Store) -> None:
    server = start_collector(auth_token="s3cret")
    body = make_request([make_span()]).SerializeToString()
    assert post(server.url, body)[0] == 401
    assert post(server.url, body, headers={"Authorization": "Bearer wrong"})[0] == 401
    assert post(server.url, body, headers={"Authorization": "Bearer s3cret"})[0] == 200
    assert span_count(store) == (1, 1)


@pytest.mark.parametrize("path", STORED_SIGNALS)
def test_full_queue_answers_429_with_retry_after(
    start_collector: StartCollector, store: Store, chdb_dsn: str, path: str
) -> None:
    flaky = FlakyStore(chdb_dsn)
    flaky.release.clear()  # the writer blocks inside its first insert
    server = start_collector(store_override=flaky, queue_max_spans=2, batch_idle_ms=0)
    results: list[int] = []

    def send(count: int) -> None:
        results.append(post(server.url, export_body(path, count), path=path)[0])

    first = threading.Thread(target=send, args=(1,))
    first.start()
    assert wait_until(lambda: flaky.insert_calls == 1)
    second = threading.Thread(target=send, args=(2,))
    second.start()
    assert wait_until(lambda: server.writer.queued_rows == 3)
    status, headers, _ = post(server.url, export_body(path, 1), path=path)
    assert status == 429 and int(headers["Retry-After"]) >= 1
    flaky.release.set()
    first.join()
    second.join()
    assert results == [200, 200]
    assert stored_rows(store, path) == 3


@pytest.mark.parametrize("path", STORED_SIGNALS)
def test_store_down_without_spool_answers_503(
    start_collector: StartCollector, store: Store, chdb_dsn: str, path: str
) -> None:
    flaky = FlakyStore(chdb_dsn)
    flaky.down.set()
    server = start_collector(store_override=flaky)
    status, headers, reply = post(server.url, export_body(path, 1), path=path)
    assert status == 503 and int(headers["Retry-After"]) >= 1
    assert "no spool" in _status_message(reply)
    flaky.down.clear()
    assert post(server.url, export_body(path, 1), path=path)[0] == 200
    assert stored_rows(store, path) == 1


def test_healthz_and_metrics_report_counts(start_collector: StartCollector, store: Store) -> None:
    server = start_collector()
    post(server.url, make_request([make_span(), make_span(trace_id=b"short")]).SerializeToString())
    status, _, health = post(server.url, b"", path="/healthz", method="GET")
    assert status == 200
    assert json.loads(health) == {
        "ok": True,
        "problems": [],
        "store_reachable": True,
        "dead_lettered_spans": 0,
        "dead_lettered_log_records": 0,
        "queue_rows": 0,
        "spool_batches": 0,
        "spool_bytes": 0,
    }
    status, headers, metrics = post(server.url, b"", path="/metrics", method="GET")
    text = metrics.decode()
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    assert "ragpulse_collector_spans_received_total 2" in text
    assert "ragpulse_collector_spans_rejected_total 1" in text
    assert "ragpulse_collector_spans_written_total 1" in text
    assert "ragpulse_collector_queue_rows 0" in text
    assert 'ragpulse_collector_http_responses_total{code="200"} 1' in text


def test_stop_is_idempotent_and_closes_the_port(start_collector: StartCollector) -> None:
    server = start_collector()
    url = server.url
    server.stop()
    server.stop()
    with pytest.raises(ConnectionError):
        post(url, make_request([make_span()]).SerializeToString())
