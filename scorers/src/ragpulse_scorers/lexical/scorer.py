"""The ``lexical`` scorer: the lexical judge on every recorded request, sentence-level evidence in Details."""

from __future__ import annotations

import time
from typing import Any

from ragpulse_core.store import Store
from ragpulse_judge.learnt import MAX_ANSWER_CHARS, MAX_CONTEXT_CHARS, MAX_QUESTION_CHARS, LearntJudge
from ragpulse_judge.rules import LexicalAnalysis, LexicalJudge

from ragpulse_scorers.lexical.language import language_mismatch
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

RULES_VERSION = "3"
LEARNT_VERSION = "4"


class LexicalScorer:
    """The free judge on every request. Its version names how it decides, so changing it re-judges recent
    requests: the rules are version 3; the learnt judge is 4 followed by its model file's hash, so a retrained
    model re-judges too.

    Rules: 2: answers and documents read as prose (markers, markdown, preambles). 3: read as a reader sees
    them (invisible characters, look-alike letters), hedges excuse only their own clause, CJK sentence ends,
    answers in another language than their documents skipped with a reason.
    Learnt: 4: claims (clauses) scored by a model trained on labelled answers, calibrated probabilities.
    """

    name = "lexical"
    version = RULES_VERSION
    requires: tuple[str, ...] = ("answer", "context")
    free = True

    def __init__(self, judge: LexicalJudge | LearntJudge | None = None) -> None:
        self.judge = judge or LexicalJudge()
        if isinstance(self.judge, LearntJudge):
            self.version = f"{LEARNT_VERSION}-{self.judge.version}"

    def score(self, request: RagRequest) -> list[Score]:
        answer = _clean(request.answer)
        if not answer.strip():
            raise NotApplicable("no answer")
        chunks = [chunk for chunk in request.context if chunk.text.strip()]
        if not chunks:
            raise NotApplicable("empty context")
        truncated: dict[str, int] = {}
        if len(answer) > MAX_ANSWER_CHARS:
            truncated["answer_chars"] = len(answer)
            answer = answer[:MAX_ANSWER_CHARS]
        texts = _capped_texts(chunks, truncated)
        mismatch = language_mismatch(answer, texts)
        if mismatch:
            raise NotApplicable(mismatch)

        started = time.perf_counter()
        analysis = self.judge.analyse(_clean(request.question[:MAX_QUESTION_CHARS]), texts, answer)
        latency_ms = (time.perf_counter() - started) * 1000
        learnt = isinstance(self.judge, LearntJudge)
        return _scores(analysis, chunks, truncated, latency_ms, learnt)


def build(settings: ScorersSettings, store: Store) -> LexicalScorer:
    """Registry entry point: the rules, or the learnt judge where ``[scorer.free] judge = "learnt"``."""
    free = settings.scorer.free
    if free.judge == "learnt":
        return LexicalScorer(LearntJudge(time_limit_s=free.time_limit_s))
    return LexicalScorer(LexicalJudge(time_limit_s=free.time_limit_s))


def _clean(text: str) -> str:
    """Text as valid UTF-8: lone surrogates (from undecodable bytes upstream) become U+FFFD."""
    return text.encode("utf-8", "replace").decode("utf-8", "replace")


def _capped_texts(chunks: list[ContextChunk], truncated: dict[str, int]) -> list[str]:
    texts: list[str] = []
    budget = MAX_CONTEXT_CHARS
    for chunk in chunks:
        text = _clean(chunk.text)
        texts.append(text[: max(budget, 0)])
        budget -= len(text)
    if budget < 0:
        truncated["context_chars"] = MAX_CONTEXT_CHARS - budget
    return texts


def _scores(
    analysis: LexicalAnalysis,
    chunks: list[ContextChunk],
    truncated: dict[str, int],
    latency_ms: float,
    learnt: bool,
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
