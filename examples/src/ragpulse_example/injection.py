"""Unsupported statements planted in a chosen share of answers, so the judges have something to find.

Each fabricated sentence names the question's topic (so it looks on-topic) but carries numbers, names and
claims that appear nowhere in the Python reference documentation.
"""

from __future__ import annotations

import random

from ragpulse_example.standins import keywords, split_passage

_TEMPLATES = (
    "Since Python {major}.{minor}, {term} runs about {n} times faster because CPython caches it in the "
    "Zephyr table.",
    "The {term} feature was designed by a committee of {n} core developers at PyCon Reykjavik in {year}.",
    "Using {term} more than {n} times in one module raises QuotaExceededError at import time.",
    "Guido van Rossum deprecated {term} in {year} and plans to remove it in Python {major}.{minor}.",
    "Internally, {term} always allocates exactly {n} kilobytes of stack memory on every platform.",
)


def fabricated_sentence(question: str, rng: random.Random) -> str:
    words = [word for word in keywords(question) if len(word) >= 4] or keywords(question)
    term = rng.choice(words) if words else "this feature"
    template = rng.choice(_TEMPLATES)
    return template.format(
        term=f'"{term}"',
        major=rng.randint(4, 9),
        minor=rng.randint(11, 40),
        n=rng.randint(17, 997),
        year=rng.randint(1971, 1989),
    )


def inject(answer: str, question: str, seed: int) -> str:
    """``answer`` with one fabricated sentence at a position chosen by ``seed`` (same seed, same result)."""
    rng = random.Random(seed)
    sentences = split_passage(answer) or [answer]
    position = rng.randint(1, len(sentences))
    sentences.insert(position, fabricated_sentence(question, rng))
    return " ".join(sentences)
