"""Requests still being decoded join the batch being formed, so concurrent senders share one insert: in chDB
each insert costs tens of milliseconds of CPU whatever its size (issue 41)."""

from __future__ import annotations

import time

from conftest import StartCollector
from otlp_testing import make_request, make_span, span_count
from ragpulse_collector.mapping import map_spans
from ragpulse_collector.tables import TableRows
from ragpulse_core.store import Store

# A queue that goes quiet is cut at once; only a decode under way may hold the batch, up to this long.
SETTINGS = {"batch_idle_ms": 0, "batch_max_wait_ms": 5_000}


def _rows(spans: int) -> TableRows:
    return map_spans(make_request([make_span() for _ in range(spans)])).rows


def test_a_request_being_decoded_joins_the_batch_of_the_one_queued_before_it(
    start_collector: StartCollector, store: Store
) -> None:
    server = start_collector(**SETTINGS)
    writer = server.writer
    first, second = _rows(3), _rows(4)
    with writer.arriving():
        early = writer.submit(first, first.identity(), 1_000)
        time.sleep(0.3)  # the queue is quiet, but the second request is still on its way
        assert not early.done
        late = writer.submit(second, second.identity(), 1_000)
    assert early.done_within(10) and late.done_within(10)
    assert server.metrics.value("batches_written_total") == 1
    assert span_count(store)[0] == 7


def test_a_quiet_queue_with_nothing_on_its_way_is_written_at_once(
    start_collector: StartCollector, store: Store
) -> None:
    server = start_collector(**SETTINGS)
    rows = _rows(3)
    started = time.monotonic()
    assert server.writer.submit(rows, rows.identity(), 1_000).done_within(10)
    assert time.monotonic() - started < 2.5  # not held for batch_max_wait_ms
    assert span_count(store)[0] == 3


def test_a_decode_under_way_holds_a_batch_no_longer_than_the_longest_wait(
    start_collector: StartCollector, store: Store
) -> None:
    server = start_collector(batch_idle_ms=0, batch_max_wait_ms=300)
    rows = _rows(2)
    with server.writer.arriving():
        ticket = server.writer.submit(rows, rows.identity(), 1_000)
        assert ticket.done_within(10)  # written while the other decode still runs
    assert span_count(store)[0] == 2
