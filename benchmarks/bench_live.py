"""The live page under load, side by side: this tree's aiohttp page against the stdlib page it replaced.

Both serve the same report over the same generated rows (two services, ``--requests`` over a day), in this
process, one after the other. The clients run in a child process so they do not share the servers' GIL:

- **burst**: ``--concurrent`` GETs on fresh connections, all at once (everyone reloading after an incident);
  each has 30 s. Counted: answered with the page, failed (refused, reset, timed out); latency quantiles.
- **slow clients**: ``--slow`` connections that send half a request head and then nothing (slowloris), held
  open while ``--probes`` normal GETs of one service's view run one after another (the first renders it, the
  others may share that render); the probes' latency and failures, and the most threads the server process had
  meanwhile.

Goals: 0 failures in the burst; a normal GET within 2 s while the slow clients are connected.

    python benchmarks/bench_live.py --requests 20000 --concurrent 500 --slow 300
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from ragpulse_core.schema import migrate
from ragpulse_core.store import Store
from ragpulse_dashboards.live import LivePage, ReadToken, TokenSource
from ragpulse_dashboards.settings import DashboardsSettings
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).parent))

from bench_queries import SERVICES, generate

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "7b7602e"  # the last commit with the stdlib (http.server) live page
BASELINE_MODULE = "dashboards/src/ragpulse_dashboards/report/live.py"
TOKEN = "bench-token"
GOAL_PROBE_S = 2.0
CLIENT_TIMEOUT_S = 30.0
console = Console(width=120)


class Page(Protocol):
    url: Any

    def start(self) -> None: ...
    def stop(self) -> None: ...


async def _get(host: str, port: int, path: str) -> tuple[bool, float]:
    """One GET on a fresh connection: (the page came back, seconds)."""
    started = time.perf_counter()
    try:
        async with asyncio.timeout(CLIENT_TIMEOUT_S):
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {TOKEN}\r\n"
                "Connection: close\r\n\r\n".encode()
            )
            reply = await reader.read()
            writer.close()
        return reply.startswith(b"HTTP/1.") and b" 200 " in reply[:16] and b"ragpulse report" in reply, (
            time.perf_counter() - started
        )
    except (OSError, TimeoutError):
        return False, time.perf_counter() - started


async def _load(url: str, concurrent: int, slow: int, probes: int) -> dict[str, Any]:
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    started = time.perf_counter()
    burst = await asyncio.gather(*(_get(host, port, "/") for _ in range(concurrent)))
    burst_s = time.perf_counter() - started
    slow_writers = []
    for _ in range(slow):
        try:
            _, writer = await asyncio.open_connection(host, port)
        except OSError:
            continue
        writer.write(f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nX-Slow: ".encode())
        slow_writers.append(writer)
    await asyncio.sleep(1.0)  # let the server take them all in
    probe_results = [await _get(host, port, f"/?service={SERVICES[1]}") for _ in range(probes)]
    for writer in slow_writers:
        writer.close()
    return {
        "burst_ok": sum(ok for ok, _ in burst),
        "burst_failed": sum(not ok for ok, _ in burst),
        "burst_s": burst_s,
        "burst_latencies": sorted(seconds for _, seconds in burst),
        "slow_connected": len(slow_writers),
        "probe_ok": sum(ok for ok, _ in probe_results),
        "probe_failed": sum(not ok for ok, _ in probe_results),
        "probe_latencies": sorted(seconds for _, seconds in probe_results),
    }


def _child(url: str, concurrent: int, slow: int, probes: int) -> None:
    print("RESULT " + json.dumps(asyncio.run(_load(url, concurrent, slow, probes))))


def _measure(page: Page, concurrent: int, slow: int, probes: int) -> dict[str, Any]:
    """Run the clients against ``page`` in a child process, sampling this process's threads meanwhile."""
    most_threads = threading.active_count()
    done = threading.Event()

    def sample() -> None:
        nonlocal most_threads
        while not done.wait(0.05):
            most_threads = max(most_threads, threading.active_count())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        finished = subprocess.run(
            [sys.executable, __file__, "--client", str(page.url), str(concurrent), str(slow), str(probes)],
            capture_output=True, text=True, timeout=900, check=True,
        )  # fmt: skip
    finally:
        done.set()
        sampler.join()
    line = next(line for line in finished.stdout.splitlines() if line.startswith("RESULT "))
    result: dict[str, Any] = json.loads(line.removeprefix("RESULT "))
    result["threads"] = most_threads
    return result


