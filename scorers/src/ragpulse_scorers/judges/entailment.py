"""Support judged by short entailment questions: the small-model mode of the ``support`` scorer.

A 1.5B model asked to fill RAGBench's long TRACe form judges at chance; asked "do these documents state this
sentence? yes / no / unsure" about a few sentences at a time, it does much better. Each claim sentence of the
answer (questions, hedges and preambles claim nothing: :mod:`ragpulse_judge.rules` decides which) is asked
about with the context sentences that share most words with it, fenced as data like every judge input.
An answer is hallucinated when some sentence gets "no"; "unsure" flags nothing but lowers the support score.
Chosen with ``[judge] support_mode = "entailment"``; it measures adherence and hallucination, not TRACe's
relevance, utilization and completeness.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel
from ragpulse_judge.rules import ContextIndex, gather_evidence
from ragpulse_judge.text import text_segments
from ragpulse_judge.tokens import sentence_features
from ragpulse_judge.verdicts import SentenceVerdict, SupportVerdict

from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.llm.items import collect_by_id, valid_items_only
from ragpulse_scorers.llm.output import JudgeOutput
from ragpulse_scorers.llm.prompting import DATA_RULE, fence
from ragpulse_scorers.metric_names import ADHERENCE, HALLUCINATION
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.scorer import NotApplicable

PROMPT_VERSION = "entail-p1"
SENTENCES_PER_CALL = 5
EVIDENCE_PER_SENTENCE = 3
ASKS = 2
VERDICT_SCORE = {"yes": 1.0, "unsure": 0.5, "no": 0.0}

SYSTEM_PROMPT = f"""You check whether statements are backed by documents.
{DATA_RULE}

For each numbered statement, answer:
- yes: the documents say it, or it follows directly from what they say;
- no: the documents do not say it, or they say something different;
- unsure: you cannot tell."""

_QUESTION = """{documents}

{statements}

Give {count} entries, one for each statement above ({ids})."""


class StatementVerdict(BaseModel):
    id: int
    verdict: Literal["yes", "no", "unsure"]


class EntailmentVerdicts(JudgeOutput):
    verdicts: Annotated[list[StatementVerdict], valid_items_only(StatementVerdict)]

    example: ClassVar[dict[str, Any]] = {"verdicts": [{"id": 1, "verdict": "no"}]}


@dataclass(frozen=True)
class EntailmentAssessment:
    """The claim sentences of an answer and the judge's verdict on each (None: it gave none)."""

    sentences: list[str]
    verdicts: list[str | None]
    usage: Usage

    @property
    def hallucinated(self) -> bool:
        return "no" in self.verdicts

    @property
    def support_score(self) -> float:
        scored = [VERDICT_SCORE[v] for v in self.verdicts if v is not None]
        return sum(scored) / len(scored) if scored else 1.0


def assess_entailment(
    client: JudgeClient, question: str, documents: Sequence[str], answer: str
) -> EntailmentAssessment:
    """Ask about every claim sentence of ``answer``, a few per call; raises ``NotApplicable`` when there is
    no answer or no document text."""
    if not answer.strip():
        raise NotApplicable("the request has no answer")
    index = ContextIndex.build(question, list(documents))
    if not index.sentences:
        raise NotApplicable("the request has no context text to judge support against")
    question_features = sentence_features(question)
    claims = [
        segment.text
        for segment in text_segments(answer)
        if not isinstance(gather_evidence(segment, index, question_features), str)
    ]
    usage = Usage()
    verdicts: list[str | None] = []
    for start in range(0, len(claims), SENTENCES_PER_CALL):
        batch = claims[start : start + SENTENCES_PER_CALL]
        found = collect_by_id(list(range(1, len(batch) + 1)), _asker(client, index, batch, usage), ASKS)
        verdicts.extend(found.get(i) for i in range(1, len(batch) + 1))
    return EntailmentAssessment(claims, verdicts, usage)


