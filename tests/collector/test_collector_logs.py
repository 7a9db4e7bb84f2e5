"""OTLP logs into otel_logs, over HTTP and gRPC, with the admission, acknowledgement, spool, dead letters and
answers that traces get (test_collector_http checks the queue-full and store-down answers for both)."""

from __future__ import annotations

import base64
import gzip
import json
import threading
from pathlib import Path
from typing import Any

import grpc
import pytest
from conftest import StartCollector
from google.protobuf import json_format
from google.rpc import status_pb2
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceResponse
from otlp_testing import (
    FlakyStore,
    make_log_record,
    make_logs_request,
    make_request,
    make_span,
    post,
    span_count,
    wait_until,
)
from ragpulse_collector.tables import LOG_RECORDS
from ragpulse_core.store import Store, StoreRefused

LOGS_PATH = "/v1/logs"
GRPC_EXPORT = "/opentelemetry.proto.collector.logs.v1.LogsService/Export"
POISON = "poison"


def _logs(store: Store) -> list[dict[str, Any]]:
    return store.query_dicts(
        f"SELECT TraceId, SpanId, ServiceName, Body, EventName, LogAttributes"
        f" FROM {store.table('otel_logs')} ORDER BY Body"
    )


def _post_logs(url: str, body: bytes, *options: Any, **named: Any) -> tuple[int, dict[str, str], bytes]:
    return post(url, body, *options, path=LOGS_PATH, **named)


def _as_otlp_json(request: Any) -> bytes:
    """OTLP JSON as exporters write it: camelCase, ids in hex rather than proto3's base64."""
    document = json_format.MessageToDict(request)
    for resource_logs in document["resourceLogs"]:
        for scope_logs in resource_logs["scopeLogs"]:
            for record in scope_logs["logRecords"]:
                for name in ("traceId", "spanId"):
                    record[name] = base64.b64decode(record[name]).hex().upper()
    return json.dumps(document).encode()


def test_logs_in_protobuf_gzip_and_json_land_in_otel_logs(
    start_collector: StartCollector, store: Store
) -> None:
    server = start_collector()
    plain = make_log_record("plain", event_name="gen_ai.user.message")
    zipped = make_log_record("zipped", {"event.name": "gen_ai.choice"})
    in_json = make_log_record({"content": "from json"})
    assert _post_logs(server.url, make_logs_request([plain], service="bot").SerializeToString())[0] == 200
    gzipped = gzip.compress(make_logs_request([zipped]).SerializeToString())
    assert _post_logs(server.url, gzipped, headers={"Content-Encoding": "gzip"})[0] == 200
    status, headers, reply = _post_logs(
        server.url, _as_otlp_json(make_logs_request([in_json])), "application/json"
    )
    assert (status, headers["Content-Type"], json.loads(reply)) == (200, "application/json", {})

    assert _logs(store) == [
        {
            "TraceId": plain.trace_id.hex(),
            "SpanId": plain.span_id.hex(),
            "ServiceName": "bot",
            "Body": "plain",
            "EventName": "gen_ai.user.message",
            "LogAttributes": {},
        },
        {
            "TraceId": zipped.trace_id.hex(),
            "SpanId": zipped.span_id.hex(),
            "ServiceName": "svc",
            "Body": "zipped",
            "EventName": "gen_ai.choice",
            "LogAttributes": {"event.name": "gen_ai.choice"},
        },
        {
            "TraceId": in_json.trace_id.hex(),
            "SpanId": in_json.span_id.hex(),
            "ServiceName": "svc",
            "Body": '{"content":"from json"}',
            "EventName": "",
            "LogAttributes": {},
        },
    ]
    assert server.metrics.value("log_records_written_total") == 3


def test_log_refusals_over_http_have_the_codes_traces_have(
    start_collector: StartCollector, store: Store
) -> None:
    server = start_collector(auth_token="s3cret", max_body_bytes=64 * 1024, max_expanded_bytes=256 * 1024)
    auth = {"Authorization": "Bearer s3cret"}
    mixed = make_logs_request([make_log_record("good"), make_log_record("bad", trace_id=b"\x01" * 5)])

    status, _, reply = _post_logs(server.url, mixed.SerializeToString(), headers=auth)
    response = ExportLogsServiceResponse.FromString(reply)
    assert status == 200 and response.partial_success.rejected_log_records == 1
    assert "wrong size" in response.partial_success.error_message
    assert _post_logs(server.url, mixed.SerializeToString())[0] == 401
    status, _, reply = _post_logs(server.url, b"\x0a\xff\xff\xff", headers=auth)
    assert status == 400 and "ExportLogsServiceRequest" in status_pb2.Status.FromString(reply).message
    assert _post_logs(server.url, b"x" * (65 * 1024), headers=auth)[0] == 413
    # 40 KB of resource attributes repeated on 10 records: small on the wire, 400 KB of rows.
    ballooning = make_logs_request([make_log_record() for _ in range(10)], resource={"pad": "p" * 40_000})
    status, _, reply = _post_logs(server.url, ballooning.SerializeToString(), headers=auth)
    assert status == 413 and "log records would expand" in status_pb2.Status.FromString(reply).message

    assert [row["Body"] for row in _logs(store)] == ["good"]
    assert server.metrics.value("log_records_rejected_total") == 1


