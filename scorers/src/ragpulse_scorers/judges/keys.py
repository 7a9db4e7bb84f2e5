"""Documents as keyed sentences, the way RAGBench presents them to its annotator: ``0a``, ``0b``, ... ``1a``.

The letter part is bijective base 26 (``z`` is followed by ``aa``, ``ab``, ...), so every key is unique
however long a document is.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass

from ragpulse_judge.text import split_sentences


@dataclass(frozen=True)
class KeyedSentence:
    key: str
    document: int
    text: str


def sentence_letters(index: int) -> str:
    """0 → ``a``, 25 → ``z``, 26 → ``aa``, 701 → ``zz``, 702 → ``aaa``."""
    if index < 0:
        raise ValueError("sentence index must not be negative")
    letters = []
    number = index + 1
    while number:
        number, remainder = divmod(number - 1, 26)
        letters.append(string.ascii_lowercase[remainder])
    return "".join(reversed(letters))


def key_documents(documents: Sequence[str]) -> list[KeyedSentence]:
    """Every sentence of every document, keyed by document index and sentence letters."""
    return [
        KeyedSentence(f"{doc_index}{sentence_letters(sentence_index)}", doc_index, sentence)
        for doc_index, document in enumerate(documents)
        for sentence_index, sentence in enumerate(split_sentences(document))
    ]
