"""The free judge on answers and contexts built to be slow: each shape timed at a size and at twice that size,
side by side, with the ratio (about 2 where the time is linear in the input, 4 where it is quadratic). Then
the product case (every claim against every context sentence sharing its words) under the judge's time limit.

    python benchmarks/bench_hostile_input.py --chars 16000

The machine is shared: compare the ratios, not the absolute times.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from ragpulse_judge.learnt import LearntJudge
from ragpulse_judge.limits import TooLongToJudge
from ragpulse_judge.rules import LexicalJudge

CONTEXT = ["The museum opened in 1990 and admits 2 million visitors a year. It is in Paris, France."]
ANSWER = "The museum opened in 1990. It admits 2 million visitors a year."
SHAPES: dict[str, Callable[[int], str]] = {
    "full stops ('. . .')": lambda n: ". " * (n // 2),
    "digits and commas ('1,1,1')": lambda n: "1," * (n // 2),
    "clauses (', and')": lambda n: "alpha beta gamma, and " * (n // 22),
    "relative clauses (', which')": lambda n: ", which alpha beta gamma" * (n // 24),
    "capitalised words": lambda n: "a " + "Bb a " * (n // 5),
    "emphasis ('**a')": lambda n: "**a " * (n // 4),
    "strike-through ('~~a')": lambda n: "~~a " * (n // 4),
    "links ('[a](')": lambda n: "[a](" * (n // 4),
    "table rows": lambda n: "| a |\n" * (n // 6),
    "zero-width and RTL": lambda n: "a\u200b\u202eb " * (n // 5),
    "a run of backticks": lambda n: "It has `" + "`" * n + " code.",
}


def _seconds(judge: LexicalJudge | LearntJudge, context: list[str], answer: str) -> float:
    started = time.perf_counter()
    judge.analyse("When?", context, answer)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chars", type=int, default=16_000)
    args = parser.parse_args()
    judges: dict[str, LexicalJudge | LearntJudge] = {
        "rules": LexicalJudge(time_limit_s=None),
        "learnt": LearntJudge(time_limit_s=None),
    }
    print(f"{'shape':32} {'where':8} {'judge':7} {args.chars:>9,} {2 * args.chars:>9,}  ratio")
    for name, make in SHAPES.items():
        for where in ("answer", "context"):
            for judge_name, judge in judges.items():
                times = []
                for size in (args.chars, 2 * args.chars):
                    text = make(size)
                    context, answer = (CONTEXT, text) if where == "answer" else ([text], ANSWER)
                    times.append(_seconds(judge, context, answer))
                print(
                    f"{name:32} {where:8} {judge_name:7} {times[0] * 1000:7.0f}ms {times[1] * 1000:7.0f}ms"
                    f"  {times[1] / max(times[0], 1e-9):5.2f}"
                )
    product_context = ["The alpha beta gamma is not delta. " * 5_700]
    product_answer = "The alpha beta gamma is delta. " * 640
    limited_judges: dict[str, LexicalJudge | LearntJudge] = {"rules": LexicalJudge(), "learnt": LearntJudge()}
    for judge_name, limited in limited_judges.items():
        started = time.perf_counter()
        try:
            limited.analyse("What is it?", product_context, product_answer)
            said = "judged"
        except TooLongToJudge as exc:
            said = str(exc)[:70]
        print(f"product case, {judge_name}: {time.perf_counter() - started:.1f} s: {said}")


if __name__ == "__main__":
    main()
