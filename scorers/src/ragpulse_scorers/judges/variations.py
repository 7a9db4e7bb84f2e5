"""The ``variations`` scorer: 1-5 quality of a RAG-Fusion request's query variations.

Seed 000 grades a query decomposition on relevance, coverage and efficiency; RAG-Fusion's variations play the
same part (several queries searched for one question), so the same rubric applies. The judge scores each
criterion and the whole; each becomes a metric.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field

from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.client import JudgeClient, shared_client
from ragpulse_scorers.llm.output import JudgeOutput
from ragpulse_scorers.llm.prompting import DATA_RULE, fence
from ragpulse_scorers.metric_names import VARIATIONS_SCORE
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.scorer import NotApplicable

if TYPE_CHECKING:
    from ragpulse_core.store import Store

    from ragpulse_scorers.settings import ScorersSettings

SCORER_VERSION = "1"
PROMPT_VERSION = "variations-p2"

SYSTEM_PROMPT = f"""You are an expert in search and query analysis. A RAG-Fusion system rewrote a user's
question into several search queries (variations), searched with each, and fused the rankings. Grade the set
of variations from 1 (very poor) to 5 (excellent) on each criterion:
- relevance: how directly each variation relates to the question;
- coverage: whether the variations together cover every essential aspect of the question;
- efficiency: whether they are concise, focused, well-formed search queries, without near-duplicates that
  spend a search on nothing new.
First justify your grades in a few words (reasoning), then grade each criterion and give an overall score
from 1 to 5 for the set; scores may have one decimal.
{DATA_RULE}"""

_CRITERIA = ("relevance", "coverage", "efficiency")


class VariationsJudgment(JudgeOutput):
    reasoning: str
    relevance: float = Field(ge=1, le=5)
    coverage: float = Field(ge=1, le=5)
    efficiency: float = Field(ge=1, le=5)
    score: float = Field(ge=1, le=5)

    example: ClassVar[dict[str, Any]] = {
        "reasoning": "All three stay on the question, but none asks about cost, and two are near-duplicates.",
        "relevance": 4.5,
        "coverage": 3,
        "efficiency": 2.5,
        "score": 3,
    }


def user_prompt(question: str, variations: list[str]) -> str:
    listed = "\n".join(fence("variation", text, index=index) for index, text in enumerate(variations, 1))
    return f"{fence('question', question)}\n\n<variations>\n{listed}\n</variations>"


class VariationsScorer:
    name = "variations"
    version = f"{SCORER_VERSION}+{PROMPT_VERSION}"
    requires: tuple[str, ...] = ("variations",)

    def __init__(self, client: JudgeClient) -> None:
        self._client = client

    def score(self, request: RagRequest) -> list[Score]:
        variations = [text for text in request.variations if text.strip()]
        if not variations:
            raise NotApplicable("the request has no query variations")
        call = self._client.judge(
            SYSTEM_PROMPT, user_prompt(request.question, variations), VariationsJudgment, PROMPT_VERSION
        )
        judgment = call.output
        scores = [
            Score(
                metric=VARIATIONS_SCORE,
                value=judgment.score,
                explanation=judgment.reasoning,
                details={"variations": len(variations)},
            ),
            *(Score(metric=f"variations_{name}", value=getattr(judgment, name)) for name in _CRITERIA),
        ]
        usage = Usage()
        usage.add(call)
        return usage.stamp(scores)


def build(settings: ScorersSettings, store: Store) -> VariationsScorer:
    return VariationsScorer(shared_client(settings.judge, store))
