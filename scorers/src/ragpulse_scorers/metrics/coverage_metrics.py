"""Sub-question coverage metrics of Xie et al. 2024, "Do RAG Systems Cover What Matters?" (seed 002).

Every number comes from per-sub-question outcomes: the sub-question's type (core / background / follow-up),
whether the answer covers it ("answered"), how many of the retrieved chunks cover it (at least one:
"retrieved") and where the answer first addresses it. For each type the four scenarios of the paper's Table 1
are the shares P_type(answered?, retrieved?) of that type's sub-questions; from them:

- Metric #1 P_type(answered): the answer's coverage rate per type.
- Metric #2 P_type(retrieved): the retrieval's coverage rate per type.
- Metric #3 P_core(answered, retrieved) / P_core(retrieved): how often retrieved core knowledge reaches the
  answer.
- Metric #4 P_core(¬answered, ¬retrieved) / P_core(¬answered): the share of missed core sub-questions that
  better retrieval could fix.
- Metric #5 p_covered − p_not_covered: the mean share of retrieved chunks covering a core sub-question when
  the answer covers it, minus the same when it does not.
- Metric #6 pos_follow-up − (pos_core + pos_background) / 2: pos_type is the mean addressing position (0 = the
  answer's first word, 1 = its end) of the answered sub-questions of that type.
- Hybrid rating (§4): Σ_type w_type · c_type with w = core 1, background 0.5, follow-up −1, where c_type is
  the answer's coverage rate of that type (Metric #1).

A metric whose denominator is empty (no core sub-question retrieved, no chunks, no follow-up answered, ...) is
``None``, never 0: an undefined rate is not a bad rate. Over many requests the paper pools sub-questions
(Table 1 counts occurrences over all 200 questions), so :func:`aggregate_coverage_metrics` pools them too; the
hybrid rating rates one answer, so its aggregate is the mean of the per-request ratings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Literal

SubQuestionType = Literal["core", "background", "follow-up"]
SUB_QUESTION_TYPES: tuple[SubQuestionType, ...] = ("core", "background", "follow-up")
HYBRID_WEIGHTS: Mapping[SubQuestionType, float] = {"core": 1.0, "background": 0.5, "follow-up": -1.0}


@dataclass(frozen=True)
class SubQuestionOutcome:
    """What the judges found for one sub-question of one request."""

    type: SubQuestionType
    answered: bool
    covering_chunks: int = 0
    total_chunks: int = 0
    position: float | None = None

    def __post_init__(self) -> None:
        if self.type not in SUB_QUESTION_TYPES:
            raise ValueError(f"unknown sub-question type {self.type!r}")
        if not 0 <= self.covering_chunks <= self.total_chunks:
            raise ValueError(f"covering_chunks {self.covering_chunks} not within 0..{self.total_chunks}")
        if self.position is not None and (not self.answered or not 0.0 <= self.position <= 1.0):
            raise ValueError("position must lie in [0, 1] and only answered sub-questions have one")

    @property
    def retrieved(self) -> bool:
        return self.covering_chunks > 0

    @property
    def chunk_share(self) -> float | None:
        """Share of the retrieved chunks that cover this sub-question (``None`` without chunks)."""
        return self.covering_chunks / self.total_chunks if self.total_chunks else None


@dataclass(frozen=True)
class ScenarioShares:
    """One column of the paper's Table 1: shares of one type's sub-questions in the four scenarios."""

    neither: float  # ¬answered, ¬retrieved
    retrieved_only: float  # ¬answered, retrieved
    answered_only: float  # answered, ¬retrieved
    both: float  # answered, retrieved

    @property
    def answered(self) -> float:
        return self.answered_only + self.both

    @property
    def retrieved(self) -> float:
        return self.retrieved_only + self.both

    @property
    def not_answered(self) -> float:
        return self.neither + self.retrieved_only


@dataclass(frozen=True)
class ScenarioMetrics:
    """Metrics #1-#4: everything the four-scenario shares determine."""

    answer_coverage: Mapping[SubQuestionType, float | None]
    retrieval_coverage: Mapping[SubQuestionType, float | None]
    core_identification: float | None
    core_retrieval_headroom: float | None


@dataclass(frozen=True)
class CoverageMetrics:
    """Metrics #1-#6 and the hybrid rating, for one request or pooled over many."""

    counts: Mapping[SubQuestionType, int]
    answer_coverage: Mapping[SubQuestionType, float | None]  # Metric #1
    retrieval_coverage: Mapping[SubQuestionType, float | None]  # Metric #2
    core_identification: float | None  # Metric #3
    core_retrieval_headroom: float | None  # Metric #4
    core_chunk_frequency_gap: float | None  # Metric #5
    position_alignment: float | None  # Metric #6
    hybrid_rating: float | None


