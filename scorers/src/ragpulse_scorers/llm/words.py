"""A one-word answer as probabilities: how likely the judge was to answer each word, from log-probabilities.

A small model's yes/no is a coin it flips hard: its probability of "no" ranks statements far better than the
word it writes, and a threshold on it can be chosen on labelled data. The answer's first token and its top
alternatives are read; a token counts for a word when it begins exactly one of the words ("uns" for
"unsure", " No" for "no"), whatever its case and surrounding spaces or quotes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

from ragpulse_scorers.llm.output import JudgeOutput

_DECORATION = " \t\r\n\"'`*.,:;!()[]"


class WordChoice(JudgeOutput):
    """The probability of each word the judge could answer; they sum to 1."""

    probabilities: dict[str, float]

    example: ClassVar[dict[str, Any]] = {"probabilities": {"yes": 0.8, "no": 0.15, "unsure": 0.05}}


def word_of(token: str, words: Sequence[str]) -> str | None:
    """The one word of ``words`` that ``token`` begins (or spells out), ignoring case and decoration."""
    stem = token.strip(_DECORATION).lower()
    if not stem:
        return None
    matches = [word for word in words if word.startswith(stem)]
    return matches[0] if len(matches) == 1 else None


def word_probabilities(
    answer: str, alternatives: Sequence[tuple[str, float]], words: Sequence[str]
) -> dict[str, float] | None:
    """Each word's share of the probability that the first token gave to any of ``words``; None when the
    answer starts with none of them. Without usable alternatives the answered word gets all of it."""
    pieces = answer.split()
    answered = word_of(pieces[0], words) if pieces else None
    if answered is None:
        return None
    mass = dict.fromkeys(words, 0.0)
    for token, logprob in alternatives:
        word = word_of(token, words)
        if word is not None and math.isfinite(logprob):
            mass[word] += math.exp(min(logprob, 0.0))
    total = sum(mass.values())
    if total <= 0.0:
        return {word: float(word == answered) for word in words}
    return {word: share / total for word, share in mass.items()}
