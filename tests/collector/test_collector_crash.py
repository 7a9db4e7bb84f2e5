"""Collectors killed with SIGKILL: spooled spans are replayed exactly once, and a client's retry of a request
whose answer it never saw is not written twice.

The collectors run as ``ragpulse collector`` subprocesses with their own chDB path.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from collector_process import (
    count_spans,
    get,
    metric,
    start_collector_process,
    unused_port,
    wait_listening,
)
from otlp_testing import make_request, make_span, post, wait_until


@pytest.mark.slow
def test_spool_of_a_killed_collector_is_replayed_exactly_once(
    tmp_path: Path, migrated_copy: Callable[[Path], Path]
) -> None:
    spool = tmp_path / "spool"
    unreachable = f"http://127.0.0.1:{unused_port()}"
    port = unused_port()
    down = start_collector_process(unreachable, port, tmp_path, "--spool-dir", str(spool))
    try:
        url = f"http://127.0.0.1:{port}"
        assert wait_until(lambda: get(url + "/healthz") is not None, timeout=60), down.stderr
        health = json.loads(get(url + "/healthz") or b"{}")
        assert health["store_reachable"] is False
        bodies = [make_request([make_span() for _ in range(4)]).SerializeToString() for _ in range(3)]
        assert [post(url, body)[0] for body in bodies] == [200, 200, 200]
    finally:
        down.send_signal(signal.SIGKILL)
        down.wait(30)
    assert list(spool.glob("*.batch"))

    dsn = f"chdb://{migrated_copy(tmp_path / 'chdb')}"
    port = unused_port()
    up = start_collector_process(dsn, port, tmp_path, "--spool-dir", str(spool))
    try:
        url = f"http://127.0.0.1:{port}"
        assert wait_until(lambda: metric(url, "spans_replayed_total") == 12, timeout=60)
        assert metric(url, "spool_batches") == 0
    finally:
        up.send_signal(signal.SIGTERM)
        assert up.wait(30) == 0
    assert not list(spool.glob("*.batch"))
    assert count_spans(dsn) == [12, 12]


@pytest.mark.slow
def test_a_retry_after_a_kill_without_spool_is_not_written_twice(
    tmp_path: Path, migrated_copy: Callable[[Path], Path]
) -> None:
    dsn = f"chdb://{migrated_copy(tmp_path / 'chdb')}"
    body = make_request([make_span() for _ in range(100)]).SerializeToString()
    for attempt in range(2):
        # The client cannot tell a lost answer from a lost request, so it sends the same body again.
        port = unused_port()
        collector = start_collector_process(dsn, port, tmp_path)
        try:
            url = f"http://127.0.0.1:{port}"
            wait_listening(url, collector)
            assert post(url, body)[0] == 200, f"attempt {attempt}"
        finally:
            collector.send_signal(signal.SIGKILL)
            collector.wait(30)
    assert count_spans(dsn) == [100, 100]
