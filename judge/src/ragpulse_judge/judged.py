"""What the free judge reads of one request, prepared the one way the online scorer and the guard share.

Both read a request alike (text made valid UTF-8, empty chunks left out, answer and context cut to the
judge's caps, an answer in another language than its context refused), so that on the same request they
reach the same verdict; and both name what they judged by one digest, so the scorer can tell whether a
guard's verdict was about the very text it assembled itself.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from ragpulse_judge.deadline import check_deadline
from ragpulse_judge.language import language_mismatch
from ragpulse_judge.learnt import MAX_ANSWER_CHARS, MAX_CONTEXT_CHARS, MAX_QUESTION_CHARS


class NotJudgeable(ValueError):
    """The request holds nothing the free judge can judge (no answer, no context, two languages)."""


@dataclass(frozen=True)
class JudgedInput:
    question: str
    answer: str
    texts: list[str]
    """The texts of the chunks judged, each cut to what is left of the context cap (possibly empty)."""
    positions: list[int]
    """For each of ``texts``, the position of its chunk among the chunks given (empty ones are left out)."""
    truncated: dict[str, int] = field(default_factory=dict)
    """``answer_chars`` / ``context_chars``: the sizes of what was cut to the caps."""

    @property
    def digest(self) -> str:
        """SHA-256 (hex) of the question, answer and chunk texts as judged."""
        canonical = json.dumps([self.question, self.answer, self.texts], ensure_ascii=True)
        return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def valid_text(text: str) -> str:
    """Text as valid UTF-8: lone surrogates (from undecodable bytes upstream) become U+FFFD."""
    return text.encode("utf-8", "replace").decode("utf-8", "replace")


def prepare(question: str, chunks: Sequence[str], answer: str) -> JudgedInput:
    """The request as the free judge reads it; raises :class:`NotJudgeable` with the reason."""
    answer = valid_text(answer)
    if not answer.strip():
        raise NotJudgeable("no answer")
    positions = [position for position, text in enumerate(chunks) if text.strip()]
    if not positions:
        raise NotJudgeable("empty context")
    truncated: dict[str, int] = {}
    if len(answer) > MAX_ANSWER_CHARS:
        truncated["answer_chars"] = len(answer)
        answer = answer[:MAX_ANSWER_CHARS]
    texts: list[str] = []
    budget = MAX_CONTEXT_CHARS
    for position in positions:
        text = valid_text(chunks[position])
        texts.append(text[: max(budget, 0)])
        budget -= len(text)
    if budget < 0:
        truncated["context_chars"] = MAX_CONTEXT_CHARS - budget
    check_deadline()
    mismatch = language_mismatch(answer, texts)
    if mismatch:
        raise NotJudgeable(mismatch)
    check_deadline()
    return JudgedInput(valid_text(question[:MAX_QUESTION_CHARS]), answer, texts, positions, truncated)
