"""A backfill at scale: ``ragpulse score --rule NAME --since 7d`` over 1,000,000 stored requests.

The requests (default 1,000,000 over 7 days, current timestamps because of the TTL) are generated with
``INSERT … SELECT`` from ``numbers()`` straight into ``ragpulse_requests`` of a chDB database under
``.bench-cache/`` and kept there; each run copies them into a fresh database beside them, so every run
starts with nothing judged. A rule with the free lexical judge is backfilled over the window; the run is
stopped (as Ctrl-C does) after ``--batches`` batches, so on a busy machine it times a fixed amount of work and
extrapolates to the whole window. It prints the throughput (requests judged per second), the time per batch
spent selecting candidates against the rest (judging and writing), then resumes: the resumed run's first
batch shows whether it picks up where the first one stopped or reads the window again. A third run goes on
with the whole window as one slice, as every batch read it before the window was sliced, side by side.
Last, it checks that no request has two score rows for the judge.

    python benchmarks/bench_backfill.py --requests 1000000 --batches 2
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest.mock import patch

from ragpulse_core.schema import available_migrations, migrate
from ragpulse_core.store import Store
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline import turn
from ragpulse_scorers.pipeline.backfill import SLICE_REQUESTS, Backfill
from ragpulse_scorers.pipeline.candidates import Candidate, Selection, select_candidates
from ragpulse_scorers.rules.model import Rule
from ragpulse_scorers.settings import ScorersSettings
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
TTL_DAYS = 40
GENERATOR_VERSION = 1
JUDGE = "lexical"
RULE = Rule(name="bench-lexical", judges=[JUDGE], match={"service": "shop-search"}, sample_rate=1.0)
SERVICES = ("shop-search", "support-bot")
console = Console(width=120)


def generate(store: Store, requests: int, days: int) -> None:
    """Request i started (i / requests) of the way back from now; one in two is the rule's service."""
    seconds = days * 86400
    context = (
        '[{"id": "doc", "text": "Open settings and enable the feature. It takes effect after a restart."}]'
    )
    store.command(f"""
        INSERT INTO {store.table("ragpulse_requests")}
            (TraceId, SpanId, Timestamp, ServiceName, Pipeline, Variant, Question, Answer, Context,
             DurationMs, StatusCode, SampleKey)
        SELECT
            lower(hex(MD5(toString(number)))) AS TraceId,
            substring(TraceId, 1, 16) AS SpanId,
            now64(9) - toIntervalMillisecond(intDiv(number * {seconds * 1000}, {requests})) AS Timestamp,
            ['{SERVICES[0]}', '{SERVICES[1]}'][number % 2 + 1] AS ServiceName,
            'fusion' AS Pipeline,
            ['A', 'B'][intDiv(number, 2) % 2 + 1] AS Variant,
            concat('How do I configure feature ', toString(number % 5000), '?') AS Question,
            concat('Open settings and enable feature ', toString(number % 5000),
                   '. It takes effect after a restart.') AS Answer,
            '{context}' AS Context,
            toFloat64(20 + cityHash64(number) % 400) AS DurationMs,
            'Ok' AS StatusCode,
            cityHash64(TraceId) AS SampleKey
        FROM numbers({requests})
        SETTINGS max_insert_threads = 2, max_block_size = 65536
    """)


def _dataset_key(requests: int, days: int) -> str:
    versions = ",".join(str(m.version) for m in available_migrations())
    return hashlib.sha256(f"{GENERATOR_VERSION}/{requests}/{days}/{versions}".encode()).hexdigest()[:12]


def prepare(cache: Path, requests: int, days: int) -> Store:
    """A fresh database holding the cached requests (generated the first time) and nothing judged."""
    path = cache / f"backfill-{requests}-{_dataset_key(requests, days)}"
    ready = path / "READY"
    source = Store(f"chdb://{path}", "bench_requests")
    if not ready.exists():
        console.print(f"generating {requests:,} requests over {days} days into {path} …")
        started = time.perf_counter()
        migrate(source, TTL_DAYS)
        generate(source, requests, days)
        source.command(f"OPTIMIZE TABLE {source.table('ragpulse_requests')} FINAL")
        console.print(f"  generated in {time.perf_counter() - started:.0f} s")
        ready.write_text("ready")
    run = Store(f"chdb://{path}", "bench_run")
    run.command(f"DROP DATABASE IF EXISTS `{run.database}`")
    started = time.perf_counter()
    migrate(run, TTL_DAYS)
    run.command(
        f"INSERT INTO {run.table('ragpulse_requests')} SELECT * FROM {source.table('ragpulse_requests')}"
    )
    console.print(f"copied the requests into a fresh database in {time.perf_counter() - started:.1f} s")
    return run


