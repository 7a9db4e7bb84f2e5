"""/healthz tells the truth about full disks: not ok, with the reason, while writes fail for want of space
(the spool's disk or the database's) or of a store, and ok again by itself once writes could succeed, with
no new request needed (a readiness probe that holds traffic back on 503 would otherwise never recover)."""

from __future__ import annotations

import base64
import errno
import json
import os
import resource
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from collector_process import count_spans, start_collector_process, unused_port, wait_listening
from conftest import StartCollector
from google.rpc import status_pb2
from otlp_testing import FlakyStore, make_request, make_span, post, span_count, wait_until
from ragpulse_collector.tables import TableRows
from ragpulse_collector.writer import RECOVERY_PROBE_S
from ragpulse_core.store import Store, StoreUnavailable

# What ClickHouse answers when a part cannot be written for want of space.
NOT_ENOUGH_SPACE = (
    "insert into `ragpulse`.`otel_traces` failed on http://ch:8123: Code: 243. DB::Exception: Cannot reserve"
    " 1.00 MiB, not enough space. (NOT_ENOUGH_SPACE)\nStack trace: ..."
)


def _health(url: str) -> tuple[int, dict[str, Any]]:
    status, _, body = post(url, b"", path="/healthz", method="GET")
    return status, json.loads(body)


def _send(url: str) -> tuple[int, str]:
    status, _, reply = post(url, make_request([make_span()]).SerializeToString())
    return status, (status_pb2.Status.FromString(reply).message if status != 200 else "")


def test_a_full_spool_disk_fails_health_until_the_disk_has_room_again_without_new_requests(
    start_collector: StartCollector,
    store: Store,
    chdb_dsn: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    flaky = FlakyStore(chdb_dsn)
    flaky.down.set()  # every batch has to be spooled
    server = start_collector(store_override=flaky, spool_dir=tmp_path / "spool", store_retry_ms=50)
    assert server.spool is not None
    disk_full = threading.Event()
    disk_full.set()
    append = server.spool.append

    def append_unless_full(token: str, rows: TableRows) -> None:
        if disk_full.is_set():
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp_path / "spool" / "x.tmp"))
        append(token, rows)

    has_room = server.spool.has_room
    monkeypatch.setattr(server.spool, "append", append_unless_full)
    monkeypatch.setattr(server.spool, "has_room", lambda size: not disk_full.is_set() and has_room(size))

    status, message = _send(server.url)
    assert status == 503 and "no room on the spool's disk" in message
    status, report = _health(server.url)
    assert status == 503 and report["ok"] is False
    assert any("writes are failing" in p and "No space left on device" in p for p in report["problems"])

    assert _health(server.url)[0] == 503  # a probe a second later finds the disk still full

    disk_full.clear()
    assert wait_until(lambda: _health(server.url)[0] == 200)
    assert _send(server.url) == (200, "")
    flaky.down.clear()
    assert wait_until(lambda: len(server.spool or []) == 0)
    assert span_count(store) == (1, 1)


class OutOfSpaceStore(FlakyStore):
    """The real store, except that inserts fail as ClickHouse's do when its disk is full (``full`` set);
    it still answers pings, as a server with a full disk does."""

    def __init__(self, dsn: str) -> None:
        super().__init__(dsn)
        self.full = threading.Event()

    def insert_columns(
        self, table: str, columns: Any, column_types: Any, *, dedup_token: str | None = None
    ) -> None:
        if self.full.is_set():
            raise StoreUnavailable(NOT_ENOUGH_SPACE)
        super().insert_columns(table, columns, column_types, dedup_token=dedup_token)

    def has_free_space(self, size: int) -> bool:
        return not self.full.is_set() and super().has_free_space(size)


