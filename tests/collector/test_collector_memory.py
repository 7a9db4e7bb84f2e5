"""Memory stays bounded under bodies that grow once stored (issue 27 item 7).

A string inside an array or map is stored as JSON, where each ``<`` takes six bytes: limits count that
rendered size, a request that would pass the limit only once mapped gets 413, and a collector's resident
memory stays below 1.5 GiB under a burst of requests that each pass, and returns once the burst is written.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from collector_process import start_collector_process, unused_port, wait_listening
from conftest import StartCollector
from google.rpc import status_pb2
from memory_burst import MiB, burst, escaped_log_body
from otlp_testing import log_count, post
from ragpulse_core.settings import CollectorSettings
from ragpulse_core.store import Store

GiB = 1024 * MiB
LIMIT = CollectorSettings().max_expanded_bytes


def test_a_body_under_the_size_limit_that_renders_past_the_row_limit_gets_413(
    start_collector: StartCollector, store: Store
) -> None:
    server = start_collector()
    string = LIMIT // 6 + MiB  # sent well under max_body_bytes; stored as six times that
    status, _, reply = post(server.url, escaped_log_body(string), path="/v1/logs")
    assert status == 413
    assert "once stored" in status_pb2.Status.FromString(reply).message
    assert post(server.url, escaped_log_body(LIMIT // 6 - MiB), path="/v1/logs")[0] == 200
    assert log_count(store) == 1


@pytest.mark.slow
def test_resident_memory_stays_under_1_5_gib_for_a_burst_of_requests_that_each_pass_and_returns_after(
    tmp_path: Path,
) -> None:
    port = unused_port()
    process = start_collector_process(f"chdb://{tmp_path / 'chdb'}", port, tmp_path)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_listening(url, process)
        # Each one just under the limit once rendered, sixteen at once, twice.
        # The memory must come back within a minute; on a quiet machine that takes a few seconds.
        result = burst(
            url, process.pid, LIMIT // 6 - MiB, concurrent=16, rounds=2, idle_s=60, settled_margin=150 * MiB
        )
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(60)
    assert 200 in result.statuses
    assert result.peak_rss < 1.5 * GiB, result
    assert result.idle_rss < result.baseline_rss + 150 * MiB, result
