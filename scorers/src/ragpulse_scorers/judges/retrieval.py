"""The ``retrieval`` scorer: graded relevance of the chunks the generator saw, and MRR@5 (RAGElo, seed 003).

One batched call grades every chunk of the request's context 0 (not relevant), 1 (somewhat: on topic but does
not fully answer), 2 (very: on topic and answers the question), the scale of RAGElo's retrieval evaluator.
Chunks are shown under positional keys (``d1``, ``d2``, ...) because traced chunk ids may hold any characters;
a verdict naming a key that was not shown is dropped, a repeated key keeps its first verdict, and the chunks
left without a verdict are asked about again; a request whose chunks the judge still leaves ungraded fails
with that reason rather than counting them as not relevant.

Metrics: ``mrr5_very_relevant`` and ``mrr5_relevant`` (somewhat or very) of the context ranking,
``precision_at_k`` (k = number of chunks, somewhat or very relevant) and, for RAG-Fusion requests (several
retrievals), ``fusion_gain`` = MRR@5 (somewhat or very) of the fused ranking minus that of the original
query's ranking (query_index 0), with every variation's MRR@5 in the details. Only the context chunks are
judged: a document a variation ranked that did not reach the context is unjudged and counts as not
relevant, so a variation's MRR@5 is a lower bound.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import BaseModel

from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.llm.client import JudgeClient, shared_client
from ragpulse_scorers.llm.errors import JudgeOutputInvalid
from ragpulse_scorers.llm.items import collect_by_id, valid_items_only
from ragpulse_scorers.llm.output import JudgeOutput
from ragpulse_scorers.llm.prompting import DATA_RULE, fence
from ragpulse_scorers.metric_names import FUSION_GAIN, MRR5_RELEVANT, MRR5_VERY_RELEVANT, PRECISION_AT_K
from ragpulse_scorers.metrics.ranking import (
    SOMEWHAT_RELEVANT,
    VERY_RELEVANT,
    fusion_gain,
    grades_for,
    precision_at_k,
    reciprocal_rank,
    variation_mrr,
)
from ragpulse_scorers.models import ContextChunk, RagRequest, Retrieval, Score
from ragpulse_scorers.scorer import NotApplicable

if TYPE_CHECKING:
    from ragpulse_core.store import Store

    from ragpulse_scorers.settings import ScorersSettings

PROMPT_VERSION = "retrieval-relevance-v2"
MRR_DEPTH = 5

SYSTEM_PROMPT = f"""You are an impartial relevance annotator for a search engine. For each document, judge
how relevant it is to the user's question:
- 0: not relevant: the document is not on the topic of the question.
- 1: somewhat relevant: the document is on topic but does not fully answer the question.
- 2: very relevant: the document is on topic and answers the question.
When unsure between two grades, choose the lower one. Judge each document on its own.
{DATA_RULE}"""

USER_PROMPT = """{question}

{documents}

