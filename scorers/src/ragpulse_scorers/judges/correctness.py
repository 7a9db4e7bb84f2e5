"""The ``correctness`` scorer: does the answer say what the request's known correct answer says? (seed 000)

Runs only on requests that carry ``ragpulse.reference``; the judge answers the seed's ``{"judgment": "Yes"}``
or ``"No"``, plus a one-sentence reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import field_validator

from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.client import JudgeClient, shared_client
from ragpulse_scorers.llm.output import JudgeOutput
from ragpulse_scorers.llm.prompting import DATA_RULE, fence
from ragpulse_scorers.metric_names import CORRECTNESS
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.scorer import NotApplicable

if TYPE_CHECKING:
    from ragpulse_core.store import Store

    from ragpulse_scorers.settings import ScorersSettings

SCORER_VERSION = "1"
PROMPT_VERSION = "correctness-p2"

SYSTEM_PROMPT = f"""You are an impartial grader. Decide whether a system's answer to a question is correct,
given a reference answer known to be correct. The answer is correct when it states or clearly implies what
the reference says; extra detail is fine unless it contradicts the reference, and wording does not matter.
An answer that declines, hedges between options or says something else is not correct.
First say in one short sentence why (reasoning), then give the judgment: "Yes" when the answer is correct,
"No" when it is not.
{DATA_RULE}"""


class CorrectnessJudgment(JudgeOutput):
    """The seed's ``{"judgment": "Yes"}``, with the reason written first."""

    reasoning: str
    judgment: Literal["Yes", "No"]

    example: ClassVar[dict[str, Any]] = {
        "reasoning": "The reference says 1889; the answer gives 1890, a different year.",
        "judgment": "No",
    }

    @field_validator("judgment", mode="before")
    @classmethod
    def _normalise(cls, value: Any) -> Any:
        return value.strip().strip(".\"'").capitalize() if isinstance(value, str) else value


def user_prompt(question: str, reference: str, answer: str) -> str:
    return "\n\n".join([fence("question", question), fence("reference", reference), fence("answer", answer)])


class CorrectnessScorer:
    name = "correctness"
    version = f"{SCORER_VERSION}+{PROMPT_VERSION}"
    requires: tuple[str, ...] = ("reference",)

    def __init__(self, client: JudgeClient) -> None:
        self._client = client

    def score(self, request: RagRequest) -> list[Score]:
        reference = (request.reference or "").strip()
        if not reference:
            raise NotApplicable("the request carries no reference answer")
        call = self._client.judge(
            SYSTEM_PROMPT,
            user_prompt(request.question, reference, request.answer),
            CorrectnessJudgment,
            PROMPT_VERSION,
        )
        correct = call.output.judgment == "Yes"
        usage = Usage()
        usage.add(call)
        return usage.stamp(
            [
                Score(
                    metric=CORRECTNESS,
                    value=1.0 if correct else 0.0,
                    label="yes" if correct else "no",
                    explanation=call.output.reasoning,
                )
            ]
        )


def build(settings: ScorersSettings, store: Store) -> CorrectnessScorer:
    return CorrectnessScorer(shared_client(settings.judge, store))
