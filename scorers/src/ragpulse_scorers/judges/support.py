"""The ``support`` scorer: RAGBench's TRACe judgment of one answer against the chunks it was generated from.

The documents go to the judge as keyed sentences (``0a``, ``0b``, ``1a``); the judge answers with the seed's
fields (relevant and utilized keys, per-sentence support, overall support). Relevance, utilization
and completeness are length-weighted as RAGBench defines them: characters of the selected sentences over
characters of all document sentences (completeness: relevant-and-utilized over relevant). Adherence is the
overall verdict and hallucination its complement.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field, field_validator

from ragpulse_scorers.judges.keys import KeyedSentence, key_documents
from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.client import JudgeCall, JudgeClient, shared_client
from ragpulse_scorers.llm.errors import JudgeRejected
from ragpulse_scorers.llm.prompting import DATA_RULE, fence
from ragpulse_scorers.metric_names import ADHERENCE, COMPLETENESS, HALLUCINATION, RELEVANCE, UTILIZATION
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.scorer import NotApplicable
from ragpulse_scorers.settings import ScorersSettings
from ragpulse_scorers.verdicts import SentenceVerdict, SupportVerdict

if TYPE_CHECKING:
    import argparse

    import httpx
    from ragpulse_core.store import Store

SCORER_VERSION = "1"
PROMPT_VERSION = "support-p1"

SYSTEM_PROMPT = f"""You check answers written by a retrieval-augmented question answering system.
You get the documents the system retrieved, split into sentences that each carry a key (in 0a, 0b, 1a the
number is the document and the letters the sentence), the user's question, and the system's answer.
{DATA_RULE}

Work in four steps.
1. Relevance. Looking only at the question and the documents (ignore the answer here), collect the keys of the
   sentences whose information is needed to answer the question correctly and completely.
2. Utilization. Collect the keys of the sentences whose information the answer uses, whether quoted,
   paraphrased or used indirectly to build the answer.
3. Sentence support. For every sentence you collected in step 1 or 2, say whether the answer uses it
   faithfully (is_supported) and explain why in one short sentence.
4. Overall support. overall_supported is true only when every factual claim of the answer can be grounded in
   the documents, directly or by combining sentences. One important claim the documents do not back makes
   it false. Saying the documents lack the answer, transitions and summaries of earlier sentences need no
   support.

Use only keys that appear in the documents. Reply with one JSON object with these fields and no other text:
- "relevance_explanation": string, which sentences matter for the question and why
- "all_relevant_sentence_keys": array of sentence keys from step 1
- "overall_supported_explanation": string, why the answer is or is not grounded in the documents
- "overall_supported": boolean from step 4
- "sentence_support_information": array of objects {{"sentence_key": string, "is_supported": boolean,
  "explanation": string}}, one per sentence from steps 1 and 2
