"""ragpulse scorers: sample recorded RAG requests, judge them, write scores back to ClickHouse."""

from ragpulse_scorers.models import ContextChunk, RagRequest, RankedDocument, Retrieval, Score
from ragpulse_scorers.scorer import NotApplicable, Scorer

__all__ = ["ContextChunk", "NotApplicable", "RagRequest", "RankedDocument", "Retrieval", "Score", "Scorer"]
