"""Where a scoring tick's own CPU goes, the judge taken out: what issue 41's pipeline overhead is made of.

``bench_scorer.py`` gives the tick against the judge alone; this gives the tick's remainder. Each round
inserts a fresh slice of RAGTruth-QA requests, judges them once with the rules (untimed), then runs
``score --once`` with ``LexicalScorer.score`` replaced by a lookup of those scores, and an empty tick after
it: the tick's CPU less the empty tick's is the pipeline's own per request. A sampling thread reads every
thread's CPU time from ``/proc`` (Linux), so the reads and writes beside the judge are counted on the
threads that do them (chDB names the threads it runs queries on ``Unknown``: the turn's reader and writer).

``--writes`` instead times one write of scores and log rows (``ScoreWriter.write``) by batch size, over a
database already holding ``--requests`` scored requests in one hour, as the benchmark's are: most of a
write's CPU is the views on ``ragpulse_scores`` reading their own tables, whatever the batch's size.

    python benchmarks/profile_scorer_tick.py --requests 2000 --rounds 3
    python benchmarks/profile_scorer_tick.py --requests 20000 --rounds 1 --batch-size 10000
    python benchmarks/profile_scorer_tick.py --writes --requests 20000
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_scorer

_TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


class _ThreadClock:
    """Every thread's CPU seconds, sampled every 20 ms so that threads that end between two reads count."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[str, float]] = {}
        self._stop = threading.Event()
        threading.Thread(target=self._sample, daemon=True).start()

    def _sample(self) -> None:
        me = threading.get_native_id()
        while not self._stop.is_set():
            for task in Path("/proc/self/task").iterdir():
                try:
                    name = (task / "comm").read_text().strip()
                    fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                tid = int(task.name)
                if tid != me:
                    label = "main" if tid == os.getpid() else re.sub(r"[0-9_]+$", "", name)
                    self._seen[tid] = (label, (int(fields[11]) + int(fields[12])) / _TICKS_PER_SECOND)
            time.sleep(0.02)

    def snapshot(self) -> dict[int, tuple[str, float]]:
        time.sleep(0.05)
        return dict(self._seen)

    @staticmethod
    def spent(before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]) -> dict[str, float]:
        by_name: dict[str, float] = defaultdict(float)
        for tid, (name, seconds) in after.items():
            by_name[name] += seconds - (before[tid][1] if tid in before else 0.0)
        return by_name


def _tick(dsn: str) -> float:
    from ragpulse_core.cli import main

    started = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()):
        if main(["score", "--once", "--dsn", dsn]) != 0:
            raise RuntimeError("score --once failed")
    return time.process_time() - started


def _store(dsn: str, batch_size: int) -> Any:
    from ragpulse_core.schema import migrate
    from ragpulse_core.store import Store

    os.environ.update(
        RAGPULSE_SCORER__FREE__JUDGE="rules",
        RAGPULSE_STORE__DATABASE="profile",
        RAGPULSE_SCORER__BATCH_SIZE=str(batch_size),
    )
    store = Store(dsn, "profile")
    migrate(store, 30)
    return store


def profile_ticks(dsn: str, requests: int, rounds: int, batch_size: int) -> None:
    from ragpulse_scorers.lexical.scorer import LexicalScorer
    from ragpulse_scorers.models import RagRequest, Score

    store = _store(dsn, batch_size)
    scorer, judge = LexicalScorer(), LexicalScorer.score
    replayed: dict[str, list[Score]] = {}

    def replay(self: LexicalScorer, request: RagRequest) -> list[Score]:
        return replayed[request.trace_id]

    rows = bench_scorer._ragtruth_rows(bench_scorer.WARM_UP + requests * rounds)
    slices = [rows[: bench_scorer.WARM_UP]] + [
        rows[bench_scorer.WARM_UP + i * requests : bench_scorer.WARM_UP + (i + 1) * requests]
        for i in range(rounds)
    ]
    clock = _ThreadClock()
    overhead: list[float] = []
    threads: dict[str, list[float]] = defaultdict(list)
    LexicalScorer.score = replay  # type: ignore[method-assign]
    try:
        for number, slice_rows in enumerate(slices):
            store.insert("ragpulse_requests", slice_rows, bench_scorer._COLUMNS)
            for row in slice_rows:
                request = RagRequest.from_row(dict(zip(bench_scorer._COLUMNS, row, strict=True)))
                replayed[request.trace_id] = judge(scorer, request)
            before = clock.snapshot()
            tick = _tick(dsn)
            spent = clock.spent(before, clock.snapshot())
            empty = _tick(dsn)
            if number:  # the first round warms up
                overhead.append((tick - empty) / len(slice_rows) * 1000)
                for name, seconds in spent.items():
                    threads[name].append(seconds / len(slice_rows) * 1000)
    finally:
        LexicalScorer.score = judge  # type: ignore[method-assign]
    print(
        f"{rounds} rounds of {requests:,} requests in batches of {batch_size:,}, the judge replayed;"
        " CPU ms per request, medians:"
    )
    print(f"  the tick less an empty tick: {statistics.median(overhead):.3f} (rounds: "
          + ", ".join(f"{value:.3f}" for value in overhead) + ")")  # fmt: skip
    for name, values in sorted(threads.items(), key=lambda item: -statistics.median(item[1])):
        if statistics.median(values) >= 0.001:
            print(f"  thread {name}: {statistics.median(values):.3f} (the whole tick, fixed costs included)")


def profile_writes(dsn: str, requests: int, batch_size: int) -> None:
    import dataclasses
    import random

    from ragpulse_scorers.pipeline.writer import ScoreWriter

    store = _store(dsn, batch_size)
    store.insert("ragpulse_requests", bench_scorer._ragtruth_rows(requests), bench_scorer._COLUMNS)
    captured: list[Any] = []
    write = ScoreWriter.write

    def capture(self: ScoreWriter, judgments: Any, logged_at: datetime) -> None:
        captured.extend(judgments)
        write(self, judgments, logged_at)

    ScoreWriter.write = capture  # type: ignore[method-assign]
    try:
        _tick(dsn)
    finally:
        ScoreWriter.write = write  # type: ignore[method-assign]
    writer, rng = ScoreWriter(store, "lexical", "profile", "profile"), random.Random(7)

    def fresh(count: int) -> list[Any]:
        judgments = []
        for judgment in captured[:count]:
            trace = f"{rng.getrandbits(128):032x}"
            request = dataclasses.replace(judgment.request, trace_id=trace)
            rows = [[trace, *row[1:]] for row in judgment.score_rows]
            judgments.append(dataclasses.replace(judgment, request=request, score_rows=rows))
        return judgments

    print(f"one write of scores and log rows, {requests:,} scored requests in the tables; CPU, median of 3:")
    for size in (10, 250, 2000, 10000):
        if size > len(captured):
            break
        seconds = []
        for _ in range(3):
            batch = fresh(size)
            started = time.process_time()
            writer.write(batch, datetime.now(UTC))
            seconds.append(time.process_time() - started)
        median = statistics.median(seconds)
        print(
            f"  {size:>5,} requests: {median * 1000:.0f} ms a write, {median / size * 1000:.3f} ms a request"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=2000, help="scorer.batch_size of the ticks")
    parser.add_argument("--writes", action="store_true", help="time one write by batch size instead")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="profile-scorer-") as tmp:
        dsn = f"chdb://{Path(tmp) / 'db'}"
        if args.writes:
            profile_writes(dsn, args.requests, args.batch_size)
        else:
            profile_ticks(dsn, args.requests, args.rounds, args.batch_size)


if __name__ == "__main__":
    main(sys.argv[1:])