- "all_utilized_sentence_keys": array of sentence keys from step 2"""

_KEY_NOISE = re.compile(r"^[\s'\"]+|[\s'\".:]+$")
_WHITESPACE = re.compile(r"\s+")


def _clean_key(key: str) -> str:
    """Judges echo keys as ``0a.`` or ``'0A'`` (the RAGBench prompt shows ``0a.``): compare the bare key."""
    return _KEY_NOISE.sub("", key).lower()


class SentenceSupport(BaseModel):
    sentence_key: str
    is_supported: bool
    explanation: str = ""

    @field_validator("sentence_key")
    @classmethod
    def _clean(cls, key: str) -> str:
        return _clean_key(key)


class SupportJudgment(BaseModel):
    """The judge's answer, field names as in the seed (RAGBench's judge prompt)."""

    relevance_explanation: str = ""
    all_relevant_sentence_keys: list[str] = Field(default_factory=list)
    overall_supported_explanation: str = ""
    overall_supported: bool
    sentence_support_information: list[SentenceSupport] = Field(default_factory=list)
    all_utilized_sentence_keys: list[str] = Field(default_factory=list)

    @field_validator("all_relevant_sentence_keys", "all_utilized_sentence_keys")
    @classmethod
    def _clean_keys(cls, keys: list[str]) -> list[str]:
        return list(dict.fromkeys(_clean_key(key) for key in keys))

    def named_keys(self) -> set[str]:
        return {
            *self.all_relevant_sentence_keys,
            *self.all_utilized_sentence_keys,
            *(info.sentence_key for info in self.sentence_support_information),
        }


@dataclass(frozen=True)
class TraceMetrics:
    relevance: float
    utilization: float
    completeness: float | None  # None when no sentence is relevant: nothing to be complete about


def trace_metrics(
    sentences: Sequence[KeyedSentence], relevant: Collection[str], utilized: Collection[str]
) -> TraceMetrics:
    """RAGBench's length-weighted TRACe ratios, length = characters of a sentence's text.

    relevance = Σ len(relevant) / Σ len(all), utilization = Σ len(utilized) / Σ len(all),
    completeness = Σ len(relevant ∩ utilized) / Σ len(relevant).
    """
    length = {sentence.key: len(sentence.text) for sentence in sentences}
    unknown = (set(relevant) | set(utilized)) - length.keys()
    if unknown:
        raise ValueError(f"keys not among the sentences: {sorted(unknown)}")
    total = sum(length.values())
    if total == 0:
        raise ValueError("the documents have no text")
    relevant_length = sum(length[key] for key in set(relevant))
    both_length = sum(length[key] for key in set(relevant) & set(utilized))
    return TraceMetrics(
        relevance=relevant_length / total,
        utilization=sum(length[key] for key in set(utilized)) / total,
        completeness=both_length / relevant_length if relevant_length else None,
    )


def user_prompt(question: str, sentences: Sequence[KeyedSentence], answer: str) -> str:
    documents = []
    for document in dict.fromkeys(sentence.document for sentence in sentences):
        # One line per sentence: collapsing whitespace keeps a sentence from faking a line with its own key.
        lines = "\n".join(
            f"{s.key}: {_WHITESPACE.sub(' ', s.text)}" for s in sentences if s.document == document
        )
        documents.append(fence("document", lines, index=document))
    return "\n\n".join(
        [
            f"<documents>\n{chr(10).join(documents)}\n</documents>",
            fence("question", question),
            fence("answer", answer),
        ]
    )


def rejecting_unknown_keys(sentences: Sequence[KeyedSentence]) -> Callable[[SupportJudgment], None]:
    known = {sentence.key for sentence in sentences}

    def validate(judgment: SupportJudgment) -> None:
        unknown = sorted(judgment.named_keys() - known)
        if unknown:
            raise JudgeRejected(
                f"sentence keys not in the documents: {', '.join(unknown[:10])}; use only the keys shown"
            )

    return validate


@dataclass(frozen=True)
class SupportAssessment:
    sentences: list[KeyedSentence]
    judgment: SupportJudgment
    metrics: TraceMetrics
    call: JudgeCall[SupportJudgment]


def assess_support(
    client: JudgeClient, question: str, documents: Sequence[str], answer: str
) -> SupportAssessment:
    """Judge one answer; raises ``NotApplicable`` when there is no answer or no document text."""
    if not answer.strip():
        raise NotApplicable("the request has no answer")
    sentences = key_documents(documents)
    if not sentences:
        raise NotApplicable("the request has no context text to judge support against")
    call = client.judge(
        SYSTEM_PROMPT,
        user_prompt(question, sentences, answer),
        SupportJudgment,
        PROMPT_VERSION,
        validate=rejecting_unknown_keys(sentences),
    )
    judgment = call.output
    metrics = trace_metrics(
        sentences, judgment.all_relevant_sentence_keys, judgment.all_utilized_sentence_keys
    )
    return SupportAssessment(sentences, judgment, metrics, call)


class SupportScorer:
    name = "support"
    version = f"{SCORER_VERSION}+{PROMPT_VERSION}"
    requires: tuple[str, ...] = ("answer", "context")

    def __init__(self, client: JudgeClient) -> None:
        self._client = client

    def score(self, request: RagRequest) -> list[Score]:
        found = assess_support(
            self._client, request.question, [chunk.text for chunk in request.context], request.answer
        )
        usage = Usage()
        usage.add(found.call)
        return usage.stamp(support_scores(found))


def support_scores(found: SupportAssessment) -> list[Score]:
    judgment, metrics = found.judgment, found.metrics
    relevant, utilized = judgment.all_relevant_sentence_keys, judgment.all_utilized_sentence_keys
    adherence = 1.0 if judgment.overall_supported else 0.0
    text_of = {sentence.key: sentence.text for sentence in found.sentences}
    unsupported = [
        info.sentence_key for info in judgment.sentence_support_information if not info.is_supported
    ]
    return [
        Score(
            metric=ADHERENCE,
            value=adherence,
            label="supported" if judgment.overall_supported else "unsupported",
            explanation=judgment.overall_supported_explanation,
            details={
                "sentence_support": [info.model_dump() for info in judgment.sentence_support_information],
                "sentences": {key: text_of[key] for key in sorted(judgment.named_keys())},
                "sentence_count": len(found.sentences),
            },
        ),
        Score(
            metric=HALLUCINATION,
            value=1.0 - adherence,
            label="grounded" if judgment.overall_supported else "hallucinated",
            explanation=judgment.overall_supported_explanation,
            details={"unsupported_keys": unsupported},
        ),
        Score(
            metric=RELEVANCE,
            value=metrics.relevance,
            explanation=judgment.relevance_explanation,
            details={"relevant_keys": relevant},
        ),
        Score(metric=UTILIZATION, value=metrics.utilization, details={"utilized_keys": utilized}),
        Score(
            metric=COMPLETENESS,
            value=metrics.completeness,
            label="" if metrics.completeness is not None else "no relevant sentences",
            details={"relevant_keys": relevant, "utilized_keys": utilized},
        ),
    ]


def build(settings: ScorersSettings, store: Store) -> SupportScorer:
    return SupportScorer(shared_client(settings.judge, store))


class OpenAISupportJudge:
    """The support scorer's judgment in the shape ``ragpulse eval support`` measures."""

    def __init__(self, client: JudgeClient) -> None:
        self._client = client
        self.name = f"openai:{client.model}"

    def judge_support(self, question: str, context: list[str], response: str) -> SupportVerdict:
        try:
            found = assess_support(self._client, question, context, response)
        except NotApplicable:
            # Nothing to ask: an empty response claims nothing; claims without documents are unsupported.
            claims_nothing = not response.strip()
            return SupportVerdict(hallucinated=not claims_nothing, support_score=float(claims_nothing))
        judgment = found.judgment
        text_of = {sentence.key: sentence.text for sentence in found.sentences}
        verdicts = [
            SentenceVerdict(
                sentence=text_of[info.sentence_key],
                supported=info.is_supported,
                score=1.0 if info.is_supported else 0.0,
                evidence=info.explanation,
            )
            for info in judgment.sentence_support_information
        ]
        # The overall verdict orders responses first; the share of faithfully used sentences breaks ties,
        # which gives AUROC more than two points to work with.
        share = (
            sum(v.supported for v in verdicts) / len(verdicts)
            if verdicts
            else float(judgment.overall_supported)
        )
        return SupportVerdict(
            hallucinated=not judgment.overall_supported,
            support_score=(float(judgment.overall_supported) + share) / 2,
            sentences=verdicts,
        )


def openai_support_judge(
    args: argparse.Namespace, http_client: httpx.Client | None = None
) -> OpenAISupportJudge:
    """``--judge openai``: the endpoint from the config file and environment; ``--model`` names the model.

    ``http_client`` is the seam tests use to put a mock transport under the openai client.
    """
    settings = ScorersSettings.load(
        getattr(args, "config", None), judge={"model": getattr(args, "model", None)}
    )
    return OpenAISupportJudge(JudgeClient(settings.judge, http_client=http_client))
