"""A request retried after the collector crashed is stored once (issue 27 item 5).

The writer merges concurrent requests into one insert; after a crash a sender's retry lands in another batch
with another dedup token, so ClickHouse alone cannot tell it is a retry. The write journal can: these tests
leave the state a crash leaves (the batch stored, or not, its journal entry settled or not) and retry.
The real thing (``ragpulse collector`` killed with SIGKILL while stock exporters retry) is
``test_kill_minus_nine_with_retrying_stock_exporters_stores_every_acknowledged_span_once``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import StartCollector
from crash_runs import crash_run
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from otlp_testing import (
    STORED_SIGNALS,
    make_log_record,
    make_logs_request,
    make_request,
    make_span,
    post,
    span_count,
    stored_rows,
)
from ragpulse_collector.journal import WriteJournal
from ragpulse_collector.mapping import map_spans
from ragpulse_collector.writer import RECENT_DIGESTS
from ragpulse_core.store import Store

# Long enough that two posts sent together are written as one batch.
MERGING = {"batch_idle_ms": 400, "batch_max_wait_ms": 800}


def _digest(request: ExportTraceServiceRequest) -> str:
    return map_spans(request).rows.identity()


def _bodies(path: str, *counts: int) -> list[bytes]:
    """Export bodies of new items; log records carry attributes and array bodies, which their identity and
    the lookup after a restart must compare as stored."""
    if path == "/v1/traces":
        return [make_request([make_span() for _ in range(count)]).SerializeToString() for count in counts]
    return [
        make_logs_request(
            [make_log_record(["a", n], {"k": n}, event_name="gen_ai.choice") for n in range(count)]
        ).SerializeToString()
        for count in counts
    ]


def _post_together(url: str, bodies: list[bytes], path: str = "/v1/traces") -> list[int]:
    statuses = [0] * len(bodies)

    def send(index: int) -> None:
        statuses[index] = post(url, bodies[index], path=path)[0]

    threads = [threading.Thread(target=send, args=(index,)) for index in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


@pytest.mark.parametrize("path", STORED_SIGNALS)
@pytest.mark.parametrize("settled", [True, False], ids=["settled", "crashed-before-settling"])
def test_a_retry_of_a_request_stored_in_a_merged_batch_before_a_crash_is_not_stored_again(
    start_collector: StartCollector, store: Store, tmp_path: Path, settled: bool, path: str
) -> None:
    spool = tmp_path / "spool"
    first, second, new = _bodies(path, 30, 20, 5)
    before = start_collector(spool_dir=spool, **MERGING)
    assert _post_together(before.url, [first, second], path) == [200, 200]
    assert before.metrics.value("batches_written_total") == 1  # one insert held both
    before.stop()
    journal = spool / "writes.journal"
    if not settled:  # killed after the insert, before the journal said so
        journal.write_text("".join(line for line in journal.read_text().splitlines(True) if line[0] != "S"))

    after = start_collector(spool_dir=spool, **MERGING)
    assert _post_together(after.url, [first, new], path) == [200, 200]
    assert post(after.url, second, path=path)[0] == 200
    assert stored_rows(store, path) == 55


def test_a_retry_of_a_request_whose_batch_was_under_way_but_not_stored_is_stored_once(
    start_collector: StartCollector, store: Store, tmp_path: Path
) -> None:
    spool = tmp_path / "spool"
    first, second = (
        make_request([make_span() for _ in range(30)]),
        make_request([make_span() for _ in range(20)]),
    )
    # Killed before the insert reached the store: the journal has the batch begun, the table nothing.
    crashed = WriteJournal(spool / "writes.journal", RECENT_DIGESTS)
    crashed.begin("a-batch-never-stored", [_digest(first), _digest(second)])
    crashed.close()

    after = start_collector(spool_dir=spool)
    assert post(after.url, first.SerializeToString())[0] == 200
    assert post(after.url, second.SerializeToString())[0] == 200
    assert post(after.url, first.SerializeToString())[0] == 200  # and a retry of the retry
    assert span_count(store) == (50, 50)


@pytest.mark.slow
@pytest.mark.parametrize("spool", [False, True], ids=["no-spool", "spool"])
def test_kill_minus_nine_with_retrying_stock_exporters_stores_every_acknowledged_span_once(
    tmp_path: Path, spool: bool, migrated_copy: Callable[[Path], Path]
) -> None:
    """One series of three random SIGKILLs per case; ``python tests/collector/crash_runs.py --runs 10`` runs
    ten series. The kills land once spans are acknowledged, after start-up: the collector starts on a migrated
    copy, as the other crash tests do."""
    migrated_copy(tmp_path / "chdb")
    result = crash_run(tmp_path, seed=7 + spool, spool=spool, spans=5_000, kills=3)
    assert result.kills >= 2
    assert (result.acknowledged, result.rows, result.distinct) == (5_000, 5_000, 5_000)
