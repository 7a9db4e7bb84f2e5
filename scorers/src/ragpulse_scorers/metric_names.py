"""Every metric name the scorers write to ``ragpulse_scores.Metric``, spelled once.

Dashboards, alert rules and reports compare these names; a scorer writes only names listed here.
"""

from __future__ import annotations

from typing import Final

# Support: per answer (lexical and LLM support judges)
HALLUCINATION: Final = "hallucination"
SUPPORT: Final = "support"
ADHERENCE: Final = "adherence"
UNSUPPORTED_SENTENCES: Final = "unsupported_sentences"
# TRACe (RAGBench): relevance, utilization and completeness of the context
RELEVANCE: Final = "relevance"
UTILIZATION: Final = "utilization"
COMPLETENESS: Final = "completeness"
CONTEXT_UTILIZATION: Final = "context_utilization"
# Retrieval (RAGElo)
MRR5_VERY_RELEVANT: Final = "mrr5_very_relevant"
MRR5_RELEVANT: Final = "mrr5_relevant"
PRECISION_AT_K: Final = "precision_at_k"
FUSION_GAIN: Final = "fusion_gain"
# Query variations and reference answers (FAIR-RAG)
VARIATIONS_SCORE: Final = "variations_score"
CORRECTNESS: Final = "correctness"
# Head-to-head (RAGElo)
PAIRWISE_WIN: Final = "pairwise_win"
# A judgment that failed: its row holds the error, no value
ERROR: Final = "error"
# An evaluator's verdict (a team's own judge): 1 when the request passes its check, 0 when it fails
PASS: Final = "pass"

# Metrics that say an answer is grounded; the report's "support" column reads the lowest of them.
SUPPORT_METRICS: Final = (SUPPORT, ADHERENCE)
# Counts, not shares: plotted and summarised apart from the 0-1 ratios.
COUNT_METRICS: Final = (UNSUPPORTED_SENTENCES,)
