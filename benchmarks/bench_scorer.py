"""Scorer throughput: one default ``ragpulse score --once`` over 20,000 pending requests, lexical judge.

Also the learnt judge against the hand-written rules it replaced, alone over the same requests, in the same
run (goal: at most 1.5x the rules' time per request).

The goal is a tick that costs at most 1.25x the judge's own time: the pipeline around the judge (selecting
candidates, reading request rows, building requests, writing scores and log rows) adds at most 25%. The
judge's own time is measured twice: inside the tick (its calls timed as they happen, so a busy shared machine
slows both sides alike), and alone, ``LexicalScorer.score`` over the same requests built in memory before its
clock starts, on one thread, in the same run before and after the tick (their mean). Each step runs in a
process of its own, since chDB lets one process hold a database path; the tick's process reports its peak
RSS, which must stay bounded by a batch, not by the backlog.

The requests are the demo's kind: a question of the example service, five of the BM25 top-10 pydoc passages
as context, an extractive answer from them, one in ten with a planted unsupported sentence.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

REQUESTS = 20_000
GOAL_RATIO = 1.25
# The learnt judge reads claims as well as sentences and computes more evidence: at most this much slower.
LEARNT_GOAL_RATIO = 1.5
CONTEXT_CHUNKS = 5
INJECT_ONE_IN = 10
_COLUMNS = ("TraceId", "SpanId", "Timestamp", "ServiceName", "Pipeline", "Variant", "Question", "Answer",
            "Context", "SampleKey")  # fmt: skip


def _request_rows(count: int, seed: int = 7) -> list[list[Any]]:
    from ragpulse_example.bm25 import default_index
    from ragpulse_example.injection import inject
    from ragpulse_example.questions import load_questions
    from ragpulse_example.standins import extractive_answer

    rng = random.Random(seed)
    index = default_index()
    questions = load_questions()
    hits = {question.text: index.search(question.text, 10) for question in questions}
    # Spread over the hour that ended an hour ago, however many: all settled, none past the lookback.
    start, step = datetime.now(UTC) - timedelta(hours=2), timedelta(hours=1) / count
    rows: list[list[Any]] = []
    for i in range(count):
        question = questions[i % len(questions)].text
        chosen = sorted(rng.sample(range(len(hits[question])), CONTEXT_CHUNKS))
        passages = [hits[question][rank].passage for rank in chosen]
        context = [
            {"id": passage.id, "text": passage.text, "rank": rank, "score": hits[question][position].score}
            for rank, (position, passage) in enumerate(zip(chosen, passages, strict=True), 1)
        ]
        answer = extractive_answer(question, [passage.text for passage in passages])
        if i % INJECT_ONE_IN == 0:
            answer = inject(answer, question, seed=i)
        trace = f"{rng.getrandbits(128):032x}"
        rows.append([trace, trace[:16], start + step * i, "bench", "pydoc-qa",
                     "AB"[i % 2], question, answer, json.dumps(context), rng.getrandbits(64)])  # fmt: skip
    return rows


def _prepare(dsn: str, count: int) -> dict[str, Any]:
    from ragpulse_core.schema import migrate
    from ragpulse_core.store import Store

    store = Store(dsn)
    migrate(store, 30)
    rows = _request_rows(count)
    for start in range(0, len(rows), 5_000):
        store.insert("ragpulse_requests", rows[start : start + 5_000], _COLUMNS)
    return {"requests": count}


def _judge_alone(dsn: str, rules: int = 0) -> dict[str, Any]:
    """The default (learnt) judge alone, or with ``rules`` the hand-written rules it replaced."""
    from ragpulse_core.store import Store
    from ragpulse_judge.rules import LexicalJudge
    from ragpulse_scorers.lexical.scorer import LexicalScorer
    from ragpulse_scorers.models import RagRequest

    store = Store(dsn)
    rows = store.query_dicts(f"SELECT * FROM {store.table('ragpulse_requests')} ORDER BY Timestamp")
    requests = [RagRequest.from_row(row) for row in rows]
    scorer = LexicalScorer(LexicalJudge()) if rules else LexicalScorer()
    started, cpu_started = time.perf_counter(), time.process_time()
    for request in requests:
        scorer.score(request)
    return {
        "seconds": time.perf_counter() - started,
        "cpu_seconds": time.process_time() - cpu_started,
        "requests": len(requests),
    }


def _tick(dsn: str) -> dict[str, Any]:
    """``ragpulse score --once`` with default settings (the lexical scorer), as a user runs it.

    The judge's calls are timed inside the tick too, so the share of the tick spent outside the judge is
    measured at the same moment as the tick itself, whatever else the shared machine is doing.
    """
    from ragpulse_core.cli import main
    from ragpulse_core.store import Store
    from ragpulse_scorers.lexical.scorer import LexicalScorer
    from ragpulse_scorers.models import RagRequest, Score

    judged = [0.0]
    score = LexicalScorer.score

    def timed_score(self: LexicalScorer, request: RagRequest) -> list[Score]:
        started = time.perf_counter()
        try:
            return score(self, request)
        finally:
            judged[0] += time.perf_counter() - started

    LexicalScorer.score = timed_score  # type: ignore[method-assign]
    store = Store(dsn)
    store.query("SELECT 1")  # chDB loaded: the baseline RSS of any process holding the database
    rss_before_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started, cpu_started = time.perf_counter(), time.process_time()
    code = main(["score", "--once", "--dsn", dsn])
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    (scored,) = store.query(
        f"SELECT uniqExact(TraceId) FROM {store.table('ragpulse_scoring_log')}"
        " WHERE Scorer = 'lexical' AND Outcome IN ('scored', 'skipped')"
    )[0]
    (requests,) = store.query(f"SELECT uniqExact(TraceId) FROM {store.table('ragpulse_requests')}")[0]
    return {
        "exit_code": code,
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "judge_seconds": judged[0],
        "done": scored,
        "pending": requests - scored,
        "rss_start_mib": rss_before_kib / 1024,
        "peak_rss_mib": peak_kib / 1024,
    }


_STEPS: dict[str, Callable[..., dict[str, Any]]] = {"prepare": _prepare, "judge": _judge_alone, "tick": _tick}


def _step(name: str, dsn: str, *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--step", name, dsn, *args],
        capture_output=True, text=True, check=False, timeout=3600,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"step {name} failed:\n{done.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=REQUESTS)
    parser.add_argument("--step", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv if argv is not None else [])
    if args.step:
        name, *rest = args.step
        step_args = (int(value) for value in rest[1:])
        print(json.dumps(_STEPS[name](rest[0], *step_args)))
        return

    console = Console()
    with tempfile.TemporaryDirectory(prefix="bench-scorer-") as tmp:
        dsn = f"chdb://{Path(tmp) / 'db'}"
        _step("prepare", dsn, str(args.requests))
        rules_before = _step("judge", dsn, "1")
        before = _step("judge", dsn)
        tick = _step("tick", dsn)
        after = _step("judge", dsn)
        rules_after = _step("judge", dsn, "1")
    judge_s = (before["seconds"] + after["seconds"]) / 2
    rules_s = (rules_before["seconds"] + rules_after["seconds"]) / 2
    rules_cpu_s = (rules_before["cpu_seconds"] + rules_after["cpu_seconds"]) / 2
    judge_cpu_s = (before["cpu_seconds"] + after["cpu_seconds"]) / 2
    table = Table(title=f"one default `score --once` over {args.requests:,} pending requests")
    for column in ("", "seconds", "CPU seconds", "requests/s"):
        table.add_column(column, justify="right" if column else "left")
    rows = [
        (
            "hand-written rules alone (mean of 2 runs)",
            rules_s,
            (rules_before["cpu_seconds"] + rules_after["cpu_seconds"]) / 2,
        ),
        ("learnt judge alone (mean of 2 runs)", judge_s, judge_cpu_s),
        ("score --once, whole tick", tick["seconds"], tick["cpu_seconds"]),
    ]
    for name, seconds, cpu_seconds in rows:
        table.add_row(name, f"{seconds:.1f}", f"{cpu_seconds:.1f}", f"{args.requests / seconds:,.0f}")
    table.add_row("  of which the judge's own calls", f"{tick['judge_seconds']:.1f}", "", "")
    console.print(table)
    in_tick = tick["seconds"] / tick["judge_seconds"]
    ratio = tick["seconds"] / judge_s
    learnt_ratio = judge_s / rules_s
    learnt_met = "[green]ok[/green]" if learnt_ratio <= LEARNT_GOAL_RATIO else "[red]over goal[/red]"
    console.print(
        f"learnt judge / rules, per request: {learnt_ratio:.2f} (goal ≤ {LEARNT_GOAL_RATIO}) {learnt_met};"
        f" CPU {judge_cpu_s / rules_cpu_s:.2f}"
    )
    met = in_tick <= GOAL_RATIO and tick["pending"] == 0
    verdict = "[green]ok[/green]" if met else "[red]over goal[/red]"
    console.print(
        f"tick / judge's own time in the tick: {in_tick:.2f} (goal ≤ {GOAL_RATIO}) {verdict};"
        f" tick / judge alone: {ratio:.2f} (judge alone {before['seconds']:.1f} s before the tick,"
        f" {after['seconds']:.1f} s after), CPU {tick['cpu_seconds'] / judge_cpu_s:.2f};"
        f" {tick['done']:,} done, {tick['pending']:,} left pending; peak RSS {tick['peak_rss_mib']:.0f} MiB"
        f" ({tick['rss_start_mib']:.0f} MiB with chDB loaded)"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
