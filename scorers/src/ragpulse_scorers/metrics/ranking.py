"""Ranking metrics over graded relevance (RAGElo, seed 003 §7.2.1): 0 not, 1 somewhat, 2 very relevant.

A ranking is given as the relevance grades of its documents in rank order (rank 1 first); ``None`` marks a
document nobody judged, which counts as not relevant. MRR@k per the paper: the reciprocal rank of the first
document at or above the threshold within the top k, 0 when there is none; averaged over queries it is the
mean of these.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean

NOT_RELEVANT = 0
SOMEWHAT_RELEVANT = 1
VERY_RELEVANT = 2
RELEVANCE_GRADES = (NOT_RELEVANT, SOMEWHAT_RELEVANT, VERY_RELEVANT)

Grades = Sequence[int | None]


def reciprocal_rank(grades: Grades, threshold: int, k: int = 5) -> float:
    """1/rank of the first document with grade >= ``threshold`` within the top ``k``; 0.0 when none."""
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    for rank, grade in enumerate(grades[:k], start=1):
        if grade is not None and grade >= threshold:
            return 1.0 / rank
    return 0.0


def mean_reciprocal_rank(rankings: Iterable[Grades], threshold: int, k: int = 5) -> float | None:
    """MRR@k over queries; ``None`` for no queries."""
    values = [reciprocal_rank(grades, threshold, k) for grades in rankings]
    return fmean(values) if values else None


def precision_at_k(grades: Grades, threshold: int = SOMEWHAT_RELEVANT, k: int | None = None) -> float | None:
    """Share of the top ``k`` (all when ``k`` is None) with grade >= ``threshold``; ``None`` if empty."""
    top = grades if k is None else grades[:k]
    if not top:
        return None
    return sum(grade is not None and grade >= threshold for grade in top) / len(top)


def grades_for(ranked_ids: Sequence[str], relevance: Mapping[str, int]) -> list[int | None]:
    """The grades of ``ranked_ids`` from judged relevance; unjudged ids become ``None`` (not relevant)."""
    return [relevance.get(doc_id) for doc_id in ranked_ids]


@dataclass(frozen=True)
class VariationMrr:
    """MRR@k of one query variation's ranking (query_index 0 = the user's original query)."""

    query_index: int
    query: str
    mrr_very_relevant: float
    mrr_relevant: float
    judged: int
    ranked: int


def variation_mrr(
    query_index: int, query: str, ranked_ids: Sequence[str], relevance: Mapping[str, int], k: int = 5
) -> VariationMrr:
    grades = grades_for(ranked_ids, relevance)
    return VariationMrr(
        query_index=query_index,
        query=query,
        mrr_very_relevant=reciprocal_rank(grades, VERY_RELEVANT, k),
        mrr_relevant=reciprocal_rank(grades, SOMEWHAT_RELEVANT, k),
        judged=sum(grade is not None for grade in grades[:k]),
        ranked=len(grades[:k]),
    )


def fusion_gain(fused: Grades, original: Grades, threshold: int, k: int = 5) -> float:
    """MRR@k of the fused ranking minus that of the original query's ranking (positive: fusion helped)."""
    return reciprocal_rank(fused, threshold, k) - reciprocal_rank(original, threshold, k)
