"""A collector killed between spooling and replaying: the next one writes every spooled span exactly once.

Both collectors run as ``ragpulse collector`` subprocesses with their own chDB path (chDB allows one path per
process, and this test process already holds the session's); the rows are counted by a third child.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from otlp_testing import make_request, make_span, post, wait_until


def _unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _collector(dsn: str, port: int, spool: Path, cwd: Path) -> subprocess.Popen[bytes]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAGPULSE_")}
    command = [
        sys.executable,
        "-m",
        "ragpulse_core.cli",
        "collector",
        "--dsn",
        dsn,
        "--port",
        str(port),
        "--spool-dir",
        str(spool),
    ]
    return subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _get(url: str) -> bytes | None:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bytes(response.read())
    except OSError:
        return None


def _metric(url: str, name: str) -> float:
    text = (_get(url + "/metrics") or b"").decode()
    for line in text.splitlines():
        if line.startswith(f"ragpulse_collector_{name} "):
            return float(line.split()[1])
    return -1.0


@pytest.mark.slow
def test_spool_of_a_killed_collector_is_replayed_exactly_once(tmp_path: Path) -> None:
    spool = tmp_path / "spool"
    unreachable = f"http://127.0.0.1:{_unused_port()}"
    port = _unused_port()
    down = _collector(unreachable, port, spool, tmp_path)
    try:
        url = f"http://127.0.0.1:{port}"
        assert wait_until(lambda: _get(url + "/healthz") is not None, timeout=60), down.stderr
        health = json.loads(_get(url + "/healthz") or b"{}")
        assert health["store_reachable"] is False
        bodies = [make_request([make_span() for _ in range(4)]).SerializeToString() for _ in range(3)]
        assert [post(url, body)[0] for body in bodies] == [200, 200, 200]
    finally:
        down.send_signal(signal.SIGKILL)
        down.wait(30)
    assert list(spool.glob("*.batch"))

    dsn = f"chdb://{tmp_path / 'chdb'}"
    port = _unused_port()
    up = _collector(dsn, port, spool, tmp_path)
    try:
        url = f"http://127.0.0.1:{port}"
        assert wait_until(lambda: _metric(url, "spans_replayed_total") == 12, timeout=60)
        assert _metric(url, "spool_batches") == 0
    finally:
        up.send_signal(signal.SIGTERM)
        assert up.wait(30) == 0
    assert not list(spool.glob("*.batch"))

    count = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from ragpulse_core.store import Store; print(list(Store(sys.argv[1]).query("
            "'SELECT count(), uniqExact(SpanId) FROM ragpulse.otel_traces')[0]))",
            dsn,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(count.stdout.strip().splitlines()[-1]) == [12, 12]
