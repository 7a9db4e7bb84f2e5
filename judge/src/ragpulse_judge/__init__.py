"""The free support judge: is every claim of an answer supported by the context it was given?

    from ragpulse_judge import judge
    verdict = judge(answer, context=["chunk one", "chunk two"], question="...")
    verdict.hallucinated, verdict.probability, verdict.unsupported, verdict.version

Standard library only, a few milliseconds per answer: fit to run inside the service that wrote the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ragpulse_judge.learnt import ClaimResult, LearntJudge, Verdict
from ragpulse_judge.limits import TooLongToJudge
from ragpulse_judge.model import ModelError


@lru_cache(maxsize=1)
def default_judge() -> LearntJudge:
    """The judge with the model that ships in the package, loaded once per process."""
    return LearntJudge()


def judge(answer: str, context: Sequence[str], question: str = "") -> Verdict:
    """Judge ``answer`` against the ``context`` chunks it was written from and the ``question`` it answers.

    Raises :class:`TooLongToJudge` when an answer and context too large to compare (each claim against each
    context sentence sharing a word) would take over ten seconds."""
    if not isinstance(answer, str) or not isinstance(question, str):
        raise TypeError("answer and question must be strings")
    if isinstance(context, str) or not all(isinstance(chunk, str) for chunk in context):
        raise TypeError("context must be a sequence of strings (the chunks), not one string")
    return default_judge().verdict(question, list(context), answer)


__all__ = ["ClaimResult", "LearntJudge", "ModelError", "TooLongToJudge", "Verdict", "default_judge", "judge"]
