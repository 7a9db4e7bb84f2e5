"""A 503 means not written, a retry is never written twice, and /healthz says when the writer is stuck."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from conftest import StartCollector
from otlp_testing import FlakyStore, make_request, make_span, post, span_count, wait_until
from ragpulse_core.store import Store


def _spans(count: int) -> bytes:
    return make_request([make_span() for _ in range(count)]).SerializeToString()


def test_a_request_that_timed_out_in_the_queue_is_withdrawn_and_its_retry_written_once(
    start_collector: StartCollector, store: Store, chdb_dsn: str
) -> None:
    flaky = FlakyStore(chdb_dsn)
    flaky.release.clear()  # the writer blocks inside its first insert
    server = start_collector(store_override=flaky, ack_timeout_s=0.3, batch_idle_ms=0)
    first, second = _spans(2), _spans(1000)
    answers: list[int] = []
    sender = threading.Thread(target=lambda: answers.append(post(server.url, first)[0]))
    sender.start()
    assert wait_until(lambda: flaky.insert_calls == 1)

    assert post(server.url, second)[0] == 503
    assert server.metrics.value("requests_withdrawn_total") == 1
    flaky.release.set()
    sender.join()
    assert server.flush()
    assert span_count(store) == (2, 2), "the withdrawn request must not be written"

    assert post(server.url, second)[0] == 200
    assert span_count(store) == (1002, 1002)


def test_an_exporter_retrying_a_slow_write_gets_its_spans_written_once(
    start_collector: StartCollector, store: Store, chdb_dsn: str
) -> None:
    flaky = FlakyStore(chdb_dsn)
    flaky.release.clear()
    server = start_collector(store_override=flaky, ack_timeout_s=0.2, batch_idle_ms=0)
    body = _spans(1000)
    # The first attempt is inside the (stuck) insert when it times out, so it cannot be withdrawn: every
    # retry joins it instead of queueing the same spans again.
    assert [post(server.url, body)[0] for _ in range(3)] == [503, 503, 503]
    flaky.release.set()
    assert server.flush()
    assert post(server.url, body)[0] == 200
    assert span_count(store) == (1000, 1000)
    assert server.metrics.value("requests_deduplicated_total") == 3


def test_a_retry_of_a_written_request_is_acknowledged_without_writing_it_again(
    start_collector: StartCollector, store: Store
) -> None:
    server = start_collector()
    body = _spans(100)
    assert [post(server.url, body)[0] for _ in range(3)] == [200, 200, 200]
    assert span_count(store) == (100, 100)


def test_healthz_fails_while_the_writer_has_work_and_makes_no_progress(
    start_collector: StartCollector, store: Store, chdb_dsn: str
) -> None:
    flaky = FlakyStore(chdb_dsn)
    server = start_collector(store_override=flaky, stall_after_s=0.2, batch_idle_ms=0)
    assert post(server.url, b"", path="/healthz", method="GET")[0] == 200
    flaky.release.clear()
    sender = threading.Thread(target=post, args=(server.url, _spans(3)))
    sender.start()
    assert wait_until(lambda: flaky.insert_calls == 1)

    def stalled_report() -> dict[str, object] | None:
        status, _, body = post(server.url, b"", path="/healthz", method="GET")
        return json.loads(body) if status == 503 else None

    assert wait_until(lambda: stalled_report() is not None, timeout=10)
    report = stalled_report()
    assert report is not None and report["queue_rows"] == 3
    assert any("written nothing" in str(problem) for problem in report["problems"])  # type: ignore[attr-defined]
    flaky.release.set()
    sender.join()
    assert post(server.url, b"", path="/healthz", method="GET")[0] == 200


def test_healthz_fails_when_the_spool_is_over_its_high_water_mark(
    start_collector: StartCollector, store: Store, chdb_dsn: str, tmp_path: Path
) -> None:
    flaky = FlakyStore(chdb_dsn)
    flaky.down.set()
    server = start_collector(
        store_override=flaky, spool_dir=tmp_path / "spool", spool_max_bytes=40_000, spool_high_water=0.5
    )
    while server.spool is not None and server.spool.size_bytes <= 20_000:
        assert post(server.url, _spans(10))[0] == 200
    status, _, body = post(server.url, b"", path="/healthz", method="GET")
    assert status == 503
    assert any("spool is over 50% full" in problem for problem in json.loads(body)["problems"])
