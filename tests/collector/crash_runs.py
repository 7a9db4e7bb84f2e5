"""kill -9 of a ``ragpulse collector`` while stock OTLP exporters retry until acknowledged: every span
acknowledged is stored, and stored once.

Senders are OpenTelemetry's own ``OTLPSpanExporter`` (HTTP/protobuf) in threads, each exporting fixed batches
of spans and calling ``export`` again until it returns SUCCESS, as a BatchSpanProcessor with retries would.
The collector is killed with SIGKILL at random moments and restarted on the same port and database.

Run ten crashes series (what issue 27 asks) with::

    python tests/collector/crash_runs.py --runs 10
"""

from __future__ import annotations

import argparse
import logging
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from collector_process import count_spans, start_collector_process, unused_port, wait_listening
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExportResult
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import SpanContext, SpanKind, TraceFlags


@dataclass(frozen=True)
class CrashRun:
    acknowledged: int
    rows: int
    distinct: int
    kills: int


def _batches(rng: random.Random, spans: int, per_request: int) -> list[list[ReadableSpan]]:
    resource = Resource({"service.name": "crash-test"})
    scope = InstrumentationScope("crash-test")
    now = time.time_ns()
    made = []
    for index in range(spans):
        context = SpanContext(
            rng.getrandbits(128), rng.getrandbits(64), is_remote=False, trace_flags=TraceFlags(1)
        )
        start = now - (spans - index) * 1_000_000
        made.append(
            ReadableSpan(
                name="retrieve",
                context=context,
                resource=resource,
                attributes={"ragpulse.query_index": index % 4, "payload": "x" * rng.randrange(50, 500)},
                kind=SpanKind.INTERNAL,
                start_time=start,
                end_time=start + 500_000,
                instrumentation_scope=scope,
            )
        )
    return [made[at : at + per_request] for at in range(0, spans, per_request)]


def crash_run(
    workdir: Path,
    *,
    seed: int,
    spool: bool,
    spans: int = 10_000,
    per_request: int = 100,
    senders: int = 4,
    kills: int = 3,
) -> CrashRun:
    """One series: senders export ``spans`` while the collector is killed ``kills`` times, each at a random
    moment of its share of the stream."""
    rng = random.Random(seed)
    batches = _batches(rng, spans, per_request)
    dsn = f"chdb://{workdir / 'chdb'}"
    flags = ("--spool-dir", str(workdir / "spool")) if spool else ()
    port = unused_port()
    url = f"http://127.0.0.1:{port}"
    lock = threading.Lock()
    acknowledged = [0]

    def send(share: list[list[ReadableSpan]]) -> None:
        exporter = OTLPSpanExporter(endpoint=f"{url}/v1/traces", timeout=5)
        for batch in share:
            while exporter.export(batch) is not SpanExportResult.SUCCESS:
                time.sleep(0.05)
            with lock:
                acknowledged[0] += len(batch)

    collector = start_collector_process(dsn, port, workdir, *flags)
    wait_listening(url, collector)
    threads = [threading.Thread(target=send, args=(batches[n::senders],)) for n in range(senders)]
    for thread in threads:
        thread.start()
    done = 0
    try:
        for kill in range(kills):
            # Somewhere in the kill-th share of the stream, so every kill lands while senders are sending.
            target = spans * rng.uniform(kill, kill + 1) / (kills + 1)
            while acknowledged[0] < target and any(thread.is_alive() for thread in threads):
                time.sleep(0.005)
            time.sleep(rng.uniform(0, 0.2))
            if not any(thread.is_alive() for thread in threads):
                break
            collector.send_signal(signal.SIGKILL)
            collector.wait(30)
            done += 1
            collector = start_collector_process(dsn, port, workdir, *flags)
            wait_listening(url, collector)
        for thread in threads:
            thread.join(600)
    finally:
        collector.send_signal(signal.SIGTERM)
        try:
            collector.wait(60)
        except subprocess.TimeoutExpired:
            collector.kill()
            collector.wait(30)
    rows, distinct = count_spans(dsn)
    return CrashRun(acknowledged[0], rows, distinct, done)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--spans", type=int, default=10_000)
    parser.add_argument("--kills", type=int, default=3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.CRITICAL)  # the exporters' retry warnings
    exact = 0
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as workdir:
            result = crash_run(
                Path(workdir), seed=run, spool=run % 2 == 1, spans=args.spans, kills=args.kills
            )
        ok = result.rows == result.distinct == result.acknowledged == args.spans and result.kills > 0
        exact += ok
        print(
            f"run {run + 1} ({'spool' if run % 2 else 'no spool'}): {result.kills} kills, "
            f"{result.acknowledged} acknowledged, {result.rows} rows, {result.distinct} distinct spans"
            f" -> {'exactly once' if ok else 'WRONG'}",
            flush=True,
        )
    print(f"{exact} of {args.runs} runs stored every acknowledged span exactly once")


if __name__ == "__main__":
    main()
