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
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import BaseModel, field_validator
from ragpulse_judge.verdicts import SentenceVerdict, SupportVerdict

from ragpulse_scorers.judges.entailment import EntailmentScorer, EntailmentSupportJudge
from ragpulse_scorers.judges.keys import KeyedSentence, key_documents
from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.client import JudgeCall, JudgeClient, shared_client
from ragpulse_scorers.llm.endpoint import ready_client
from ragpulse_scorers.llm.errors import JudgeRejected, SteeringInData
from ragpulse_scorers.llm.items import valid_items_only
from ragpulse_scorers.llm.output import JudgeOutput
from ragpulse_scorers.llm.prompting import DATA_RULE, fence
from ragpulse_scorers.metric_names import ADHERENCE, COMPLETENESS, HALLUCINATION, RELEVANCE, UTILIZATION
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.scorer import NotApplicable
from ragpulse_scorers.settings import ScorersSettings

if TYPE_CHECKING:
    import argparse

    import httpx
    from ragpulse_core.store import Store

SCORER_VERSION = "1"
PROMPT_VERSION = "support-p2"

SYSTEM_PROMPT = f"""You check whether an answer written by a question-answering system is grounded in the
documents the system retrieved. The documents come split into sentences, each with a key: in 0a, 0b, 1a the
number is the document and the letters the sentence.
{DATA_RULE}

Fill in these fields, in this order:
- relevance_explanation: which sentences hold information needed to answer the question, and why. Judge this
  from the question and the documents alone, ignoring the answer.
- all_relevant_sentence_keys: the keys of those sentences.
- overall_supported_explanation: go through the answer's claims one by one and say which the documents back
  and which they do not.
- overall_supported: true only when the documents back every factual claim of the answer, directly or by
  combining sentences. One important claim they do not back makes it false. Saying that the documents lack
  the answer, transitions and summaries of earlier sentences need no backing.
- sentence_support_information: for each sentence you named as relevant or that the answer uses, its key,
  a short explanation, and whether the answer uses it faithfully (is_supported).
- all_utilized_sentence_keys: the keys of the sentences whose information the answer uses, whether quoted,
  paraphrased or combined with others.
Use only keys that appear in the documents."""

_KEY_NOISE = re.compile(r"^[\s'\"]+|[\s'\".:]+$")
_WHITESPACE = re.compile(r"\s+")


def _clean_key(key: str) -> str:
    """Judges echo keys as ``0a.`` or ``'0A'`` (the RAGBench prompt shows ``0a.``): compare the bare key."""
    return _KEY_NOISE.sub("", key).lower()


class SentenceSupport(BaseModel):
    sentence_key: str
    explanation: str
    is_supported: bool

    @field_validator("sentence_key")
    @classmethod
    def _clean(cls, key: str) -> str:
        return _clean_key(key)


class SupportJudgment(JudgeOutput):
    """The judge's answer, field names as in the seed (RAGBench's judge prompt); explanations first."""

    relevance_explanation: str
    all_relevant_sentence_keys: list[str]
    overall_supported_explanation: str
    overall_supported: bool
    sentence_support_information: Annotated[list[SentenceSupport], valid_items_only(SentenceSupport)]
    all_utilized_sentence_keys: list[str]

    example: ClassVar[dict[str, Any]] = {
        "relevance_explanation": "0a and 0c give the opening hours the question asks about; 1a is about "
        "parking and does not matter.",
        "all_relevant_sentence_keys": ["0a", "0c"],
        "overall_supported_explanation": "The weekday hours in the answer match 0a, but its claim that the "
        "museum closes on Sundays is in no document.",
        "overall_supported": False,
        "sentence_support_information": [
            {"sentence_key": "0a", "explanation": "The answer repeats these hours correctly.",
             "is_supported": True},
            {"sentence_key": "0c", "explanation": "0c gives holiday hours; the answer turns them into a "
             "Sunday closure.", "is_supported": False},
        ],
        "all_utilized_sentence_keys": ["0a", "0c"],
    }  # fmt: skip

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

    def restricted_to(self, known: Collection[str]) -> SupportJudgment:
        """This judgment without the keys that are not among ``known`` (each dropped on its own)."""
        return self.model_copy(
            update={
                "all_relevant_sentence_keys": [k for k in self.all_relevant_sentence_keys if k in known],
                "all_utilized_sentence_keys": [k for k in self.all_utilized_sentence_keys if k in known],
                "sentence_support_information": [
                    info for info in self.sentence_support_information if info.sentence_key in known
                ],
            }
        )


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


