"""An evaluator that ``measures = "hallucination"`` as a support judge, so ``ragpulse eval support --judge
NAME`` measures it against people's labels like the built-in judges."""

from __future__ import annotations

from datetime import UTC, datetime

from ragpulse_judge.verdicts import SupportVerdict

from ragpulse_scorers.evaluators.scorers import Evaluator
from ragpulse_scorers.metric_names import HALLUCINATION
from ragpulse_scorers.models import ContextChunk, RagRequest
from ragpulse_scorers.scorer import NotApplicable

_EVAL_TRACE = "0" * 32


class EvaluatorSupportJudge:
    def __init__(self, evaluator: Evaluator, score_range: tuple[float, float] | None = None) -> None:
        """``score_range``: an LLM evaluator's score range, whose score then orders responses for AUROC
        (otherwise the pass verdict does)."""
        self.name = evaluator.name
        self._evaluator = evaluator
        self._range = score_range

    def judge_support(self, question: str, context: list[str], response: str) -> SupportVerdict:
        request = RagRequest(
            trace_id=_EVAL_TRACE,
            timestamp=datetime.now(UTC),
            question=question,
            answer=response,
            context=[ContextChunk(id=str(i), text=text, rank=i + 1) for i, text in enumerate(context)],
        )
        scores = {score.metric: score for score in self._evaluator.score(request)}
        verdict = scores.get(HALLUCINATION)
        if verdict is None or verdict.value is None:
            raise NotApplicable(f"{self.name} gave no hallucination verdict")
        hallucinated = verdict.value >= 0.5
        support = 0.0 if hallucinated else 1.0
        score = scores.get("score")
        if self._range is not None and score is not None and score.value is not None:
            low, high = self._range
            support = (score.value - low) / (high - low)
        return SupportVerdict(hallucinated, support, explanation=verdict.explanation)
