"""Refused is not unreachable: poison rows are set aside, everything else is written, nothing stalls."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import StartCollector
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse
from otlp_testing import FlakyStore, make_request, make_span, post, span_count, wait_until
from ragpulse_collector.mapping import map_spans
from ragpulse_collector.tables import SPANS
from ragpulse_core.store import Store, StoreRefused, StoreUnavailable

DAY_NS = 86_400 * 10**9
POISON = "poison"


class PoisonRefusingStore(FlakyStore):
    """The real store, except that an insert holding a span named ``poison`` is refused, as ClickHouse
    refuses a value it cannot hold; ``down`` still makes every insert unreachable."""

    def insert_columns(
        self, table: str, columns: Any, column_types: Any, *, dedup_token: str | None = None
    ) -> None:
        if not self.down.is_set() and POISON in columns[SPANS.column_names.index("SpanName")]:
            self.insert_calls += 1
            raise StoreRefused("test double: Code: 321. DB::Exception: value out of range")
        super().insert_columns(table, columns, column_types, dedup_token=dedup_token)


def _dead_letters(store: Store) -> list[dict[str, Any]]:
    return store.query_dicts(
        f"SELECT TargetTable, Reason, Payload FROM {store.table('ragpulse_dead_letters')}"
    )


def test_one_request_over_101_days_is_written_whole(start_collector: StartCollector, store: Store) -> None:
    server = start_collector()
    # Days ahead, not behind: the table's TTL would drop rows older than 30 days on insert.
    now = time.time_ns()
    spans = [make_span(start_time_unix_nano=now + day * DAY_NS) for day in range(101)]
    assert post(server.url, make_request(spans).SerializeToString())[0] == 200
    assert post(server.url, make_request([make_span()]).SerializeToString())[0] == 200
    assert span_count(store) == (102, 102)
    assert _dead_letters(store) == []


def test_a_time_the_table_cannot_hold_is_refused_in_partial_success_and_nothing_stalls(
    start_collector: StartCollector, store: Store, tmp_path: Path
) -> None:
    server = start_collector(spool_dir=tmp_path / "spool")
    body = make_request(
        [make_span(start_time_unix_nano=2**64 - 1, end_time_unix_nano=2**64 - 1), make_span()]
    ).SerializeToString()
    status, _, reply = post(server.url, body)
    response = ExportTraceServiceResponse.FromString(reply)
    assert status == 200
    assert response.partial_success.rejected_spans == 1
    assert "DateTime64" in response.partial_success.error_message
    assert post(server.url, make_request([make_span()]).SerializeToString())[0] == 200
    assert span_count(store) == (2, 2)
    assert server.spool is not None and len(server.spool) == 0


def test_refused_rows_go_to_dead_letters_and_the_innocent_rows_of_their_batch_are_written(
    start_collector: StartCollector, store: Store, chdb_dsn: str
) -> None:
    refusing = PoisonRefusingStore(chdb_dsn)
    refusing.release.clear()  # hold the writer so both requests share one batch
    server = start_collector(store_override=refusing, batch_idle_ms=50)
    poisoned = make_request([make_span(), make_span(POISON, {"k": "v"}), make_span()]).SerializeToString()
    innocent = make_request([make_span() for _ in range(5)]).SerializeToString()
    statuses: list[int] = []
    senders = [
        threading.Thread(target=lambda body=body: statuses.append(post(server.url, body)[0]))
        for body in (poisoned, innocent)
    ]
    for sender in senders:
        sender.start()
    assert wait_until(lambda: server.writer.queued_rows == 8)
    refusing.release.set()
    for sender in senders:
        sender.join()

    assert statuses == [200, 200]
    assert span_count(store) == (7, 7)
    [dead] = _dead_letters(store)
    assert dead["TargetTable"] == "otel_traces" and "out of range" in dead["Reason"]
    row = json.loads(dead["Payload"])
    assert row["SpanName"] == POISON and row["SpanAttributes"] == {"k": "v"}
    assert server.metrics.value("spans_dead_lettered_total") == 1
    metrics = post(server.url, b"", path="/metrics", method="GET")[2].decode()
    assert "ragpulse_collector_spans_dead_lettered_total 1" in metrics

    status, _, health = post(server.url, b"", path="/healthz", method="GET")
    report = json.loads(health)
    assert status == 503 and report["ok"] is False
    assert any("refused" in problem for problem in report["problems"])


def test_a_spooled_batch_the_store_refuses_is_not_replayed_forever(
    start_collector: StartCollector, store: Store, chdb_dsn: str, tmp_path: Path
) -> None:
    refusing = PoisonRefusingStore(chdb_dsn)
    refusing.down.set()
    server = start_collector(store_override=refusing, spool_dir=tmp_path / "spool", store_retry_ms=50)
    body = make_request([make_span(POISON), make_span(), make_span()]).SerializeToString()
    assert post(server.url, body)[0] == 200
    assert server.spool is not None and len(server.spool) == 1

    refusing.down.clear()
    assert wait_until(lambda: len(server.spool or []) == 0)
    assert post(server.url, make_request([make_span()]).SerializeToString())[0] == 200
    assert span_count(store) == (3, 3)
    assert len(_dead_letters(store)) == 1


def _insert(store: Store, spans: list[Any]) -> None:
    columns = map_spans(make_request(spans)).rows.columns
    store.insert_columns(SPANS.table, columns, SPANS.insert_types)


def test_the_store_tells_refused_data_from_an_unreachable_server(store: Store) -> None:
    now = time.time_ns()
    with pytest.raises(StoreRefused, match="partitions"):
        _insert(store, [make_span(start_time_unix_nano=now + day * DAY_NS) for day in range(101)])
    columns = map_spans(make_request([make_span()])).rows.columns
    columns[SPANS.column_names.index("Timestamp")] = [2**64 - 1]
    with pytest.raises(StoreRefused):
        store.insert_columns(SPANS.table, columns, SPANS.insert_types)

    unreachable = Store(f"http://127.0.0.1:{_unused_port()}")
    with pytest.raises(StoreUnavailable) as caught:
        _insert(unreachable, [make_span()])
    assert not isinstance(caught.value, StoreRefused)
    assert span_count(store) == (0, 0)


def _unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
