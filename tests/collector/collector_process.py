"""``ragpulse collector`` as a subprocess with its own chDB path, for crashes and memory ceilings.

chDB allows one data path per process and the test process already holds the session's, so the rows such a
collector wrote are counted by another child once it has stopped.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from pathlib import Path

from otlp_testing import wait_until


def unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_collector_process(
    dsn: str, port: int, cwd: Path, *flags: str, preexec_fn: Callable[[], None] | None = None
) -> subprocess.Popen[bytes]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAGPULSE_")}
    if "PYTHONPATH" in env:
        # The child runs in ``cwd``: relative entries would silently import an installed copy instead.
        env["PYTHONPATH"] = os.pathsep.join(
            str(Path(entry).resolve()) for entry in env["PYTHONPATH"].split(os.pathsep)
        )
    command = [
        sys.executable,
        "-m",
        "ragpulse_core.cli",
        "collector",
        "--dsn",
        dsn,
        "--port",
        str(port),
        *flags,
    ]
    return subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=preexec_fn
    )


def get(url: str) -> bytes | None:
    """The body of a 200, None for any other answer or none."""
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bytes(response.read())
    except OSError:
        return None


def wait_listening(url: str, process: subprocess.Popen[bytes]) -> None:
    assert wait_until(lambda: get(url + "/metrics") is not None or process.poll() is not None, timeout=60)
    assert process.poll() is None, process.stderr.read() if process.stderr else ""


def metric(url: str, name: str) -> float:
    text = (get(url + "/metrics") or b"").decode()
    for line in text.splitlines():
        if line.startswith(f"ragpulse_collector_{name} "):
            return float(line.split()[1])
    return -1.0


def count_spans(dsn: str) -> list[int]:
    """[rows, distinct span ids] in otel_traces, read by a child (the writer must have stopped)."""
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
    counted: list[int] = json.loads(count.stdout.strip().splitlines()[-1])
    return counted


def peak_rss_bytes(pid: int) -> int:
    """The process's peak resident set so far (VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmHWM for process {pid}")
