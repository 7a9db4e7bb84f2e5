"""Claims, not sentences: a compound sentence split into the clauses that each assert something.

"The museum opened in 1990 and admits 2 million visitors a year" makes two claims; when the context states
only the first, the sentence is unsupported and the second clause is what a person must check. Without a
parser, clauses are cut where English joins statements:

- an aside: a parenthesis, or a relative clause set off by commas (", which opened in 1990,"), is a claim of
  its own, and the sentence around it another;
- a semicolon, or a dash set off by spaces;
- a comma before a coordinating or contrasting conjunction (", and", ", but", ", while", ", whereas",
  ", although", ", so", ", yet") or a relative pronoun (", which", ", who", ", where") that runs to the end.

A piece with fewer than ``MIN_CLAUSE_WORDS`` content words or numbers is not a statement ("A, B, and C"
lists; "(2019)" dates the sentence) and stays with the piece before it. A claim keeps where it lies in the
sentence (``start``, ``end``); the sentence around an aside reads without it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ragpulse_judge.tokens import sentence_features

MIN_CLAUSE_WORDS = 3
_JOINT = re.compile(
    r";\s+|\s+[-–—]\s+"
    r"|,\s+(?=(?:and|but|while|whereas|although|though|so|yet|which|who|whom|whose|where)\b)",
    re.IGNORECASE,
)
_ASIDE = re.compile(
    r"\s*\(([^()]{1,400})\)|,\s+((?:which|who|whom|whose|where)\b[^,;()]{1,400}),(?=\s)", re.IGNORECASE
)
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Claim:
    """One clause of a sentence: its text as read, and the characters of the sentence it spans."""

    text: str
    start: int
    end: int
    aside: bool = False


def split_claims(sentence: str) -> list[Claim]:
    """The claims of ``sentence`` in order; the sentence itself when it is not compound."""
    claims: list[Claim] = []
    masked = sentence
    for aside in _ASIDE.finditer(sentence):
        group = 1 if aside.group(1) is not None else 2
        if _statement_size(aside.group(group)):
            claims.append(replace(_claim(sentence, aside.start(group), aside.end(group)), aside=True))
            # Blanked rather than cut, so the sentence around it keeps its character positions.
            masked = masked[: aside.start()] + " " * (aside.end() - aside.start()) + masked[aside.end() :]
    claims.extend(_clauses(masked))
    claims.sort(key=lambda claim: claim.start)
    return claims or [Claim(sentence.strip(), 0, len(sentence))]


def _clauses(text: str) -> list[Claim]:
    bounds = [0]
    for joint in _JOINT.finditer(text):
        bounds.extend((joint.start(), joint.end()))
    bounds.append(len(text))
    pieces = [
        (start, end) for start, end in zip(bounds[::2], bounds[1::2], strict=True) if text[start:end].strip()
    ]
    merged: list[tuple[int, int]] = []
    for start, end in pieces:
        if merged and not _statement_size(text[start:end]):
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    if len(merged) > 1 and not _statement_size(text[merged[0][0] : merged[0][1]]):
        merged[:2] = [(merged[0][0], merged[1][1])]
    return [_claim(text, start, end) for start, end in merged]


def _claim(text: str, start: int, end: int) -> Claim:
    piece = text[start:end]
    leading = len(piece) - len(piece.lstrip(" ,;"))
    trailing = len(piece) - len(piece.rstrip(" ,;"))
    # A piece of only marks (",") strips from both ends over the same characters: it is empty where it starts.
    return Claim(_SPACES.sub(" ", piece.strip(" ,;")), start + leading, max(start + leading, end - trailing))


def _statement_size(text: str) -> bool:
    features = sentence_features(text, claim=False)
    return len(features.content) + len(features.numbers) >= MIN_CLAUSE_WORDS
