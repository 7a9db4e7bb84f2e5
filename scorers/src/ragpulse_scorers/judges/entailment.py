"""Support judged by short entailment questions: the small-model mode of the ``support`` scorer.

A 1.5B model asked to fill RAGBench's long TRACe form judges at chance. Here it is asked about one claim
sentence at a time (questions, hedges and preambles claim nothing: :mod:`ragpulse_judge.rules` decides which)
"do these documents back this statement? yes / no / unsure", after the documents and the question, all fenced
as data like every judge input. Its answer is read as probabilities (:mod:`ragpulse_scorers.llm.words`), not
as the word it writes: an answer is hallucinated when some sentence's probability of "no" is over
``UNSUPPORTED_ABOVE``, a threshold chosen on RAGTruth's train split (docs/judge-quality.md); "unsure" counts
as backed. The calls about one answer begin with the same bytes, so a server that keeps its prompt cache
reads the documents once and each further sentence costs its own tokens and one answer token.
Chosen with ``[judge] support_mode = "entailment"``; it measures adherence and hallucination, not TRACe's
relevance, utilization and completeness.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from ragpulse_judge.rules import ContextIndex, gather_evidence
from ragpulse_judge.text import text_segments
from ragpulse_judge.tokens import sentence_features
from ragpulse_judge.verdicts import SentenceVerdict, SupportVerdict

from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.llm.prompting import DATA_RULE, fence
from ragpulse_scorers.metric_names import ADHERENCE, HALLUCINATION
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.scorer import NotApplicable

logger = logging.getLogger(__name__)

PROMPT_VERSION = "entail-p3"
WORDS = ("yes", "no", "unsure")
UNSUPPORTED_ABOVE = 0.2
"""A sentence is unsupported when the judge's probability of "no" is over this: the best of 0.05-0.95 on 24
RAGTruth-QA train responses with the local 1.5B model (``scripts/small_model_judge.py --choose-threshold``,
docs/judge-quality.md). A small model rarely gives "no" more than a third of its probability."""
EVIDENCE_PER_SENTENCE = 3
WHOLE_CONTEXT_CHARS = 12_000
"""A longer context is shown as the sentences sharing most words with some claim (``EVIDENCE_PER_SENTENCE``
each), so that a retrieval of many long chunks still fits a small model's window."""

SYSTEM_PROMPT = f"""You check whether a statement is backed by documents.
{DATA_RULE}

Answer with one word:
- yes: the documents say it, or it follows directly from what they say;
- no: the documents do not say it, or they say something different;
- unsure: you cannot tell."""

# The documents and question come first and are the same bytes in every call about one answer, the statement
# last: a server that keeps the longest common prefix of consecutive prompts (llama.cpp, vLLM, OpenAI's prompt
# caching) then reads the documents once per answer, not once per call.
_DOCUMENTS = """{documents}

{question}

A statement from an answer to this question follows. Do the documents above back it?"""

_STATEMENT = """{statement}

Answer yes, no or unsure."""


@dataclass(frozen=True)
class EntailmentAssessment:
    """The claim sentences of an answer and the judge's probability that the documents do not back each."""

    sentences: list[str]
    unsupported_chances: list[float]
    usage: Usage

    @property
    def unsupported(self) -> list[str]:
        return [
            sentence
            for sentence, chance in zip(self.sentences, self.unsupported_chances, strict=True)
            if chance > UNSUPPORTED_ABOVE
        ]

    @property
    def hallucinated(self) -> bool:
        return bool(self.unsupported)

    @property
    def support_score(self) -> float:
        """1 less the least backed sentence's chance of "no": it ranks answers as the verdict reads them."""
        return 1.0 - max(self.unsupported_chances, default=0.0)


def assess_entailment(
    client: JudgeClient, question: str, documents: Sequence[str], answer: str
) -> EntailmentAssessment:
    """Ask about every claim sentence of ``answer``, one per call; raises ``NotApplicable`` when there is no
    answer or no document text."""
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
    shared = _DOCUMENTS.format(
        documents=_fenced_documents(index, claims), question=fence("question", question)
    )
    usage = Usage()
    chances = []
    for claim in claims:
        prompt = f"{shared}\n\n" + _STATEMENT.format(statement=fence("statement", claim))
        call = client.choose(SYSTEM_PROMPT, prompt, WORDS, PROMPT_VERSION)
        usage.add(call)
        chances.append(call.output.probabilities["no"])
    return EntailmentAssessment(claims, chances, usage)


def _fenced_documents(index: ContextIndex, claims: list[str]) -> str:
    """Every chunk, fenced; or, for a context over ``WHOLE_CONTEXT_CHARS``, the sentences sharing most words
    with some claim, in document order, grouped by chunk."""
    if sum(len(chunk) for chunk in index.chunks) <= WHOLE_CONTEXT_CHARS:
        shown = {number: chunk for number, chunk in enumerate(index.chunks) if chunk.strip()}
    else:
        positions = sorted({position for claim in claims for position in _evidence(index, claim)})
        grouped: dict[int, list[str]] = {}
        for position in positions:
            sentence = index.sentences[position]
            grouped.setdefault(sentence.chunk_index, []).append(sentence.text)
        shown = {number: " ... ".join(texts) for number, texts in grouped.items()}
    return "\n".join(fence("document", text, chunk=number + 1) for number, text in shown.items())


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
        {"sentence": sentence, "unsupported_chance": round(chance, 4)}
        for sentence, chance in zip(found.sentences, found.unsupported_chances, strict=True)
    ]
    unsupported = found.unsupported
    explanation = (
        f"{len(unsupported)} of {len(found.sentences)} claim sentences not backed by the documents"
        if unsupported
        else f"the documents back all {len(found.sentences)} claim sentences"
    )
    return found.usage.stamp(
        [
            Score(
                metric=ADHERENCE,
                value=0.0 if found.hallucinated else 1.0,
                label="unsupported" if found.hallucinated else "supported",
                explanation=explanation,
                details={"sentences": asked, "unsupported_above": UNSUPPORTED_ABOVE},
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
                SentenceVerdict(sentence, chance <= UNSUPPORTED_ABOVE, 1.0 - chance)
                for sentence, chance in zip(found.sentences, found.unsupported_chances, strict=True)
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