def _asker(client: JudgeClient, index: ContextIndex, batch: list[str], usage: Usage) -> Any:
    def ask(ids: list[int]) -> list[tuple[int, str]]:
        call = client.judge(SYSTEM_PROMPT, _prompt(index, batch, ids), EntailmentVerdicts, PROMPT_VERSION)
        usage.add(call)
        return [(v.id, v.verdict) for v in call.output.verdicts]

    return ask


def _prompt(index: ContextIndex, batch: list[str], ids: list[int]) -> str:
    evidence = sorted({position for i in ids for position in _evidence(index, batch[i - 1])})
    documents = "\n".join(
        fence("document", index.sentences[position].text, chunk=index.sentences[position].chunk_index + 1)
        for position in evidence
    )
    statements = "\n".join(fence("statement", batch[i - 1], id=i) for i in ids)
    shown = ", ".join(map(str, ids))
    return _QUESTION.format(documents=documents, statements=statements, count=len(ids), ids=f"ids {shown}")


def _evidence(index: ContextIndex, sentence: str) -> list[int]:
    """The context sentences sharing most content words with ``sentence`` (document order on ties)."""
    stems = sentence_features(sentence).content
    hits: dict[int, int] = {}
    for stem in stems:
        for position in index.postings.get(stem, ()):
            hits[position] = hits.get(position, 0) + 1
    ranked = sorted(hits.items(), key=lambda item: (-item[1], item[0]))
    return [position for position, _ in ranked[:EVIDENCE_PER_SENTENCE]]


def entailment_scores(found: EntailmentAssessment) -> list[Score]:
    asked = [
        {"sentence": sentence, "verdict": verdict or "no verdict"}
        for sentence, verdict in zip(found.sentences, found.verdicts, strict=True)
    ]
    unsupported = [sentence for sentence, verdict in zip(found.sentences, found.verdicts, strict=True)
                   if verdict == "no"]  # fmt: skip
    explanation = (
        f"{len(unsupported)} of {len(found.sentences)} claim sentences not stated by the documents"
        if unsupported
        else f"the documents state all {len(found.sentences)} claim sentences"
    )
    return found.usage.stamp(
        [
            Score(
                metric=ADHERENCE,
                value=0.0 if found.hallucinated else 1.0,
                label="unsupported" if found.hallucinated else "supported",
                explanation=explanation,
                details={"sentences": asked},
            ),
            Score(
                metric=HALLUCINATION,
                value=1.0 if found.hallucinated else 0.0,
                label="hallucinated" if found.hallucinated else "grounded",
                explanation=explanation,
                details={"unsupported_sentences": unsupported},
            ),
        ]
    )


class EntailmentSupportJudge:
    """The small-model mode in the shape ``ragpulse eval support`` measures."""

    def __init__(self, client: JudgeClient) -> None:
        self._client = client
        self.name = f"openai-entailment:{client.model}"

    def judge_support(self, question: str, context: list[str], response: str) -> SupportVerdict:
        try:
            found = assess_entailment(self._client, question, context, response)
        except NotApplicable:
            claims_nothing = not response.strip()
            return SupportVerdict(hallucinated=not claims_nothing, support_score=float(claims_nothing))
        return SupportVerdict(
            hallucinated=found.hallucinated,
            support_score=found.support_score,
            sentences=[
                SentenceVerdict(sentence, verdict != "no", VERDICT_SCORE.get(verdict or "", 0.5))
                for sentence, verdict in zip(found.sentences, found.verdicts, strict=True)
            ],
            explanation=entailment_scores(found)[1].explanation,
        )


class EntailmentScorer:
    """The ``support`` scorer in small-model mode: adherence and hallucination from entailment questions."""

    name = "support"
    version = f"1+{PROMPT_VERSION}"
    requires: tuple[str, ...] = ("answer", "context")

    def __init__(self, client: JudgeClient) -> None:
        self._client = client

    def score(self, request: RagRequest) -> list[Score]:
        documents = [chunk.text for chunk in request.context]
        return entailment_scores(assess_entailment(self._client, request.question, documents, request.answer))
