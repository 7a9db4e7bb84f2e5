"""Preambles: "Based on the provided context," or "Here is what the documents say:" frame an answer.

A preamble clause ends at the first comma or colon and holds nothing but words about the sources and the
answer itself ("based", "provided", "context", "here", "answer", "following"); a clause with any other word
or a number ("In 2019,", "According to Smith,") states something and stays. The claim is what follows the
preamble; a sentence that is all preamble claims nothing. A lone opening adverb ("Regrettably,") frames too.
"""

from __future__ import annotations

import re

from ragpulse_judge.tokens import is_framing_word

_CLAUSE = re.compile(r"[^,:;]*[,:;]\s*")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?|\d")
_MAX_PREAMBLE_WORDS = 14
# "Regrettably," "Interestingly," "Notably,": a lone adverb opening a sentence colours it and states nothing;
# left in, it dilutes how closely the claim restates its evidence (and so hides a flipped negation).
_SENTENCE_ADVERB = re.compile(r"[A-Za-z]{4,}ly", re.IGNORECASE)


def without_preamble(sentence: str) -> str:
    """``sentence`` without its leading preamble clauses; empty when it is all preamble."""
    rest = sentence
    while True:
        clause = _CLAUSE.match(rest)
        if clause is None or not _is_framing(clause.group()):
            break
        rest = rest[clause.end() :]
    return "" if _is_framing(rest) else rest


def _is_framing(text: str) -> bool:
    words = _WORD.findall(text)
    if len(words) == 1 and _SENTENCE_ADVERB.fullmatch(words[0]):
        return True
    return 0 < len(words) <= _MAX_PREAMBLE_WORDS and all(is_framing_word(word) for word in words)
