"""Directed vs uniform sampling for the LLM judge, at the same expected number of LLM calls, on labelled data.

The lexical judge scores every response; a rule sends ``rate`` of them to an LLM judge, played here by the
human label (a perfect LLM judge: what it finds is what a good one could find). Uniform sampling gives every
response ``rate``; directed sampling (:mod:`ragpulse_core.directed_sampling`) spends ``directed_share`` of the
same expected calls in proportion to the lexical judge's uncertainty
(:mod:`ragpulse_scorers.lexical.uncertainty`). Over many simulated draws of trace keys the table shows, per
design: the mean LLM calls, how many of the responses where the lexical judge is wrong the sample holds, and
the hallucination rate estimated from the sample (Hájek, weighted by 1 / inclusion probability) with its
95% interval's mean width, the root mean squared error against the true rate and the interval's coverage.

    python benchmarks/bench_directed_sampling.py --data ../shared/data/ragtruth_qa_dev.jsonl --split holdout

``--fit`` prints instead the grid search that chose the uncertainty's calibration (use ``--split tune``).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path

from ragpulse_core.directed_sampling import inclusion_probability, is_sampled, plan_directed
from ragpulse_scorers.evaluation.datasets import Split, load_support_dataset
from ragpulse_scorers.lexical import LexicalJudge
from ragpulse_scorers.lexical.uncertainty import verdict_uncertainty
from ragpulse_scorers.stats import WeightedCount, weighted_wilson_interval
from rich.console import Console
from rich.table import Table

DEFAULT_DATA = Path("../shared/data/ragtruth_qa_dev.jsonl")
RATES = (0.1, 0.25)
SHARES = (0.0, 0.5, 1.0)


@dataclass(frozen=True)
class Judged:
    """One labelled response as the lexical judge saw it."""

    support_score: float
    flagged: bool
    hallucinated: bool
    unsupported_share: float

    @property
    def judge_wrong(self) -> bool:
        return self.flagged != self.hallucinated


@dataclass(frozen=True)
class DesignResult:
    calls: float
    errors_found: float
    width: float
    rmse: float
    coverage: float


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--split", type=Split, choices=list(Split), default=Split.HOLDOUT)
    parser.add_argument("--draws", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fit", action="store_true", help="print the calibration grid search instead")
    args = parser.parse_args(argv if argv is not None else [])
    console = Console(width=120)
    if not args.data.exists():
        console.print(f"skipped: no labelled data at {args.data} (pass --data)")
        return 0
    judge = LexicalJudge()
    rows = _judge_all(judge, args.data, args.split)
    if args.fit:
        _print_fit(console, rows, judge.params.threshold)
        return 0
    truth = sum(row.hallucinated for row in rows) / len(rows)
    errors = sum(row.judge_wrong for row in rows)
    table = Table(
        title=f"directed vs uniform sampling: {args.data.name} ({args.split}, n={len(rows)}, "
        f"{errors} lexical-judge errors, true rate {truth:.3f}, {args.draws} draws)"
    )
    for heading in (
        "rate",
        "design",
        "LLM calls",
        "judge errors found",
        "interval width",
        "RMSE",
        "coverage",
    ):
        table.add_column(heading, justify="left" if heading == "design" else "right", no_wrap=True)
    uncertainties = [verdict_uncertainty(row.support_score, judge.params.threshold) for row in rows]
    for rate in RATES:
        for share in SHARES:
            result = _simulate(rows, uncertainties, rate, share, args.draws, args.seed)
            design = "uniform" if share == 0 else f"directed {share:.0%}"
            table.add_row(
                f"{rate:.0%}",
                design,
                f"{result.calls:.1f}",
                f"{result.errors_found:.2f} ({result.errors_found / errors:.0%})",
                f"{result.width:.3f}",
                f"{result.rmse:.3f}",
                f"{result.coverage:.1%}",
            )
    console.print(table)
    return 0


def _judge_all(judge: LexicalJudge, data: Path, split: Split) -> list[Judged]:
    rows = []
    threshold = judge.params.threshold
    for example in load_support_dataset(data, split).examples:
        analysis = judge.analyse(example.question, example.context, example.response)
        claims = [claim.score for claim in analysis.claims if claim.is_claim]
        unsupported = sum(score < threshold for score in claims) / len(claims) if claims else 0.0
        rows.append(Judged(analysis.support_score, analysis.hallucinated, example.hallucinated, unsupported))
    return rows


def _simulate(
    rows: list[Judged], uncertainties: list[float], rate: float, share: float, draws: int, seed: int
) -> DesignResult:
    """Each draw gives every response a fresh trace key, as new traffic would; the design stays fixed."""
    plan = plan_directed(rate, share, uncertainties)
    probabilities = [inclusion_probability(u, plan) for u in uncertainties]
    truth = sum(row.hallucinated for row in rows) / len(rows)
    rng = random.Random(seed)
    calls = found = width = squared_error = covered = 0.0
    for _ in range(draws):
        sample = [
            (row, p) for row, p in zip(rows, probabilities, strict=True) if is_sampled(rng.getrandbits(64), p)
        ]
        count = WeightedCount(
            weights=sum(1 / p for _, p in sample),
            weighted_events=sum(row.hallucinated / p for row, p in sample),
            squared_weights=sum(1 / p**2 for _, p in sample),
            squared_weighted_events=sum(row.hallucinated / p**2 for row, p in sample),
        )
        lower, upper = weighted_wilson_interval(count)
        calls += len(sample)
        found += sum(row.judge_wrong for row, _ in sample)
        width += upper - lower
        squared_error += (count.rate - truth) ** 2
        covered += lower <= truth <= upper
    return DesignResult(
        calls / draws, found / draws, width / draws, math.sqrt(squared_error / draws), covered / draws
    )


def _print_fit(console: Console, rows: list[Judged], threshold: float) -> None:
    """Grid maximum likelihood of the human label on the margin, with and without a split-verdict term."""

    def log_likelihood(intercept: float, slope: float, split: float) -> float:
        total = 0.0
        for row in rows:
            logit = intercept + slope * (threshold - row.support_score) + split * row.unsupported_share
            p = min(max(1 / (1 + math.exp(-logit)), 0.001), 0.999)
            total += math.log(p if row.hallucinated else 1 - p)
        return total

    intercepts = [i / 4 for i in range(-12, 5)]
    slopes = [s / 2 for s in range(40)]
    margin = max((log_likelihood(a, b, 0.0), a, b) for a in intercepts for b in slopes)
    console.print(f"margin only: log-likelihood {margin[0]:.2f} at intercept {margin[1]}, slope {margin[2]}")
    split = max(
        (log_likelihood(a, b, c / 2), a, b, c / 2) for a in intercepts for b in slopes for c in range(-6, 10)
    )
    console.print(
        f"margin + split verdicts: log-likelihood {split[0]:.2f} at intercept {split[1]}, slope {split[2]}, "
        f"split {split[3]}"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
