"""``ragpulse.guard`` per answer: p50 and p99 for short, typical and long inputs, both free judges.

Sizes: short (1 answer sentence, 1 chunk), typical (5 sentences, 5 chunks), long (30 sentences, 20 chunks).
Texts come from the RAGTruth dev file (../shared/data): chunks are runs of four consecutive passage sentences,
an answer alternates sentences taken from its chunks (supported) with sentences of real responses to other
questions (mostly not), so both verdicts occur. Goal: p99 <= 10 ms on typical inputs.

Side by side, interleaved answer by answer, the same judge's own call as the online scorer makes it
(``LexicalScorer.score`` on the same request): the guard's overhead over judging is their ratio, which a
loaded machine slows alike. Beside the wall time, the guard's CPU time (``time.thread_time``): on a machine
whose cores are shared by more runnable processes than it has, wall time counts the waits for a core too.
The judge is loaded before the clock starts (a service loads it once).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

import ragpulse
from ragpulse_judge.learnt import LearntJudge
from ragpulse_judge.rules import LexicalJudge
from ragpulse_judge.text import split_sentences
from ragpulse_judge.training.data import split_passages
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import ContextChunk, RagRequest
from ragpulse_scorers.scorer import NotApplicable
from rich.console import Console
from rich.table import Table

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "ragtruth_qa_dev.jsonl"
SIZES = {"short": (1, 1), "typical": (5, 5), "long": (30, 20)}
"""name: (answer sentences, chunks)"""
GOAL_P99_MS = 10.0
SENTENCES_PER_CHUNK = 4


def corpus() -> tuple[list[str], list[str], list[str]]:
    """(questions, context sentences in passage order, response sentences) of the RAGTruth dev file."""
    questions, context, responses = [], [], []
    for line in DATA.open(encoding="utf-8"):
        row = json.loads(line)
        questions.append(row["question"])
        for passage in split_passages(row["context"]):
            context.extend(split_sentences(passage))
        responses.extend(split_sentences(row["response"]))
    return questions, context, responses


def case(
    rng: random.Random, sentences: int, chunks: int, pool: tuple[list[str], list[str], list[str]]
) -> tuple[str, list[str], str]:
    """(question, chunk texts, answer) of one input of the given size."""
    questions, context, responses = pool
    texts = []
    for _ in range(chunks):
        start = rng.randrange(len(context) - SENTENCES_PER_CHUNK)
        texts.append(" ".join(context[start : start + SENTENCES_PER_CHUNK]))
    answer = []
    for position in range(sentences):
        if position % 2 == 0:
            answer.append(rng.choice(split_sentences(rng.choice(texts))))
        else:
            answer.append(rng.choice(responses))
    return rng.choice(questions), texts, " ".join(answer)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=400, help="answers per size and judge")
    args = parser.parse_args(argv)
    console = Console(width=120)
    pool = corpus()
    table = Table(title=f"ragpulse.guard per answer, {args.answers} answers per row")
    for column in ("judge", "size", "p50 ms", "p99 ms", "CPU p50", "CPU p99", "alone p50", "ratio",
                   "unsupp.", "unknown"):  # fmt: skip
        table.add_column(column, justify="right")
    typical_p99: dict[str, tuple[float, float]] = {}
    for judge, free_judge in (("rules", LexicalJudge()), ("learnt", LearntJudge())):
        scorer = LexicalScorer(free_judge)
        ragpulse.guard("Warm up.", context=["Warm up the judge."], judge=judge)
        for size, (sentences, chunks) in SIZES.items():
            rng = random.Random(f"{judge}-{size}")
            guard_ms, guard_cpu_ms, alone_ms, unsupported, unknown = [], [], [], 0, 0
            for _ in range(args.answers):
                question, texts, answer = case(rng, sentences, chunks, pool)
                started, started_cpu = time.perf_counter(), time.thread_time()
                verdict = ragpulse.guard(
                    answer, context=texts, question=question, judge=judge, timeout_ms=10_000
                )
                guard_ms.append((time.perf_counter() - started) * 1000)
                guard_cpu_ms.append((time.thread_time() - started_cpu) * 1000)
                unsupported += verdict.verdict == "unsupported"
                unknown += verdict.verdict == "unknown"
                request = RagRequest(
                    trace_id="0" * 32, timestamp=datetime.now(UTC), question=question, answer=answer,
                    context=[ContextChunk(id=str(i), text=text) for i, text in enumerate(texts)],
                )  # fmt: skip
                started = time.perf_counter()
                with contextlib.suppress(NotApplicable):  # the guard says "unknown" with the same reason
                    scorer.score(request)
                alone_ms.append((time.perf_counter() - started) * 1000)
            p50, p99 = percentile(guard_ms, 0.5), percentile(guard_ms, 0.99)
            cpu_p50, cpu_p99 = percentile(guard_cpu_ms, 0.5), percentile(guard_cpu_ms, 0.99)
            if size == "typical":
                typical_p99[judge] = (p99, cpu_p99)
            table.add_row(
                judge, size, f"{p50:.2f}", f"{p99:.2f}", f"{cpu_p50:.2f}", f"{cpu_p99:.2f}",
                f"{statistics.median(alone_ms):.2f}",
                f"{p50 / statistics.median(alone_ms):.2f}", str(unsupported), str(unknown),
            )  # fmt: skip
    console.print(table)
    load = os.getloadavg()
    console.print(
        f"Load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on {os.cpu_count()} cores: a shared, "
        "loaded "
        "machine inflates every absolute figure; the ratio compares guard and judge measured interleaved."
    )
    for judge, (p99, cpu_p99) in typical_p99.items():
        met = "met" if p99 <= GOAL_P99_MS else "NOT met"
        console.print(
            f"{judge}: typical p99 {p99:.2f} ms wall ({cpu_p99:.2f} ms of CPU), "
            f"goal <= {GOAL_P99_MS:g} ms: {met}"
        )


if __name__ == "__main__":
    main()
