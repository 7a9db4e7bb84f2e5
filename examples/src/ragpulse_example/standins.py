"""Deterministic stand-ins for the two LLM steps, used when no model endpoint is configured.

They are labelled wherever they show (model name ``extractive-standin`` on the generate span, a log line at
startup): the answers are sentences copied from the retrieved passages, so they are grounded by construction
and any unsupported sentence in them was put there on purpose by :mod:`ragpulse_example.injection`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragpulse_example.bm25 import tokenize

STANDIN_MODEL = "extractive-standin"

# Everyday words mapped to the vocabulary of the language reference, so a rewrite can reach other passages.
_EXPANSIONS: dict[str, str] = {
    "loop": "for while iteration",
    "function": "def callable parameters",
    "functions": "def callable parameters",
    "exception": "raise except traceback",
    "exceptions": "raise except traceback",
    "dictionary": "dict mapping keys",
    "dictionaries": "dict mapping keys",
    "list": "sequence mutable",
    "string": "str literal text",
    "class": "type metaclass instance",
    "variable": "name binding",
    "scope": "namespace binding block",
    "scopes": "namespace binding block",
    "generator": "yield iterator",
    "operator": "expression operand",
    "operators": "expression operand",
    "import": "module package finder",
    "async": "coroutine await",
    "attribute": "getattr name lookup",
}
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"(])")
_GRAMMAR = re.compile(r"::=|\|\s*\"")


def keywords(text: str) -> list[str]:
    """Content words in order of first appearance, without repeats."""
    return list(dict.fromkeys(tokenize(text)))


def rewrite_variations(question: str, count: int) -> list[str]:
    """``count`` rule-based rewrites: keywords, keywords with reference vocabulary, and a definition form."""
    words = keywords(question) or [question.strip()]
    expanded = [word for term in words for word in (term, *_EXPANSIONS.get(term, "").split())]
    candidates = [
        " ".join(words),
        " ".join(dict.fromkeys(expanded)),
        f"{' '.join(words[:3])} semantics definition",
        f"python {' '.join(reversed(words))} example",
        f"{words[0]} rules",
    ]
    return list(dict.fromkeys(candidates))[:count]


def split_passage(text: str) -> list[str]:
    return [
        sentence.strip() for line in text.splitlines() for sentence in _SENTENCE_END.split(line) if sentence
    ]


def _is_prose(sentence: str) -> bool:
    # Grammar productions and code fragments make poor answers and are not what a reader asked for.
    return 30 <= len(sentence) <= 400 and not _GRAMMAR.search(sentence) and sentence[-1:] in ".!?:"


def speaks_to(question: str, passages: Sequence[str]) -> bool:
    """Whether the passages share any content word with the question (BM25 hits always do)."""
    query = set(tokenize(question))
    return any(query & set(tokenize(passage)) for passage in passages)


def extractive_answer(question: str, passages: Sequence[str], max_sentences: int = 3) -> str:
    """The passages' sentences sharing the most content words with the question, in reading order.

    Overlap counts distinct question words, lightly favouring earlier (better ranked) passages on ties.
    """
    query = set(tokenize(question))
    scored: list[tuple[float, int, int, str]] = []
    for passage_rank, passage in enumerate(passages):
        for position, sentence in enumerate(split_passage(passage)):
            if not _is_prose(sentence):
                continue
            overlap = len(query & set(tokenize(sentence)))
            if overlap:
                scored.append((overlap - 0.01 * passage_rank, passage_rank, position, sentence))
    best = sorted(scored, key=lambda item: -item[0])[:max_sentences]
    chosen = [sentence for _, _, _, sentence in sorted(best, key=lambda item: (item[1], item[2]))]
    if chosen:
        return " ".join(dict.fromkeys(chosen))
    first = next((s for passage in passages for s in split_passage(passage) if s), "")
    return first or "The documentation retrieved for this question does not answer it."
