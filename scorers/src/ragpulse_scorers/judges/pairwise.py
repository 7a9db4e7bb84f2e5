"""Pairwise answer judging (RAGElo, seed 003): which of two answers to the same question is better?

Every pair is judged twice, once in each order of presentation, and :func:`metrics.elo.reconcile` keeps a
winner only when both orders agree (any disagreement is a tie), which cancels the judge's position bias. As in
RAGElo, the judge sees the documents both answers were generated from (pooled, each once) so it can check
claims against them; the factors are those of the paper's PairwiseEvaluatorConfig.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.llm.output import JudgeOutput
from ragpulse_scorers.llm.prompting import DATA_RULE, fence
from ragpulse_scorers.metrics.elo import Verdict, reconcile
from ragpulse_scorers.models import ContextChunk

PROMPT_VERSION = "pairwise-v2"
MAX_DOCUMENTS = 20

SYSTEM_PROMPT = f"""You are an impartial judge comparing two AI assistants' answers to the same user question.
Consider the comprehensiveness, correctness, helpfulness, completeness, accuracy, depth and level of detail of
the answers. An answer is comprehensive when it shows the user several relevant perspectives while staying on
the intent of the question. Use the retrieved documents as the reference for facts: a claim they do not
support may be a hallucination and counts against the answer making it. Avoid any position bias: the order
in which the answers appear must not influence you. Do not let the length of an answer influence you, and do
not favour an assistant's name.
{DATA_RULE}

Analyse each answer, compare them, then give your verdict: "A" if assistant A's answer is better, "B" if
assistant B's answer is better, "C" for a tie."""


class PairwiseVerdict(JudgeOutput):
    answer_a_analysis: str
    answer_b_analysis: str
    comparison_reasoning: str
    winner: Literal["A", "B", "C"]

    example: ClassVar[dict[str, Any]] = {
        "answer_a_analysis": "Gives the right deadline and cites the form, but skips the late-filing fee.",
        "answer_b_analysis": "Covers the fee too, but states a deadline the documents do not support.",
        "comparison_reasoning": "A wrong deadline misleads the user more than a missing fee does.",
        "winner": "A",
    }


@dataclass(frozen=True)
class PairJudgment:
    """Verdicts of one pair: ``forward`` with the first answer shown as A, ``swapped`` with the answers shown
    the other way round (in that order's labels), ``final`` reconciled, in the forward order."""

    forward: Verdict
    swapped: Verdict
    final: Verdict
    forward_reasoning: str
    swapped_reasoning: str
    usage: Usage = field(default_factory=Usage)


def pooled_documents(*contexts: Sequence[ContextChunk]) -> list[str]:
    """The texts of both requests' chunks, each chunk once (by id), in order, at most ``MAX_DOCUMENTS``."""
    seen: dict[str, str] = {}
    for context in contexts:
        for chunk in context:
            if chunk.text.strip() and chunk.id not in seen:
                seen[chunk.id] = chunk.text
    return list(seen.values())[:MAX_DOCUMENTS]


class PairwiseJudge:
    def __init__(self, client: JudgeClient) -> None:
        self.client = client

    def compare(
        self, question: str, answer_a: str, answer_b: str, documents: Sequence[str], usage: Usage
    ) -> PairwiseVerdict:
        """One judgment with ``answer_a`` shown first."""
        shown_documents = (
            "\n".join(fence("document", text, number=i) for i, text in enumerate(documents, 1))
            if documents
            else "NO DOCUMENTS WERE RETRIEVED"
        )
        user = "\n\n".join(
            [
                fence("question", question),
                f"Retrieved documents:\n{shown_documents}",
                fence("assistant_a_answer", answer_a),
                fence("assistant_b_answer", answer_b),
            ]
        )
        call = self.client.judge(SYSTEM_PROMPT, user, PairwiseVerdict, PROMPT_VERSION)
        usage.add(call)
        return call.output

    def judge_pair(self, question: str, first: str, second: str, documents: Sequence[str]) -> PairJudgment:
        """Both orders, reconciled; the verdicts name ``first`` as A."""
        usage = Usage()
        forward = self.compare(question, first, second, documents, usage)
        swapped = self.compare(question, second, first, documents, usage)
        return PairJudgment(
            forward=forward.winner,
            swapped=swapped.winner,
            final=reconcile(forward.winner, swapped.winner),
            forward_reasoning=forward.comparison_reasoning,
            swapped_reasoning=swapped.comparison_reasoning,
            usage=usage,
        )
