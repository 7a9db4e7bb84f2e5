"""What the judge calls behind one request's scores cost, and how that is written onto the score rows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ragpulse_scorers.models import Score

if TYPE_CHECKING:  # the client imports openai, which commands that only read the store do not need
    from ragpulse_scorers.llm.client import JudgeCall


@dataclass
class Usage:
    """Sums over the judge calls made for one request (cached calls add nothing but their count)."""

    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: float = 0.0
    calls: int = 0
    cached_calls: int = 0

    def add(self, call: JudgeCall[Any]) -> None:
        self.model = call.model
        self.input_tokens += call.input_tokens
        self.output_tokens += call.output_tokens
        self.cost_usd += call.cost_usd
        self.latency_ms += call.latency_ms
        self.calls += 1
        self.cached_calls += call.cached

    def stamp(self, scores: list[Score]) -> list[Score]:
        """Copies of ``scores`` carrying this usage.

        One set of calls produced every row, so tokens and cost are shared out across the rows (their sum is
        the request's cost, which is what a dashboard summing CostUSD needs); latency is the request's judging
        time on every row.
        """
        if not scores:
            return []
        n = len(scores)
        input_share, input_rest = divmod(self.input_tokens, n)
        output_share, output_rest = divmod(self.output_tokens, n)
        return [
            score.model_copy(
                update={
                    "judge_model": self.model,
                    "input_tokens": input_share + (index < input_rest),
                    "output_tokens": output_share + (index < output_rest),
                    "cost_usd": self.cost_usd / n,
                    "latency_ms": self.latency_ms,
                }
            )
            for index, score in enumerate(scores)
        ]
