"""Request assembly on prompts built to be slow: each shape read by a fresh place (its template learnt from
twelve such prompts, then every prompt read by both readings) at a size and at twice that size, side by
side, with the ratio (about 2 where the time is linear in the prompt, 4 where it is quadratic).

    python benchmarks/bench_hostile_prompts.py --chars 40000

A service's prompts are the traffic's: one that sends thousands of rules, blank lines or numbered markers
must not hold the scheduler for minutes. The machine is shared: compare the ratios, not the absolute times.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "assembly_templates"))

from streams import MODES, read, readers
from traffic import genai_span

PROMPTS = 12
_WORDS = ["alpha", "bravo", "delta", "gamma", "kilo", "lima", "oscar", "sierra", "tango", "zulu"]


def _text(seed: int, words: int) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(_WORDS) for _ in range(words))


SHAPES: dict[str, Callable[[int, int], str]] = {
    "documents between rule lines": lambda n, i: (
        "Context:\n" + "\n---\n".join(_text(i * 100_000 + j, 8) for j in range(n // 52))
    ),
    "blank lines": lambda n, i: "\n" * n,
    "one word repeated": lambda n, i: "a " * (n // 2),
    "rule lines between words": lambda n, i: (
        "Context:\n" + "\n".join("---" if j % 2 else _text(i * 100_000 + j, 3) for j in range(n // 12))
    ),
    "headed sections ('===Name')": lambda n, i: (
        "Context:\n" + "\n\n".join(f"==={_text(i * 100_000 + j, 1)}\n{_text(j, 6)}" for j in range(n // 60))
    ),
    "a list literal ('[...]')": lambda n, i: (
        "Context: [" + ", ".join(repr(_text(i * 100_000 + j, 6)) for j in range(n // 50)) + "]"
    ),
    "numbered markers ('[n] ')": lambda n, i: (
        "Context:\n" + " ".join(f"[{j}] {_text(i * 100_000 + j, 2)}" for j in range(n // 16))
    ),
}


def _seconds(make: Callable[[int, int], str], size: int, mode: str) -> float:
    spans = [
        genai_span([("user", f"{make(size, i)}\n\nQuestion: what is item {i}?")], "An answer.")
        for i in range(PROMPTS)
    ]
    started = time.perf_counter()
    read(spans, readers(mode))
    return (time.perf_counter() - started) / PROMPTS


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chars", type=int, default=40_000)
    parser.add_argument("--mode", choices=MODES, action="append")
    args = parser.parse_args()
    modes = args.mode or ["learnt+rules"]
    print(f"{'shape':32} {'readers':13} {args.chars:>9,} {2 * args.chars:>9,}  ratio  (seconds a prompt)")
    for name, make in SHAPES.items():
        for mode in modes:
            times = [_seconds(make, size, mode) for size in (args.chars, 2 * args.chars)]
            print(f"{name:32} {mode:13} {times[0]:9.3f} {times[1]:9.3f}  {times[1] / times[0]:5.1f}")


if __name__ == "__main__":
    main()
