"""Adversarial bodies against a ``ragpulse collector`` subprocess, measuring its resident memory.

Each request is a log record whose body is an array holding one long string of ``<``, which the stored
JSON renders six times larger (``\\u003c``). Requests are sent concurrently in rounds over loopback; the
collector's peak resident set (VmHWM) and its resident set once idle again (VmRSS) are read from /proc.

    python tests/collector/memory_burst.py --string-mib 10 --concurrent 12 --rounds 3
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from collector_process import metric, peak_rss_bytes, start_collector_process, unused_port, wait_listening
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, ArrayValue
from otlp_testing import make_log_record, post, wait_until

MiB = 1024 * 1024


@dataclass(frozen=True)
class Burst:
    statuses: list[int]
    baseline_rss: int
    peak_rss: int
    idle_rss: int


def resident_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def escaped_log_body(string_bytes: int) -> bytes:
    request = ExportLogsServiceRequest()
    resource_logs = request.resource_logs.add()
    record = make_log_record()
    record.body.CopyFrom(AnyValue(array_value=ArrayValue(values=[AnyValue(string_value="<" * string_bytes)])))
    resource_logs.scope_logs.add().log_records.append(record)
    return request.SerializeToString()


def burst(
    url: str, pid: int, string_bytes: int, *, concurrent: int, rounds: int, idle_s: float, settled_margin: int
) -> Burst:
    """The idle resident set is the lowest seen within ``idle_s`` of the queue emptying. Reading stops once it
    is within ``settled_margin`` of the baseline, so a loaded machine that frees memory slowly gets time."""
    baseline = resident_bytes(pid)
    statuses: list[int] = []
    lock = threading.Lock()

    def send() -> None:
        try:
            status = post(url, escaped_log_body(string_bytes), path="/v1/logs")[0]
        except OSError:  # no answer in time
            status = 0
        with lock:
            statuses.append(status)

    for _ in range(rounds):
        threads = [threading.Thread(target=send) for _ in range(concurrent)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(300)
    peak = peak_rss_bytes(pid)
    # Requests whose senders gave up may still be queued: idle means nothing left to write.
    wait_until(lambda: metric(url, "queue_rows") == 0, timeout=300)
    idle = resident_bytes(pid)
    settle_by = time.monotonic() + idle_s
    while idle >= baseline + settled_margin and time.monotonic() < settle_by:
        time.sleep(0.2)
        idle = min(idle, resident_bytes(pid))
    return Burst(statuses, baseline, peak, idle)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--string-mib", type=float, default=10)
    parser.add_argument("--concurrent", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--idle-s", type=float, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        port = unused_port()
        process = start_collector_process(f"chdb://{Path(workdir) / 'chdb'}", port, Path(workdir))
        url = f"http://127.0.0.1:{port}"
        try:
            wait_listening(url, process)
            result = burst(
                url,
                process.pid,
                int(args.string_mib * MiB),
                concurrent=args.concurrent,
                rounds=args.rounds,
                idle_s=args.idle_s,
                settled_margin=0,
            )
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(60)
    codes = {code: result.statuses.count(code) for code in sorted(set(result.statuses))}
    print(
        f"{args.concurrent} x {args.rounds} requests of {args.string_mib:g} MiB of '<': answers {codes}; "
        f"resident before {result.baseline_rss / MiB:.0f} MiB, peak {result.peak_rss / MiB:.0f} MiB, "
        f"lowest within {args.idle_s:g} s after {result.idle_rss / MiB:.0f} MiB"
    )


if __name__ == "__main__":
    main()
