"""The free judge as a guard runs it in a service: prepared like the online scorer's, within a time bound.

:func:`judge_within` returns what the service needs to hold back, rewrite or flag an answer (every claim
with its verdict and evidence, the weakest claim's score) and what the online scorer needs to recognise the
verdict as its own (the judge's name and version, the digest of the input judged). It raises
:class:`~ragpulse_judge.judged.NotJudgeable` or :class:`~ragpulse_judge.deadline.DeadlineExceeded`; the
caller turns those into an "unknown" verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ragpulse_judge.deadline import time_bound
from ragpulse_judge.free import FreeJudgeName, shared_free_judge, version_of
from ragpulse_judge.judged import prepare

SUPPORTED = "supported"
UNSUPPORTED = "unsupported"
NO_CLAIM = "no claim"


@dataclass(frozen=True)
class ClaimOutcome:
    """One claim of the answer (a sentence, or a clause of one for the learnt judge)."""

    claim: str
    sentence: str
    verdict: str
    """``supported``, ``unsupported`` or ``no claim`` (a question, a hedge, a heading...)."""
    score: float
    evidence: str
    """The context sentence that supports the claim best; empty when none shares its words."""
    chunk: int | None
    """The position, among the chunks given, of the chunk holding ``evidence``."""
    reason: str


@dataclass(frozen=True)
class GuardJudgement:
    hallucinated: bool
    score: float
    """The support score of the weakest claim (1.0 when nothing is claimed)."""
    claims: list[ClaimOutcome]
    judge: FreeJudgeName
    version: str
    digest: str
    truncated: dict[str, int]


def judge_within(
    question: str, chunks: Sequence[str], answer: str, judge: FreeJudgeName, seconds: float
) -> GuardJudgement:
    """Judge ``answer`` against ``chunks`` with the free judge named ``judge``, within ``seconds``."""
    free_judge = shared_free_judge(judge)
    with time_bound(seconds):
        judged = prepare(question, chunks, answer)
        analysis = free_judge.analyse(judged.question, judged.texts, judged.answer)
    sentences = analysis.index.sentences
    claims = [
        ClaimOutcome(
            claim=claim.sentence,
            sentence=claim.sentence_of or claim.sentence,
            verdict=(SUPPORTED if claim.supported else UNSUPPORTED) if claim.is_claim else NO_CLAIM,
            score=claim.score,
            evidence="" if claim.evidence_index is None else sentences[claim.evidence_index].text,
            chunk=None
            if claim.evidence_index is None
            else judged.positions[sentences[claim.evidence_index].chunk_index],
            reason=claim.reason,
        )
        for claim in analysis.claims
    ]
    return GuardJudgement(
        hallucinated=analysis.hallucinated,
        score=analysis.support_score,
        claims=claims,
        judge=judge,
        version=version_of(free_judge),
        digest=judged.digest,
        truncated=judged.truncated,
    )
