"""What a support judge decides about a response: the verdicts production judges return and eval measures."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class SentenceVerdict:
    sentence: str
    supported: bool
    score: float
    evidence: str = ""


@dataclass(frozen=True)
class SupportVerdict:
    """``support_score`` is higher for better-supported responses; AUROC of the hallucinated class uses it."""

    hallucinated: bool
    support_score: float
    sentences: list[SentenceVerdict] = field(default_factory=list)
    explanation: str = ""
    """Why the judge decided so, in its own words; empty for a judge that gives no reasons."""
    trace: dict[str, float | None] = field(default_factory=dict)
    """RAGBench's TRACe metrics where the judge computes them: relevance, utilization, completeness."""


class SupportJudge(Protocol):
    name: str

    def judge_support(self, question: str, context: list[str], response: str) -> SupportVerdict:
        """Judge whether every claim of ``response`` is supported by the ``context`` passages."""
        ...
