"""A small Okapi BM25 index: built once per process, queried in well under a millisecond per term."""

from __future__ import annotations

import math
import random
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ragpulse_example.corpus import Passage, load_passages

_TOKEN = re.compile(r"[a-z0-9_]+")
# Python keywords (for, if, in, is, with, and, or, not) are content words in this corpus, so they stay.
_STOPWORD_TEXT = """
a an are as at be by can do does from how i into it its of on that the their then there these this to was what
when where which who why will you your
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens without stopwords; dunder names like ``__init__`` survive as one token."""
    return [token for token in _TOKEN.findall(text.lower()) if token not in STOPWORDS]


@dataclass(frozen=True)
class Hit:
    passage: Passage
    score: float


class BM25Index:
    def __init__(self, passages: Sequence[Passage], k1: float = 1.5, b: float = 0.75) -> None:
        self.passages = tuple(passages)
        self.k1 = k1
        self.b = b
        self._postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self._lengths: list[int] = []
        for index, passage in enumerate(self.passages):
            counts = Counter(tokenize(passage.text))
            self._lengths.append(sum(counts.values()))
            for term, frequency in counts.items():
                self._postings[term].append((index, frequency))
        count = len(self.passages)
        self._average_length = sum(self._lengths) / count if count else 0.0
        # The "+1" form of idf never goes negative, so a very common term still counts a little.
        self._idf = {
            term: math.log(1 + (count - len(posting) + 0.5) / (len(posting) + 0.5))
            for term, posting in self._postings.items()
        }

    def search(self, query: str, top_k: int = 10) -> list[Hit]:
        """The ``top_k`` best passages for ``query``, best first; ties broken by corpus order."""
        scores: dict[int, float] = defaultdict(float)
        for term in set(tokenize(query)):
            idf = self._idf.get(term)
            if idf is None:
                continue
            for index, frequency in self._postings[term]:
                norm = self.k1 * (1 - self.b + self.b * self._lengths[index] / self._average_length)
                scores[index] += idf * frequency * (self.k1 + 1) / (frequency + norm)
        best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:top_k]
        return [Hit(self.passages[index], score) for index, score in best]

    def unrelated(self, text: str, top_k: int, seed: str) -> list[Hit]:
        """``top_k`` passages sharing no word with ``text``, drawn by ``seed``, as a broken retriever returns.

        Their score is their BM25 score for ``text``, which is 0.
        """
        terms = set(tokenize(text))
        matching = {index for term in terms for index, _ in self._postings.get(term, ())}
        candidates = [index for index in range(len(self.passages)) if index not in matching]
        chosen = random.Random(seed).sample(candidates, min(top_k, len(candidates)))
        return [Hit(self.passages[index], 0.0) for index in chosen]


@lru_cache(maxsize=1)
def default_index() -> BM25Index:
    """The index over the whole pydoc corpus, built on first use."""
    return BM25Index(load_passages())