@dataclass
class Timings:
    """Time spent in candidate selection, per batch, while a backfill runs."""

    selections: list[float] = field(default_factory=list)
    judged: int = 0

    @contextmanager
    def selecting(self) -> Iterator[None]:
        def timed(store: Store, selection: Selection) -> list[Candidate]:
            started = time.perf_counter()
            try:
                return select_candidates(store, selection)
            finally:
                self.selections.append(time.perf_counter() - started)

        with patch.object(turn, "select_candidates", timed):
            yield


def backfill_batches(
    store: Store, settings: ScorersSettings, batches: int, label: str, slice_requests: int = SLICE_REQUESTS
) -> dict[str, Any]:
    """Backfill until ``batches`` batches of candidates were read, then stop as Ctrl-C does."""
    timings = Timings()
    stopping = threading.Event()
    batch = settings.scorer.batch_size

    def advance(scorer: str, outcome: Outcome) -> None:
        if outcome is Outcome.SCORED:
            timings.judged += 1
            if timings.judged >= batches * batch:
                stopping.set()

    job = Backfill(settings, store, RULE, timedelta(days=7), stopping=stopping, slice_requests=slice_requests)
    started = time.perf_counter()
    with timings.selecting():
        result = job.run(advance)
    elapsed = time.perf_counter() - started
    selecting = sum(timings.selections)
    read = max(len(timings.selections), 1)
    return {
        "label": label,
        "stopped": float(result.stopped),
        "judged": float(timings.judged),
        "batches": float(read),
        "seconds": elapsed,
        "per_second": timings.judged / elapsed if elapsed else 0.0,
        "select_ms": 1000 * selecting / read,
        "first_select_ms": 1000 * (timings.selections[0] if timings.selections else 0.0),
        "rest_ms": 1000 * (elapsed - selecting) / read,
    }


def duplicates(store: Store) -> tuple[int, int]:
    """(requests scored, requests with more than one score row for one metric of the judge)."""
    rows = store.query(
        f"""
        SELECT uniqExact(TraceId, SpanId), countIf(rows > 1)
        FROM (SELECT TraceId, SpanId, Metric, count() AS rows FROM {store.table("ragpulse_scores")}
              WHERE Scorer = {{scorer:String}} GROUP BY TraceId, SpanId, Metric)
        """,
        {"scorer": JUDGE},
    )
    return int(rows[0][0]), int(rows[0][1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=1_000_000)
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--batches", type=int, default=3, help="batches judged before the stop, then again")
    parser.add_argument("--cache", type=Path, default=ROOT / ".bench-cache")
    args = parser.parse_args(argv)
    args.cache.mkdir(parents=True, exist_ok=True)
    store = prepare(args.cache, args.requests, args.days)
    settings = ScorersSettings.load(store={"dsn": store.dsn}, scorer={"concurrency": 1})
    in_window = args.requests // 2 * (args.days - 1) // args.days  # the rule's service, older than 24 h
    runs = [
        backfill_batches(store, settings, args.batches, "first run (stopped)"),
        backfill_batches(store, settings, args.batches, "resumed run (stopped)"),
        # The same, resumed again, with the whole window one slice: what every batch read before slicing.
        backfill_batches(
            store, settings, args.batches, "one slice: whole window", slice_requests=args.requests
        ),
    ]
    table = Table(title=f"backfill of a lexical rule over {args.requests:,} requests, {args.days} days")
    for column in (
        "run",
        "judged",
        "batches",
        "s",
        "judged/s",
        "select ms/batch",
        "first select ms",
        "judge+write ms/batch",
        "whole window (extrapolated)",
    ):
        table.add_column(column, justify="right")
    for run in runs:
        table.add_row(
            str(run["label"]),
            f"{run['judged']:,.0f}",
            f"{run['batches']:.0f}",
            f"{run['seconds']:.1f}",
            f"{run['per_second']:,.0f}",
            f"{run['select_ms']:,.0f}",
            f"{run['first_select_ms']:,.0f}",
            f"{run['rest_ms']:,.0f}",
            f"{in_window / run['per_second'] / 60:,.0f} min" if run["per_second"] else "-",
        )
    console.print(table)
    scored, twice = duplicates(store)
    console.print(
        f"{in_window:,} requests of the rule in the window; extrapolated from {args.batches} batches a run "
        f"of {settings.scorer.batch_size} (the machine is shared: ratios say more than times)"
    )
    console.print(f"requests scored: {scored:,}; requests with two score rows for one metric: {twice}")
    store.command(f"DROP DATABASE IF EXISTS `{store.database}`")
    store.close()
    return 1 if twice else 0


if __name__ == "__main__":
    sys.exit(main())
