"""What each metric means and which way is good, said once for every report surface."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from ragpulse_scorers import metric_names as names


@dataclass(frozen=True)
class Term:
    meaning: str
    better: Literal["higher", "lower", "neither"]
    unit: str = "0–1"


HIGHER: Final = "higher"
LOWER: Final = "lower"

GLOSSARY: Final[dict[str, Term]] = {
    names.HALLUCINATION: Term(
        "Share of answers with at least one claim the retrieved context does not back (judged per answer).",
        LOWER,
        "% of answers",
    ),
    names.SUPPORT: Term(
        "How well the answer's weakest claim sentence is backed by the context: 1 = found there, 0 = not at"
        " all. One unbacked sentence sets it to 0, however verbatim the rest is.",
        HIGHER,
    ),
    names.ADHERENCE: Term(
        "1 when the LLM judge finds every claim of the answer in the context, else 0.", HIGHER
    ),
    names.UNSUPPORTED_SENTENCES: Term(
        "Claim sentences per answer that the context does not back (a count, not a share).",
        LOWER,
        "sentences",
    ),
    names.RELEVANCE: Term("Share of the context's sentences that bear on the question.", HIGHER),
    names.UTILIZATION: Term(
        "Share of the retrieved chunks (or relevant sentences) the answer drew on.", HIGHER
    ),
    names.COMPLETENESS: Term(
        "Share of the context's relevant sentences the answer used (TRACe completeness).", HIGHER
    ),
    names.CONTEXT_UTILIZATION: Term(
        "Share of the context's characters in the sentences the answer drew on.", HIGHER
    ),
    names.MRR5_VERY_RELEVANT: Term(
        "Reciprocal rank of the first very relevant passage in the top 5 (1 = ranked first).", HIGHER
    ),
    names.MRR5_RELEVANT: Term("Reciprocal rank of the first relevant passage in the top 5.", HIGHER),
    names.PRECISION_AT_K: Term("Share of the top-k retrieved passages judged relevant.", HIGHER),
    names.FUSION_GAIN: Term(
        "How much rank fusion over query variations improved retrieval over the original query alone"
        " (below 0: it made it worse).",
        HIGHER,
        "MRR difference",
    ),
    names.VARIATIONS_SCORE: Term("How useful and distinct the generated query variations are.", HIGHER),
    names.CORRECTNESS: Term("Agreement of the answer with a reference answer, where one exists.", HIGHER),
    names.PAIRWISE_WIN: Term("Share of head-to-head comparisons this variant's answer won.", HIGHER),
    names.PASS: Term(
        "Share of requests that pass one of the team's own evaluators ([evaluators.<kind>.<name>]).",
        HIGHER,
        "% of requests",
    ),
}


def term(metric: str) -> Term:
    """The metric's entry; a metric no entry names is described as such rather than left out."""
    return GLOSSARY.get(metric, Term("A score written by a custom scorer.", "neither", ""))