@pytest.mark.parametrize("spooled", [True, False])
def test_a_full_database_disk_fails_health_until_it_has_room_again_without_new_requests(
    start_collector: StartCollector, store: Store, chdb_dsn: str, tmp_path: Path, spooled: bool
) -> None:
    full = OutOfSpaceStore(chdb_dsn)
    full.full.set()
    spool = {"spool_dir": tmp_path / "spool", "store_retry_ms": 50} if spooled else {}
    server = start_collector(store_override=full, **spool)

    status, message = _send(server.url)
    assert (status, "no spool" in message) == ((200, False) if spooled else (503, True))
    status, report = _health(server.url)
    assert status == 503 and report["store_reachable"] is True
    [database_full] = [p for p in report["problems"] if "the database is out of disk space" in p]
    assert "NOT_ENOUGH_SPACE" in database_full and "Stack trace" not in database_full
    assert ("spooling meanwhile" in database_full) == spooled
    assert any("writes are failing" in p for p in report["problems"]) == (not spooled)

    time.sleep(RECOVERY_PROBE_S * 1.5)
    assert _health(server.url)[0] == 503  # probed, and still full

    full.full.clear()
    # Spooled batches replay on their own once the store takes them; without a spool a probe finds room.
    assert wait_until(lambda: _health(server.url)[0] == 200)
    if not spooled:
        assert _send(server.url) == (200, "")
    assert span_count(store) == (1, 1)


def test_a_store_that_comes_back_turns_health_ok_without_new_requests(
    start_collector: StartCollector, store: Store, chdb_dsn: str
) -> None:
    flaky = FlakyStore(chdb_dsn)
    flaky.down.set()
    server = start_collector(store_override=flaky)

    status, message = _send(server.url)
    assert status == 503 and "no spool directory" in message
    time.sleep(RECOVERY_PROBE_S * 1.5)
    status, report = _health(server.url)
    assert status == 503 and any("writes are failing" in p for p in report["problems"])

    flaky.down.clear()
    assert wait_until(lambda: _health(server.url) == (200, {**_health(server.url)[1], "problems": []}))
    assert _send(server.url) == (200, "")
    assert span_count(store) == (1, 1)


def _ignore_file_size_signal() -> None:
    """Past RLIMIT_FSIZE a write gets EFBIG instead of the process being killed."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


@pytest.mark.slow
def test_a_real_file_size_limit_fails_health_while_it_holds_and_not_after(
    tmp_path: Path, migrated_copy: Callable[[Path], Path]
) -> None:
    """No root needed: RLIMIT_FSIZE makes the kernel refuse the database's and the spool's writes alike, as a
    full disk would (EFBIG where a disk gives ENOSPC), and lifting it is the disk freed. The limit is set once
    the collector listens, so it starts on a migrated copy."""
    dsn = f"chdb://{migrated_copy(tmp_path / 'chdb')}"
    port = unused_port()
    process = start_collector_process(
        dsn, port, tmp_path, "--spool-dir", str(tmp_path / "spool"), preexec_fn=_ignore_file_size_signal
    )
    url = f"http://127.0.0.1:{port}"
    # Random bytes do not compress, so the rows' files and the spooled batch are all past the limit.
    body = make_request([make_span(attrs={"blob": base64.b64encode(os.urandom(300_000)).decode()})])
    try:
        wait_listening(url, process)
        resource.prlimit(process.pid, resource.RLIMIT_FSIZE, (64 * 1024, resource.RLIM_INFINITY))
        status, _, reply = post(url, body.SerializeToString())
        assert status == 503, reply
        assert "no room on the spool's disk" in status_pb2.Status.FromString(reply).message
        status, report = _health(url)
        assert status == 503
        problems = " | ".join(report["problems"])
        assert "the database is out of disk space" in problems and "File too large" in problems
        assert not list((tmp_path / "spool").glob("*.tmp"))

        time.sleep(RECOVERY_PROBE_S * 1.5)
        assert _health(url)[0] == 503  # probed, and the limit still holds

        resource.prlimit(process.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        assert wait_until(lambda: _health(url)[1]["problems"] == []), _health(url)  # no request needed
        assert post(url, body.SerializeToString())[0] == 200
        status, report = _health(url)
        assert (status, report["problems"]) == (200, [])
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
    assert count_spans(dsn) == [1, 1]
