"""The ``lexical`` scorer: the lexical judge on every recorded request, sentence-level evidence in Details."""

from __future__ import annotations

import time
from typing import Any

from ragpulse_core.store import Store
from ragpulse_judge.free import LEARNT_VERSION, RULES_VERSION, name_of, version_of
from ragpulse_judge.judged import NotJudgeable, prepare
from ragpulse_judge.learnt import MAX_ANSWER_CHARS, MAX_CONTEXT_CHARS, LearntJudge
from ragpulse_judge.rules import LexicalAnalysis, LexicalJudge

from ragpulse_scorers.lexical.guard import GUARD_ATTRIBUTES, OwnVerdict, compare_with_guard
from ragpulse_scorers.metric_names import (
    CONTEXT_UTILIZATION,
    HALLUCINATION,
    SUPPORT,
    UNSUPPORTED_SENTENCES,
    UTILIZATION,
)
from ragpulse_scorers.models import ContextChunk, RagRequest, Score
from ragpulse_scorers.scorer import NotApplicable
from ragpulse_scorers.settings import ScorersSettings

__all__ = ["LEARNT_VERSION", "MAX_ANSWER_CHARS", "RULES_VERSION", "LexicalScorer", "build"]


class LexicalScorer:
    """The free judge on every request. Its version names how it decides, so changing it re-judges recent
    requests: the rules are version 3; the learnt judge is 4 followed by its model file's hash, so a retrained
    model re-judges too.

    Rules: 2: answers and documents read as prose (markers, markdown, preambles). 3: read as a reader sees
    them (invisible characters, look-alike letters), hedges excuse only their own clause, CJK sentence ends,
    answers in another language than their documents skipped with a reason.
    Learnt: 4: claims (clauses) scored by a model trained on labelled answers, calibrated probabilities.

    A guard's verdict on the request's span (``ragpulse.guard.*``) never replaces this judgement: the scorer
    judges every request itself and records whether the guard agreed (:mod:`ragpulse_scorers.lexical.guard`).
    """

    name = "lexical"
    version = RULES_VERSION
    requires: tuple[str, ...] = ("answer", "context")
    free = True
    attributes: tuple[tuple[str, ...], tuple[str, ...]] = (GUARD_ATTRIBUTES, ())

    def __init__(self, judge: LexicalJudge | LearntJudge | None = None) -> None:
        self.judge = judge or LexicalJudge()
        if isinstance(self.judge, LearntJudge):
            self.version = version_of(self.judge)

    def score(self, request: RagRequest) -> list[Score]:
        try:
            judged = prepare(request.question, [chunk.text for chunk in request.context], request.answer)
        except NotJudgeable as exc:
            raise NotApplicable(str(exc)) from exc
        chunks = [request.context[position] for position in judged.positions]
        started = time.perf_counter()
        analysis = self.judge.analyse(judged.question, judged.texts, judged.answer)
        latency_ms = (time.perf_counter() - started) * 1000
        learnt = isinstance(self.judge, LearntJudge)
        guard = compare_with_guard(
            request.span_attributes, OwnVerdict(name_of(self.judge), self.version, judged.digest, analysis)
        )
        return _scores(analysis, chunks, judged.truncated, latency_ms, learnt, guard)


def build(settings: ScorersSettings, store: Store) -> LexicalScorer:
    """Registry entry point: the rules, or the learnt judge where ``[scorer.free] judge = "learnt"``."""
    free = settings.scorer.free
    if free.judge == "learnt":
        return LexicalScorer(LearntJudge(time_limit_s=free.time_limit_s))
    return LexicalScorer(LexicalJudge(time_limit_s=free.time_limit_s))


def _scores(
    analysis: LexicalAnalysis,
    chunks: list[ContextChunk],
    truncated: dict[str, int],
    latency_ms: float,
    learnt: bool,
    guard: dict[str, Any] | None,
) -> list[Score]:
    sentences = analysis.index.sentences
    evidence: list[dict[str, Any]] = []
    for claim in analysis.claims:
        best = None if claim.evidence_index is None else sentences[claim.evidence_index]
        chunk = None if best is None else chunks[best.chunk_index]
        entry: dict[str, Any] = {
            "sentence": claim.sentence,
            "verdict": ("supported" if claim.supported else "unsupported") if claim.is_claim else "no claim",
            "score": claim.score,
            "chunk_id": None if chunk is None else chunk.id,
            "chunk_rank": None if chunk is None else chunk.rank,
            "evidence": "" if best is None else best.text,
            "reason": claim.reason,
        }
        if claim.probability is not None:
            entry["probability_unsupported"] = claim.probability
        if claim.sentence_of:
            entry["clause_of"] = claim.sentence_of
        evidence.append(entry)
    unsupported = [claim for claim in analysis.claims if not claim.supported]
    used_chunks = sorted({sentences[i].chunk_index for i in analysis.used_sentences})
    details: dict[str, Any] = {"sentences": evidence}
    if learnt:
        # The learnt judge's support score is the calibrated chance the answer is supported.
        details["probability_hallucinated"] = round(1.0 - analysis.support_score, 4)
    if guard is not None:
        details["guard"] = guard
    if truncated:
        details["truncated"] = {
            **truncated,
            "answer_limit": MAX_ANSWER_CHARS,
            "context_limit": MAX_CONTEXT_CHARS,
        }
    claims = sum(claim.is_claim for claim in analysis.claims)
    explanation = (
        f"{len(unsupported)} of {claims} claim sentences lack support in the context"
        if unsupported
        else f"all {claims} claim sentences are supported by the context"
    )
    usage = {
        "used_chunk_ids": [chunks[i].id for i in used_chunks],
        "used_sentences": len(analysis.used_sentences),
        "context_sentences": len(sentences),
    }
    return [
        Score(
            metric=HALLUCINATION,
            value=1.0 if analysis.hallucinated else 0.0,
            label="hallucinated" if analysis.hallucinated else "grounded",
            explanation=explanation,
            details=details,
            latency_ms=latency_ms,
        ),
        Score(
            metric=SUPPORT,
            value=analysis.support_score,
            explanation="score of the weakest claim",
            latency_ms=latency_ms,
        ),
        Score(
            metric=UTILIZATION,
            value=analysis.chunk_utilization,
            explanation=f"the answer drew on {len(used_chunks)} of {len(chunks)} chunks",
            details=usage,
            latency_ms=latency_ms,
        ),
        Score(
            metric=CONTEXT_UTILIZATION,
            value=analysis.character_utilization,
            explanation="share of context characters in the sentences the answer drew on",
            details=usage,
            latency_ms=latency_ms,
        ),
        Score(metric=UNSUPPORTED_SENTENCES, value=float(len(unsupported)), latency_ms=latency_ms),
    ]