def test_logs_over_grpc_land_and_refusals_have_their_codes(
    start_collector: StartCollector, store: Store
) -> None:
    server = start_collector(grpc_port=0, auth_token="s3cret")
    auth = (("authorization", "Bearer s3cret"),)
    body = make_logs_request([make_log_record("by grpc"), make_log_record("bad", span_id=b"\x01")])
    with grpc.insecure_channel(f"127.0.0.1:{server.grpc_port}") as channel:
        export = channel.unary_unary(GRPC_EXPORT)
        reply = ExportLogsServiceResponse.FromString(
            export(body.SerializeToString(), metadata=auth, timeout=30)
        )
        assert reply.partial_success.rejected_log_records == 1
        with pytest.raises(grpc.RpcError) as unauthenticated:
            export(body.SerializeToString(), timeout=30)
        with pytest.raises(grpc.RpcError) as invalid:
            export(b"\x0a\xff\xff\xff", metadata=auth, timeout=30)
    assert unauthenticated.value.code() is grpc.StatusCode.UNAUTHENTICATED
    assert invalid.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert [row["Body"] for row in _logs(store)] == ["by grpc"]


def test_logs_are_spooled_while_the_store_is_down_and_replayed_once(
    start_collector: StartCollector, store: Store, chdb_dsn: str, tmp_path: Path
) -> None:
    flaky = FlakyStore(chdb_dsn)
    flaky.down.set()
    server = start_collector(store_override=flaky, spool_dir=tmp_path / "spool", store_retry_ms=50)
    logs = make_logs_request([make_log_record(f"log {i}") for i in range(4)]).SerializeToString()
    spans = make_request([make_span() for _ in range(3)]).SerializeToString()
    assert _post_logs(server.url, logs)[0] == 200
    assert post(server.url, spans)[0] == 200
    assert _post_logs(server.url, logs)[0] == 200  # a retry: acknowledged, not written twice
    assert server.spool is not None and len(server.spool) == 2

    flaky.down.clear()
    assert wait_until(lambda: len(server.spool or []) == 0)
    assert [row["Body"] for row in _logs(store)] == [f"log {i}" for i in range(4)]
    assert span_count(store) == (3, 3)
    assert server.metrics.value("log_records_replayed_total") == 4


class LogPoisonStore(FlakyStore):
    """The real store, except that a log insert holding a record whose body is ``poison`` is refused."""

    def insert_columns(
        self, table: str, columns: Any, column_types: Any, *, dedup_token: str | None = None
    ) -> None:
        if table == LOG_RECORDS.table and POISON in columns[LOG_RECORDS.column_names.index("Body")]:
            raise StoreRefused("test double: Code: 27. DB::Exception: cannot parse input")
        super().insert_columns(table, columns, column_types, dedup_token=dedup_token)


def test_refused_log_records_go_to_dead_letters_and_the_rest_is_written(
    start_collector: StartCollector, store: Store, chdb_dsn: str
) -> None:
    server = start_collector(store_override=LogPoisonStore(chdb_dsn))
    request = make_logs_request(
        [make_log_record("a"), make_log_record(POISON, {"k": "v"}), make_log_record("b")]
    )
    assert _post_logs(server.url, request.SerializeToString())[0] == 200
    assert [row["Body"] for row in _logs(store)] == ["a", "b"]
    [dead] = store.query_dicts(
        f"SELECT TargetTable, Reason, Payload FROM {store.table('ragpulse_dead_letters')}"
    )
    assert dead["TargetTable"] == "otel_logs" and "cannot parse" in dead["Reason"]
    assert json.loads(dead["Payload"])["LogAttributes"] == {"k": "v"}
    assert server.metrics.value("log_records_dead_lettered_total") == 1
    status, _, health = post(server.url, b"", path="/healthz", method="GET")
    assert status == 503 and json.loads(health)["dead_lettered_log_records"] == 1


def test_spans_and_logs_queued_together_are_each_written_to_their_own_table(
    start_collector: StartCollector, store: Store, chdb_dsn: str
) -> None:
    flaky = FlakyStore(chdb_dsn)
    flaky.release.clear()  # hold the writer so everything below queues up behind its first insert
    server = start_collector(store_override=flaky, batch_idle_ms=50)
    bodies = [
        (path, body)
        for index in range(3)
        for path, body in (
            ("/v1/traces", make_request([make_span() for _ in range(2)]).SerializeToString()),
            (
                LOGS_PATH,
                make_logs_request([make_log_record(f"{index}-{n}") for n in range(3)]).SerializeToString(),
            ),
        )
    ]
    statuses: list[int] = []
    senders = [
        threading.Thread(
            target=lambda path=path, body=body: statuses.append(post(server.url, body, path=path)[0])
        )
        for path, body in bodies
    ]
    for sender in senders:
        sender.start()
    assert wait_until(lambda: server.writer.queued_rows == 15)
    flaky.release.set()
    for sender in senders:
        sender.join()
    assert statuses == [200] * 6
    assert span_count(store) == (6, 6)
    assert len(_logs(store)) == 9


def test_records_that_differ_only_in_content_are_not_mistaken_for_a_retry(
    start_collector: StartCollector, store: Store
) -> None:
    server = start_collector()
    first = make_log_record("first")
    second = make_log_record("second", time_unix_nano=first.time_unix_nano, trace_id=first.trace_id)
    second.span_id = first.span_id
    for record in (first, second, first):
        assert _post_logs(server.url, make_logs_request([record]).SerializeToString())[0] == 200
    assert [row["Body"] for row in _logs(store)] == ["first", "second"]
    assert server.metrics.value("requests_deduplicated_total") == 1