def rejecting_foreign_keys(sentences: Sequence[KeyedSentence]) -> Callable[[SupportJudgment], None]:
    """Rejects a judgment all of whose keys are unknown (the judge invented its own key format); a judgment
    with some known keys is kept and its unknown keys dropped one by one (:meth:`restricted_to`)."""
    known = {sentence.key for sentence in sentences}

    def validate(judgment: SupportJudgment) -> None:
        named = judgment.named_keys()
        if named and not named & known:
            raise JudgeRejected(
                f"sentence keys not in the documents: {', '.join(sorted(named)[:10])}; use only the keys "
                f"shown before each sentence, such as {', '.join(sorted(known)[:3])}"
            )

    return validate


@dataclass(frozen=True)
class SupportAssessment:
    sentences: list[KeyedSentence]
    judgment: SupportJudgment
    metrics: TraceMetrics
    call: JudgeCall[SupportJudgment]
    unknown_keys: list[str]
    """Keys the judge named that are not in the documents, dropped from ``judgment``."""


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
        validate=rejecting_foreign_keys(sentences),
    )
    known = {sentence.key for sentence in sentences}
    judgment = call.output.restricted_to(known)
    metrics = trace_metrics(
        sentences, judgment.all_relevant_sentence_keys, judgment.all_utilized_sentence_keys
    )
    return SupportAssessment(sentences, judgment, metrics, call, sorted(call.output.named_keys() - known))


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
                "unknown_keys_dropped": found.unknown_keys,
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


def build(settings: ScorersSettings, store: Store) -> SupportScorer | EntailmentScorer:
    """TRACe's form, or short entailment questions where ``[judge] support_mode = "entailment"``."""
    client = shared_client(settings.judge, store)
    if settings.judge.support_mode == "entailment":
        return EntailmentScorer(client)
    return SupportScorer(client)


class OpenAISupportJudge:
    """The support scorer's judgment in the shape ``ragpulse eval support`` measures."""

    def __init__(self, client: JudgeClient) -> None:
        self._client = client
        self.name = f"openai:{client.model}"

    def judge_support(self, question: str, context: list[str], response: str) -> SupportVerdict:
        try:
            found = assess_support(self._client, question, context, response)
        except SteeringInData:
            raise  # a judge error for eval: the item is listed as not judged, with the reason
        except NotApplicable:
            # Nothing to ask: an empty response claims nothing; claims without documents are unsupported.
            claims_nothing = not response.strip()
            return SupportVerdict(
                hallucinated=not claims_nothing,
                support_score=float(claims_nothing),
                explanation="the response is empty: it claims nothing"
                if claims_nothing
                else "no document text: nothing can support the response",
            )
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
        metrics = found.metrics
        return SupportVerdict(
            hallucinated=not judgment.overall_supported,
            support_score=(float(judgment.overall_supported) + share) / 2,
            sentences=verdicts,
            explanation=judgment.overall_supported_explanation,
            trace={
                "relevance": metrics.relevance,
                "utilization": metrics.utilization,
                "completeness": metrics.completeness,
            },
        )


def openai_support_judge(
    args: argparse.Namespace, http_client: httpx.Client | None = None
) -> OpenAISupportJudge | EntailmentSupportJudge:
    """``--judge openai``: the endpoint from the config file and environment; ``--model`` names the model.

    ``http_client`` is the seam tests use to put a mock transport under the openai client.
    """
    settings = ScorersSettings.load(
        getattr(args, "config", None), judge={"model": getattr(args, "model", None)}
    )
    client = ready_client(settings.judge, http_client)
    if settings.judge.support_mode == "entailment":
        return EntailmentSupportJudge(client)
    return OpenAISupportJudge(client)
