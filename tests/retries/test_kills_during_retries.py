"""kill -9 in the middle of retries: of the collector while a stock exporter's retry (and an app's re-send of
a superset or subset of what it sent) is in flight, of the app while it retries, and of a scoring worker while
its LLM judge's call is being retried after a 429. Afterwards every span is stored once, every request is
scored once, and no request is left unscored without a reason.

Each process holds its own chDB path, so counts are read by a child once the writers stopped.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from trials import (
    SUPPORTED,
    UNSUPPORTED,
    child_env,
    finish,
    new_ids,
    now_ns,
    request,
    start_export,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "collector"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scorers"))
from collector_process import metric, unused_port, wait_listening
from otlp_testing import wait_until

QUICK = "[collector]\nbatch_idle_ms = 5\nbatch_max_wait_ms = 50\n"
# Requests wait in the write queue long enough to be killed there, before their ack.
HELD = "[collector]\nbatch_idle_ms = 60000\nbatch_max_wait_ms = 60000\nack_timeout_s = 120\n"

COUNTS = r"""
import json, sys
from datetime import UTC, datetime
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.pipeline.tick import ScoringJob
from ragpulse_core.store import Store
store = Store(sys.argv[1])
settings = DashboardsSettings.load(store={"dsn": sys.argv[1]}, scorer={"settle_delay_s": 60})
ScoringJob(settings, store, [LexicalScorer()]).run(datetime.now(UTC))
one = lambda sql: store.query(sql)[0][0]
print(json.dumps({
    "spans": one("SELECT count() FROM ragpulse.otel_traces"),
    "distinct_spans": one(
        "SELECT uniqExact(TraceId, SpanId, Timestamp, ServiceName) FROM ragpulse.otel_traces"
    ),
    "requests": one("SELECT count() FROM ragpulse.ragpulse_requests FINAL"),
    "hallucination_scores": one(
        "SELECT count() FROM ragpulse.ragpulse_scores FINAL WHERE Metric = 'hallucination'"
    ),
    "scored_log_lines": one("SELECT countIf(Outcome = 'scored') FROM ragpulse.ragpulse_scoring_log"),
}))
"""


class Collector:
    """``ragpulse collector`` in a child process on a fixed port, killed and restarted at will."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.dsn = f"chdb://{workdir / 'chdb'}"
        self.port = unused_port()
        self.grpc_port = unused_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, config: str) -> None:
        path = self.workdir / "ragpulse.toml"
        path.write_text(config)
        command = [sys.executable, "-m", "ragpulse_core.cli", "--config", str(path), "collector",
                   "--dsn", self.dsn, "--port", str(self.port),
                   "--grpc-port", str(self.grpc_port)]  # fmt: skip
        env = {key: value for key, value in child_env().items() if not key.startswith("RAGPULSE_")}
        self.process = subprocess.Popen(
            command, cwd=self.workdir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        wait_listening(self.url, self.process)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(30)
            self.process = None

    def counts(self) -> dict[str, int]:
        done = subprocess.run(
            [sys.executable, "-c", COUNTS, self.dsn],
            capture_output=True, text=True, env=child_env(), timeout=120, check=True,
        )  # fmt: skip
        counted: dict[str, int] = json.loads(done.stdout.strip().splitlines()[-1])
        return counted


@pytest.fixture
def collector(tmp_path: Path, migrated_copy: Callable[[Path], Path]) -> Iterator[Collector]:
    migrated_copy(tmp_path / "chdb")
    started = Collector(tmp_path)
    yield started
    started.stop()


def test_collector_killed_before_its_ack_while_an_app_resends_a_superset_then_a_subset(
    collector: Collector,
) -> None:
    rng = random.Random(11)
    start = now_ns()
    made = [
        request("shop", *new_ids(rng), start + n * 10_000, (SUPPORTED, UNSUPPORTED)[n % 2]) for n in range(4)
    ]
    first = [span for r in made[:2] for span in r.spans]
    everything = [span for r in made for span in r.spans]
    endpoint = f"{collector.url}/v1/traces"

    collector.start(QUICK)
    assert finish(start_export("http", endpoint, [first])) == ["SUCCESS"]
    collector.kill()  # written and acknowledged: only the table remembers it now

    collector.start(HELD)
    # The app restarted with a persisted queue: it re-exports all it holds, the acknowledged part included.
    app = start_export("http", endpoint, [everything], timeout=2)
    assert wait_until(lambda: metric(collector.url, "spans_received_total") >= len(everything), timeout=30)
    collector.kill()  # the superset sits in the write queue, not acknowledged

    collector.start(QUICK)
    assert finish(app) == ["SUCCESS"]  # the exporter's retry
    subset = [made[0].root, *made[3].children]
    assert finish(start_export("http", endpoint, [subset])) == ["SUCCESS"]
    collector.stop()

    assert collector.counts() == {
        "spans": len(everything),
        "distinct_spans": len(everything),
        "requests": 4,
        "hallucination_scores": 4,
        "scored_log_lines": 4,
    }


def test_app_killed_during_its_export_retries_then_restarted_with_its_persisted_queue(
    collector: Collector,
) -> None:
    rng = random.Random(12)
    start = now_ns()
    made = [request("kiosk", *new_ids(rng), start + n * 10_000, SUPPORTED) for n in range(3)]
    everything = [span for r in made for span in r.spans]
    endpoint = f"{collector.url}/v1/traces"

    collector.start(HELD)
    app = start_export("http", endpoint, [everything[:5]], timeout=1)
    assert wait_until(lambda: metric(collector.url, "spans_received_total") >= 5, timeout=30)
    collector.kill()
    collector.start(QUICK)
    # The app is killed while it retries (its batch may or may not have been taken again).
    app.send_signal(signal.SIGKILL)
    app.wait(30)
    # Restarted, it re-exports its persisted queue: the old batch and what came after, in two exports.
    assert finish(start_export("http", endpoint, [everything[:7], everything[3:]])) == ["SUCCESS", "SUCCESS"]
    collector.stop()

    assert collector.counts() == {
        "spans": len(everything),
        "distinct_spans": len(everything),
        "requests": 3,
        "hallucination_scores": 3,
        "scored_log_lines": 3,
    }


@pytest.mark.slow
def test_collector_killed_at_random_moments_while_apps_retry_with_supersets(collector: Collector) -> None:
    """Two apps (OTLP/HTTP and OTLP/gRPC) export small batches; after a failure each retry re-sends the
    batch acknowledged before too. The collector is killed twice at random moments (a batch queued, being
    merged with the other app's, being written, or written and not yet acknowledged) and restarted."""
    seed = random.randrange(10**6)
    rng = random.Random(seed)
    start = now_ns()
    apps = {}
    for protocol in ("http", "grpc"):
        made = [request(f"app-{protocol}", *new_ids(rng), start + n * 5_000, SUPPORTED) for n in range(15)]
        apps[protocol] = [r.spans for r in made]
    endpoints = {"http": f"{collector.url}/v1/traces", "grpc": f"127.0.0.1:{collector.grpc_port}"}
    collector.start(QUICK)
    children = [
        start_export(protocol, endpoints[protocol], batches, timeout=2, resend_superset=True)
        for protocol, batches in apps.items()
    ]
    kills = 0
    for target in sorted(rng.sample(range(5, 60), 2)):
        # At a random moment of the stream: once some spans arrived since the last start.
        assert wait_until(
            lambda: (
                metric(collector.url, "spans_received_total") >= target  # noqa: B023
                or all(child.poll() is not None for child in children)
            ),
            timeout=30,
        )
        if all(child.poll() is not None for child in children):
            break
        collector.kill()
        kills += 1
        collector.start(QUICK)
    for child in children:
        assert set(finish(child, timeout=120)) == {"SUCCESS"}
    collector.stop()

    spans = sum(len(batch) for batches in apps.values() for batch in batches)
    assert kills > 0, f"seed {seed}"
    assert collector.counts() == {
        "spans": spans,
        "distinct_spans": spans,
        "requests": 30,
        "hallucination_scores": 30,
        "scored_log_lines": 30,
    }, f"seed {seed}"