def _baseline_class() -> Callable[[DashboardsSettings, Store], Page] | None:
    """The stdlib ``LivePage`` at ``BASELINE`` (serving this tree's report), or None without that commit."""
    shown = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{BASELINE}:{BASELINE_MODULE}"], capture_output=True, text=True
    )
    if shown.returncode != 0:
        return None
    path = Path(tempfile.mkdtemp(prefix="ragpulse-bench-live-")) / "stdlib_live.py"
    path.write_text(shown.stdout)
    spec = importlib.util.spec_from_file_location("stdlib_live", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def quiet(settings: DashboardsSettings, store: Store) -> Page:
        # Clients it failed hang up mid-answer; its server would print a traceback for each.
        page: Any = module.LivePage(settings, store)
        page._http.handle_error = lambda request, address: None
        return page  # type: ignore[no-any-return]

    return quiet


@contextmanager
def _serving(page: Page) -> Iterator[Page]:
    page.start()
    try:
        yield page
    finally:
        page.stop()


def _quantile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(share * len(values)))] if values else float("nan")


def _rows(result: dict[str, Any]) -> dict[str, str]:
    burst, probes = result["burst_latencies"], result["probe_latencies"]
    return {
        "burst: answered / failed": f"{result['burst_ok']} / {result['burst_failed']}",
        "burst: wall time": f"{result['burst_s']:.2f} s",
        "burst: latency p50 / p95 / max": (
            f"{_quantile(burst, 0.5):.2f} / {_quantile(burst, 0.95):.2f} / {max(burst):.2f} s"
        ),
        "slow clients connected": str(result["slow_connected"]),
        "probes with slow clients: answered / failed": f"{result['probe_ok']} / {result['probe_failed']}",
        "probe latency median / max": (
            f"{statistics.median(probes):.3f} / {max(probes):.3f} s" if probes else "–"
        ),
        "most threads in the server process": str(result["threads"]),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--requests", type=int, default=20_000, help="generated requests over one day")
    parser.add_argument("--concurrent", type=int, default=500)
    parser.add_argument("--slow", type=int, default=300)
    parser.add_argument("--probes", type=int, default=10)
    parser.add_argument("--client", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.client:
        url, *numbers = args.client
        _child(url, *(int(number) for number in numbers))
        return

    with tempfile.TemporaryDirectory(prefix="ragpulse-bench-live-") as scratch:
        store = Store(f"chdb://{scratch}/chdb")
        migrate(store, 30)
        console.print(f"generating {args.requests:,} requests over a day …")
        generate(store, args.requests, 1)
        settings = DashboardsSettings.load(None, live={"host": "127.0.0.1", "port": 0})
        token = ReadToken(TOKEN, TokenSource.READ_TOKEN)
        pages: dict[str, Callable[[], Page]] = {}
        pages["aiohttp (this tree)"] = lambda: LivePage(settings, store, token)
        baseline = _baseline_class()
        if baseline is not None:
            pages[f"stdlib ({BASELINE})"] = lambda: baseline(settings, store)
        results: dict[str, dict[str, Any]] = {}
        for name, make in pages.items():
            console.print(f"measuring {name} …")
            with _serving(make()) as page:
                results[name] = _measure(page, args.concurrent, args.slow, args.probes)
        store.close()

    table = Table(
        title=f"live page: {args.concurrent} concurrent GETs, then {args.slow} slow clients and probes"
    )
    table.add_column("measure")
    for name in results:
        table.add_column(name, justify="right")
    shown = {name: _rows(result) for name, result in results.items()}
    for measure in next(iter(shown.values())):
        table.add_row(measure, *(rows[measure] for rows in shown.values()))
    console.print(table)
    ours = results["aiohttp (this tree)"]
    probe_max = max(ours["probe_latencies"], default=float("inf"))
    met = not ours["burst_failed"] and probe_max <= GOAL_PROBE_S
    console.print(
        f"goals: burst failures {ours['burst_failed']} (goal 0); slowest probe {probe_max:.3f} s"
        f" (goal ≤ {GOAL_PROBE_S:g} s): {'met' if met else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