def scenario_shares(outcomes: Iterable[SubQuestionOutcome], type_: SubQuestionType) -> ScenarioShares | None:
    """Table 1's column for one type, or ``None`` when there is no sub-question of that type."""
    of_type = [outcome for outcome in outcomes if outcome.type == type_]
    if not of_type:
        return None
    n = len(of_type)
    return ScenarioShares(
        neither=sum(not o.answered and not o.retrieved for o in of_type) / n,
        retrieved_only=sum(not o.answered and o.retrieved for o in of_type) / n,
        answered_only=sum(o.answered and not o.retrieved for o in of_type) / n,
        both=sum(o.answered and o.retrieved for o in of_type) / n,
    )


def metrics_from_shares(shares: Mapping[SubQuestionType, ScenarioShares | None]) -> ScenarioMetrics:
    """Metrics #1-#4 from Table 1-style shares (a missing type gives ``None`` for its rates)."""
    answer_coverage = {t: (s.answered if (s := shares.get(t)) else None) for t in SUB_QUESTION_TYPES}
    retrieval_coverage = {t: (s.retrieved if (s := shares.get(t)) else None) for t in SUB_QUESTION_TYPES}
    core = shares.get("core")
    return ScenarioMetrics(
        answer_coverage=answer_coverage,
        retrieval_coverage=retrieval_coverage,
        core_identification=_ratio(core.both, core.retrieved) if core else None,
        core_retrieval_headroom=_ratio(core.neither, core.not_answered) if core else None,
    )


def hybrid_rating(answer_coverage: Mapping[SubQuestionType, float | None]) -> float | None:
    """1·c_core + 0.5·c_background − 1·c_follow-up; a type with no sub-questions adds nothing."""
    defined = {t: c for t, c in answer_coverage.items() if c is not None}
    if not defined:
        return None
    return sum(HYBRID_WEIGHTS[t] * c for t, c in defined.items())


def coverage_metrics(outcomes: Iterable[SubQuestionOutcome]) -> CoverageMetrics:
    """Metrics #1-#6 and the hybrid rating over the given sub-questions (one request, or pooled)."""
    pooled = list(outcomes)
    table = metrics_from_shares({t: scenario_shares(pooled, t) for t in SUB_QUESTION_TYPES})
    return CoverageMetrics(
        counts={t: sum(o.type == t for o in pooled) for t in SUB_QUESTION_TYPES},
        answer_coverage=table.answer_coverage,
        retrieval_coverage=table.retrieval_coverage,
        core_identification=table.core_identification,
        core_retrieval_headroom=table.core_retrieval_headroom,
        core_chunk_frequency_gap=_core_chunk_frequency_gap(pooled),
        position_alignment=_position_alignment(pooled),
        hybrid_rating=hybrid_rating(table.answer_coverage),
    )


def aggregate_coverage_metrics(requests: Iterable[Sequence[SubQuestionOutcome]]) -> CoverageMetrics:
    """Metrics #1-#6 over the pooled sub-questions of many requests; the hybrid rating is the mean of the
    per-request ratings."""
    per_request = [list(outcomes) for outcomes in requests]
    pooled = coverage_metrics(outcome for outcomes in per_request for outcome in outcomes)
    ratings = [r for outcomes in per_request if (r := coverage_metrics(outcomes).hybrid_rating) is not None]
    return CoverageMetrics(
        counts=pooled.counts,
        answer_coverage=pooled.answer_coverage,
        retrieval_coverage=pooled.retrieval_coverage,
        core_identification=pooled.core_identification,
        core_retrieval_headroom=pooled.core_retrieval_headroom,
        core_chunk_frequency_gap=pooled.core_chunk_frequency_gap,
        position_alignment=pooled.position_alignment,
        hybrid_rating=fmean(ratings) if ratings else None,
    )


def _ratio(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator > 0 else None


def _core_chunk_frequency_gap(outcomes: Sequence[SubQuestionOutcome]) -> float | None:
    covered = [s for o in outcomes if o.type == "core" and o.answered and (s := o.chunk_share) is not None]
    missed = [s for o in outcomes if o.type == "core" and not o.answered and (s := o.chunk_share) is not None]
    if not covered or not missed:
        return None
    return fmean(covered) - fmean(missed)


def _position_alignment(outcomes: Sequence[SubQuestionOutcome]) -> float | None:
    mean_position: dict[SubQuestionType, float] = {}
    for type_ in SUB_QUESTION_TYPES:
        positions = [o.position for o in outcomes if o.type == type_ and o.position is not None]
        if not positions:
            return None
        mean_position[type_] = fmean(positions)
    return mean_position["follow-up"] - (mean_position["core"] + mean_position["background"]) / 2
