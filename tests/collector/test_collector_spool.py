"""When the store fails: batches are spooled, acknowledged, and replayed exactly once when it is back."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from conftest import StartCollector
from otlp_testing import (
    FlakyStore,
    log_count,
    make_log_record,
    make_logs_request,
    make_request,
    make_span,
    post,
    span_count,
    wait_until,
)
from ragpulse_collector.log_mapping import map_log_records
from ragpulse_collector.mapping import map_spans
from ragpulse_collector.spool import Spool, SpoolFull
from ragpulse_collector.tables import LOG_RECORDS, SPANS, TableRows
from ragpulse_core.store import Store


def _columns(count: int) -> TableRows:
    return map_spans(make_request([make_span() for _ in range(count)])).rows


def test_spool_keeps_batches_in_order_across_restarts(tmp_path: Path) -> None:
    spool = Spool(tmp_path, max_bytes=1 << 20)
    first, second = _columns(1), _columns(2)
    spool.append("t1", first)
    spool.append("t2", second)
    (tmp_path / "0000000000000099.tmp").write_bytes(b"half a batch")

    reopened = Spool(tmp_path, max_bytes=1 << 20)
    assert len(reopened) == 2 and not list(tmp_path.glob("*.tmp"))
    oldest = reopened.oldest()
    assert oldest is not None and oldest.token == "t1" and oldest.rows.rows() == first.rows()
    reopened.remove(oldest)
    reopened.append("t3", _columns(1))
    assert [b.token for b in _drain(reopened)] == ["t2", "t3"]
    assert reopened.size_bytes == 0


def test_spool_keeps_each_batch_with_its_table(tmp_path: Path) -> None:
    spool = Spool(tmp_path, max_bytes=1 << 20)
    logs = map_log_records(make_logs_request([make_log_record("held"), make_log_record("too")])).rows
    spans = _columns(2)
    spool.append("logs", logs)
    spool.append("spans", spans)
    replayed = _drain(Spool(tmp_path, max_bytes=1 << 20))
    assert [(batch.token, batch.rows.layout) for batch in replayed] == [
        ("logs", LOG_RECORDS),
        ("spans", SPANS),
    ]
    assert replayed[0].rows.rows() == logs.rows() and replayed[1].rows.rows() == spans.rows()


def test_a_batch_spooled_by_the_previous_version_replays_into_otel_traces(
    start_collector: StartCollector, store: Store, tmp_path: Path
) -> None:
    spool_dir = tmp_path / "spool"
    spool_dir.mkdir()
    rows = _columns(3)
    # Format 1, exactly as the collector wrote it before it took logs: no table named.
    legacy = {
        "version": 1,
        "token": "legacy",
        "columns": dict(zip(SPANS.column_names, rows.columns, strict=True)),
    }
    (spool_dir / "0000000000000000.batch").write_bytes(json.dumps(legacy, separators=(",", ":")).encode())
    server = start_collector(spool_dir=spool_dir, store_retry_ms=50)
    assert wait_until(lambda: len(server.spool or []) == 0)
    assert span_count(store) == (3, 3) and log_count(store) == 0
    assert server.metrics.value("spans_replayed_total") == 3


def _drain(spool: Spool) -> list:
    drained = []
    while (batch := spool.oldest()) is not None:
        drained.append(batch)
        spool.remove(batch)
    return drained


def test_full_spool_refuses_and_corrupt_batches_are_set_aside(tmp_path: Path) -> None:
    spool = Spool(tmp_path, max_bytes=4096)
    spool.append("t1", _columns(1))
    with pytest.raises(SpoolFull):
        spool.append("big", _columns(40))
    next(tmp_path.glob("*.batch")).write_bytes(b"{broken")
    spool.append("t2", _columns(1))
    assert [b.token for b in _drain(spool)] == ["t2"]
    assert len(list(tmp_path.glob("*.corrupt"))) == 1


def test_store_outage_is_spooled_then_written_exactly_once(
    start_collector: StartCollector, store: Store, chdb_dsn: str, tmp_path: Path
) -> None:
    flaky = FlakyStore(chdb_dsn)
    flaky.down.set()
    server = start_collector(store_override=flaky, spool_dir=tmp_path / "spool", store_retry_ms=50)
    bodies = [make_request([make_span() for _ in range(5)]).SerializeToString() for _ in range(6)]
    statuses = [post(server.url, body)[0] for body in bodies[:3]]
    assert statuses == [200, 200, 200]
    assert server.spool is not None and len(server.spool) >= 1
    assert span_count(store) == (0, 0)

    flaky.down.clear()
    senders = [threading.Thread(target=post, args=(server.url, body)) for body in bodies[3:]]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join()
    assert wait_until(lambda: len(server.spool or []) == 0)
    assert server.flush()
    assert span_count(store) == (30, 30)
    assert server.metrics.value("spans_spooled_total") >= 15
    assert server.metrics.value("spans_written_total") == 30


def test_insert_that_committed_but_lost_its_ack_is_not_duplicated(
    start_collector: StartCollector, store: Store, chdb_dsn: str, tmp_path: Path
) -> None:
    flaky = FlakyStore(chdb_dsn)
    flaky.down.set()
    flaky.lose_acks = True
    server = start_collector(store_override=flaky, spool_dir=tmp_path / "spool", store_retry_ms=50)
    assert post(server.url, make_request([make_span() for _ in range(4)]).SerializeToString())[0] == 200
    assert span_count(store) == (4, 4)
    flaky.down.clear()
    assert wait_until(lambda: server.metrics.value("spans_replayed_total") == 4)
    assert span_count(store) == (4, 4)
    assert store.query(f"SELECT count() FROM {store.table('otel_traces_trace_id_ts')}")[0][0] == 4


def test_store_down_and_spool_full_answers_503_and_loses_nothing_accepted(
    start_collector: StartCollector, store: Store, chdb_dsn: str, tmp_path: Path
) -> None:
    flaky = FlakyStore(chdb_dsn)
    flaky.down.set()
    server = start_collector(
        store_override=flaky, spool_dir=tmp_path / "spool", spool_max_bytes=4000, store_retry_ms=50
    )
    statuses = [
        post(server.url, make_request([make_span() for _ in range(3)]).SerializeToString())[0]
        for _ in range(6)
    ]
    accepted = statuses.count(200)
    assert accepted >= 1 and 503 in statuses
    assert set(statuses) == {200, 503}
    flaky.down.clear()
    assert wait_until(lambda: len(server.spool or []) == 0)
    assert span_count(store) == (3 * accepted, 3 * accepted)
