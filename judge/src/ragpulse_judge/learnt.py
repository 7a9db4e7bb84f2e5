"""The learnt free judge: every claim of an answer scored by the small model, the answer by its weakest claim.

Compound sentences are split into clauses (:mod:`ragpulse_judge.claims`), so one false clause makes its
sentence unsupported and is what the verdict shows. Each claim gets a calibrated probability of being
unsupported; the answer gets one too (:mod:`ragpulse_judge.model`). A sentence that claims nothing (a
question, a hedge, a preamble, a pointer to a source, a heading) is supported by definition.
"""

from __future__ import annotations

from dataclasses import dataclass

from ragpulse_judge.features import ClaimReading, read_answer
from ragpulse_judge.limits import DEFAULT_TIME_LIMIT_S, Deadline
from ragpulse_judge.model import LearntModel, load_model, sigmoid
from ragpulse_judge.rules import ClaimVerdict, LexicalAnalysis, support_verdict
from ragpulse_judge.verdicts import SupportVerdict

# Beyond these sizes the judge reads a prefix: a runaway answer or context must not stall the caller.
MAX_ANSWER_CHARS = 20_000
MAX_QUESTION_CHARS = 20_000
MAX_CONTEXT_CHARS = 200_000


@dataclass(frozen=True)
class ClaimResult:
    """One claim of the answer: ``supported`` is None for a sentence that claims nothing."""

    text: str
    sentence: str
    supported: bool | None
    probability: float | None
    evidence: str
    chunk_index: int | None
    reason: str


@dataclass(frozen=True)
class Verdict:
    """The free judge's verdict on one answer; ``probability`` is the calibrated chance it is hallucinated."""

    hallucinated: bool
    probability: float
    claims: list[ClaimResult]
    version: str

    @property
    def unsupported(self) -> list[ClaimResult]:
        return [claim for claim in self.claims if claim.supported is False]


class LearntJudge:
    """Implements :class:`~ragpulse_judge.verdicts.SupportJudge` with the learnt model."""

    name = "learnt"

    def __init__(
        self, model: LearntModel | None = None, time_limit_s: float | None = DEFAULT_TIME_LIMIT_S
    ) -> None:
        """``time_limit_s``: one answer's judging past it raises :class:`TooLongToJudge` (None: no limit)."""
        self.model = model or load_model()
        self.time_limit_s = time_limit_s

    @property
    def version(self) -> str:
        return self.model.version

    def analyse(self, question: str, context: list[str], answer: str) -> LexicalAnalysis:
        """Every claim with its verdict, in the form the lexical scorer writes."""
        reading = read_answer(question, context, answer, Deadline(self.time_limit_s))
        claims = [self._claim_verdict(claim) for claim in reading.claims]
        used = frozenset(
            claim.evidence_index for claim in claims if claim.evidence_index is not None and claim.supported
        )
        return LexicalAnalysis(claims, reading.index, used)

    def verdict(self, question: str, context: list[str], answer: str) -> Verdict:
        answer = answer[:MAX_ANSWER_CHARS]
        analysis = self.analyse(question[:MAX_QUESTION_CHARS], _capped(context), answer)
        sentences = analysis.index.sentences
        claims = [
            ClaimResult(
                text=claim.sentence,
                sentence=claim.sentence_of or claim.sentence,
                supported=claim.supported if claim.is_claim else None,
                probability=claim.probability,
                evidence="" if claim.evidence_index is None else sentences[claim.evidence_index].text,
                chunk_index=None
                if claim.evidence_index is None
                else sentences[claim.evidence_index].chunk_index,
                reason=claim.reason,
            )
            for claim in analysis.claims
        ]
        probability = round(1.0 - analysis.support_score, 4)
        return Verdict(analysis.hallucinated, probability, claims, self.version)

    def judge_support(self, question: str, context: list[str], response: str) -> SupportVerdict:
        return support_verdict(self.analyse(question, context, response), "claims")

    def _claim_verdict(self, claim: ClaimReading) -> ClaimVerdict:
        sentence_of = "" if claim.claim.text == claim.sentence.strip() else claim.sentence
        if claim.features is None or claim.evidence is None:
            return ClaimVerdict(claim.claim.text, False, True, 1.0, None, claim.reason, None, sentence_of)
        logit = self.model.claim_logit(claim.features)
        answer_scale = self.model.answer_probability(logit)
        return ClaimVerdict(
            sentence=claim.claim.text,
            is_claim=True,
            supported=answer_scale < self.model.threshold,
            score=round(1.0 - answer_scale, 4),
            evidence_index=claim.evidence.evidence_index,
            reason=claim.reason,
            probability=round(sigmoid(logit), 4),
            sentence_of=sentence_of,
        )


def _capped(context: list[str]) -> list[str]:
    texts: list[str] = []
    budget = MAX_CONTEXT_CHARS
    for chunk in context:
        if budget <= 0:
            break
        texts.append(chunk[:budget])
        budget -= len(chunk)
    return texts