Give {count} entries, one for each document above ({keys}): its key, one sentence of reasoning, then its
grade."""


class DocumentRelevance(BaseModel):
    key: str
    reasoning: str
    relevance: Literal[0, 1, 2]


class RelevanceVerdicts(JudgeOutput):
    documents: Annotated[list[DocumentRelevance], valid_items_only(DocumentRelevance)]

    example: ClassVar[dict[str, Any]] = {
        "documents": [{"key": "d1", "reasoning": "Same drug, but about side effects only.", "relevance": 1}]
    }


class RetrievalScorer:
    name = "retrieval"
    version = f"1/{PROMPT_VERSION}"
    requires: tuple[str, ...] = ("question",)

    def __init__(self, client: JudgeClient) -> None:
        self.client = client

    def score(self, request: RagRequest) -> list[Score]:
        if not request.question.strip():
            raise NotApplicable("the request has no question")
        ranked = _context_ranking(request.context)
        judged = [chunk for chunk in ranked if chunk.text.strip()]
        if not judged:
            raise NotApplicable("no retrieved chunk with text to judge")
        usage = Usage()
        verdicts = self.judge(request.question, judged, usage)
        relevance: dict[str, int] = {
            chunk.id: verdict.relevance for chunk, verdict in zip(judged, verdicts, strict=True)
        }
        grades = grades_for([chunk.id for chunk in ranked], relevance)
        verdict_of = {id(chunk): verdict for chunk, verdict in zip(judged, verdicts, strict=True)}
        chunk_details = [
            _chunk_detail(rank, chunk, verdict_of.get(id(chunk))) for rank, chunk in enumerate(ranked, 1)
        ]
        k = len(ranked)
        scores = [
            Score(
                metric=MRR5_VERY_RELEVANT,
                value=reciprocal_rank(grades, VERY_RELEVANT, MRR_DEPTH),
                explanation=_first_hit(grades, VERY_RELEVANT, "very relevant"),
                details={"chunks": chunk_details, "unjudged": k - len(judged)},
            ),
            Score(
                metric=MRR5_RELEVANT,
                value=reciprocal_rank(grades, SOMEWHAT_RELEVANT, MRR_DEPTH),
                explanation=_first_hit(grades, SOMEWHAT_RELEVANT, "somewhat or very relevant"),
            ),
            Score(
                metric=PRECISION_AT_K,
                value=precision_at_k(grades, SOMEWHAT_RELEVANT, k),
                label=f"k={k}",
                explanation=f"{sum(g is not None and g >= 1 for g in grades)} of {k} chunks somewhat or very "
                "relevant",
            ),
        ]
        if len(request.retrievals) > 1:
            scores.append(_fusion_score(request.retrievals, grades, relevance))
        return usage.stamp(scores)

    def judge(self, question: str, chunks: Sequence[ContextChunk], usage: Usage) -> list[DocumentRelevance]:
        """One graded verdict per chunk, in order, from one batched call (and more for chunks it missed)."""
        keys = [f"d{i}" for i in range(1, len(chunks) + 1)]
        text_of = dict(zip(keys, (chunk.text for chunk in chunks), strict=True))

        def ask(asked: list[str]) -> list[tuple[str, DocumentRelevance]]:
            documents = "\n".join(fence("document", text_of[key], key=key) for key in asked)
            call = self.client.judge(
                SYSTEM_PROMPT,
                USER_PROMPT.format(
                    question=fence("question", question),
                    documents=documents,
                    count=len(asked),
                    keys=", ".join(asked),
                ),
                RelevanceVerdicts,
                PROMPT_VERSION,
            )
            usage.add(call)
            return [(document.key.strip().lower(), document) for document in call.output.documents]

        found = collect_by_id(keys, ask, 1 + self.client.settings.repairs)
        missing = [key for key in keys if key not in found]
        if missing:
            raise JudgeOutputInvalid(f"the judge graded no relevance for documents {', '.join(missing)}")
        return [found[key] for key in keys]


def build(settings: ScorersSettings, store: Store) -> RetrievalScorer:
    if not settings.judge.configured:
        raise ValueError(
            "the retrieval scorer needs an LLM endpoint: set OPENAI_BASE_URL and/or OPENAI_API_KEY"
        )
    return RetrievalScorer(shared_client(settings.judge, store))


def _context_ranking(context: Sequence[ContextChunk]) -> list[ContextChunk]:
    """The context in rank order; chunks recorded without ranks keep the order the generator saw them in."""
    if all(chunk.rank > 0 for chunk in context):
        return sorted(context, key=lambda chunk: chunk.rank)
    return list(context)


def _ranked_ids(retrieval: Retrieval) -> list[str]:
    return [document.id for document in sorted(retrieval.documents, key=lambda document: document.rank)]


def _fusion_score(
    retrievals: Sequence[Retrieval], fused: list[int | None], relevance: Mapping[str, int]
) -> Score:
    variations = [
        variation_mrr(r.query_index, r.query, _ranked_ids(r), relevance, MRR_DEPTH)
        for r in sorted(retrievals, key=lambda retrieval: retrieval.query_index)
    ]
    details: dict[str, Any] = {
        "variations": [vars(v) for v in variations],
        "unjudged_count_as": "not relevant",
    }
    original = next((r for r in retrievals if r.query_index == 0), None)
    if original is None:
        return Score(
            metric=FUSION_GAIN,
            value=None,
            label="undefined",
            explanation="undefined: no retrieval for the original query (query_index 0)",
            details=details,
        )
    original_grades = grades_for(_ranked_ids(original), relevance)
    gain = fusion_gain(fused, original_grades, SOMEWHAT_RELEVANT, MRR_DEPTH)
    details["fusion_gain_very_relevant"] = fusion_gain(fused, original_grades, VERY_RELEVANT, MRR_DEPTH)
    return Score(
        metric=FUSION_GAIN,
        value=gain,
        explanation=f"MRR@5 (somewhat or very relevant), fused ranking minus original query's: {gain:+.2f}",
        details=details,
    )


def _first_hit(grades: Sequence[int | None], threshold: int, what: str) -> str:
    for rank, grade in enumerate(grades[:MRR_DEPTH], 1):
        if grade is not None and grade >= threshold:
            return f"first {what} chunk at rank {rank}"
    return f"no {what} chunk in the top {MRR_DEPTH}"


def _chunk_detail(rank: int, chunk: ContextChunk, verdict: DocumentRelevance | None) -> dict[str, Any]:
    if verdict is None:
        return {
            "id": chunk.id,
            "rank": rank,
            "relevance": None,
            "reasoning": "not judged: recorded without text",
        }
    return {"id": chunk.id, "rank": rank, "relevance": verdict.relevance, "reasoning": verdict.reasoning}
