"""Running ``ragpulse serve`` (and other long-running commands) as a child process in tests."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ragpulse_core.store import Store
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_scorers.models import RagRequest, Score

SLOW_MARKER_ENV = "RAGPULSE_TEST_SLOW_MARKER"
SLOW_JUDGMENT_S = 0.2


class OutputLines:
    """A process's output, read by one thread so waiting for a line never loses another."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self._lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(process,), daemon=True).start()

    def _read(self, process: subprocess.Popen[str]) -> None:
        for line in process.stdout or ():
            self._lines.put(line)

    def wait_for(self, wanted: str, timeout_s: float) -> str:
        """The first new line containing ``wanted``; fails after ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            try:
                line = self._lines.get(timeout=0.2)
            except queue.Empty:
                continue
            self.seen.append(line)
            if wanted in line:
                return line
        raise AssertionError(f"no line with {wanted!r} in {timeout_s} s: {''.join(self.seen)}")

    def rest(self, timeout_s: float = 5.0) -> str:
        """Every line seen so far and any that arrive within ``timeout_s`` (for a process that has exited)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            try:
                self.seen.append(self._lines.get(timeout=0.2))
            except queue.Empty:
                break
        return "".join(self.seen)


def otlp_root_spans(traces: list[str], service: str = "svc") -> bytes:
    """One OTLP/JSON export request holding a ragpulse root span per trace id."""
    now = time.time_ns()
    attributes = {
        "ragpulse.kind": "rag",
        "ragpulse.variant": "A",
        "input.value": "What is the capital of France?",
        "output.value": "Paris.",
        "ragpulse.context": json.dumps([{"id": "c1", "text": "Paris is the capital of France."}]),
    }
    spans = [
        {
            "traceId": trace,
            "spanId": trace[:16],
            "name": "rag demo",
            "kind": 1,
            "startTimeUnixNano": str(now - 2_000_000),
            "endTimeUnixNano": str(now),
            "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attributes.items()],
        }
        for trace in traces
    ]
    resource = {"attributes": [{"key": "service.name", "value": {"stringValue": service}}]}
    scope_spans = [{"scope": {"name": "t"}, "spans": spans}]
    body = {"resourceSpans": [{"resource": resource, "scopeSpans": scope_spans}]}
    return json.dumps(body).encode()


class SlowScorer:
    """Takes ``SLOW_JUDGMENT_S`` per request, like a remote judge; touches the marker file when it starts."""

    name = "slow"
    version = "1"
    requires: tuple[str, ...] = ()

    def __init__(self, marker: Path | None) -> None:
        self._marker = marker

    def score(self, request: RagRequest) -> list[Score]:
        if self._marker is not None:
            self._marker.touch()
        time.sleep(SLOW_JUDGMENT_S)
        return [Score(metric="answer_chars", value=float(len(request.answer)))]


def build_slow(settings: DashboardsSettings, store: Store) -> SlowScorer:
    """A registry factory (``serve_process:build_slow``); the marker path comes from the environment."""
    marker = os.environ.get(SLOW_MARKER_ENV)
    return SlowScorer(Path(marker) if marker else None)


def count_rows(dsn: str, sql: str, env: dict[str, Any]) -> int:
    """A count from a chDB path, in a process of its own (this one holds the session's database)."""
    script = (
        "import sys\nfrom ragpulse_core.store import Store\n"
        f"store = Store({dsn!r}, read_only=True)\nprint(store.query({sql!r})[0][0])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120, check=True
    )
    return int(done.stdout.strip().splitlines()[-1])
