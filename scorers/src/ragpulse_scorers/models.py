"""What a scorer reads (one recorded RAG request) and what it writes (scores)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field, ValidationError, field_validator


class ContextChunk(BaseModel):
    """One chunk the generator saw, in the order it saw them (rank 1 first)."""

    id: str
    text: str = ""
    score: float | None = None
    rank: int = 0
    source: str | None = None

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_text(cls, value: Any) -> str:
        return str(value)


class RankedDocument(BaseModel):
    id: str
    score: float | None = None
    rank: int

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_text(cls, value: Any) -> str:
        return str(value)


class Retrieval(BaseModel):
    """One retrieval of a RAG-Fusion request: the ranking for one query variation (index 0 = the original)."""

    query: str = ""
    query_index: int = 0
    documents: list[RankedDocument] = Field(default_factory=list)


class RequestRowError(ValueError):
    """A ``ragpulse_requests`` row that cannot become a :class:`RagRequest` (the reason says why)."""


class RagRequest(BaseModel):
    trace_id: str
    span_id: str = ""
    """The request's root span: a trace may hold several requests."""
    timestamp: datetime
    service_name: str = ""
    pipeline: str = ""
    variant: str = ""
    question: str = ""
    answer: str = ""
    context: list[ContextChunk] = Field(default_factory=list)
    variations: list[str] = Field(default_factory=list)
    retrievals: list[Retrieval] = Field(default_factory=list)
    reference: str | None = None
    session_id: str = ""
    user_id: str = ""
    duration_ms: float = 0.0
    status_code: str = ""
    sample_key: int = 0
    span_attributes: dict[str, str] = Field(default_factory=dict)
    """The root span's attributes that a scorer asked for (see ``Scorer.attributes``), not every one."""
    resource_attributes: dict[str, str] = Field(default_factory=dict)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> RagRequest:
        """Build from a ``ragpulse_requests`` row (column names as in the table)."""
        try:
            return cls(
                trace_id=row["TraceId"],
                span_id=row.get("SpanId", ""),
                timestamp=row["Timestamp"],
                service_name=row.get("ServiceName", ""),
                pipeline=row.get("Pipeline", ""),
                variant=row.get("Variant", ""),
                question=row.get("Question", ""),
                answer=row.get("Answer", ""),
                context=_json_list(row.get("Context", ""), "Context"),
                variations=_json_list(row.get("Variations", ""), "Variations"),
                retrievals=_json_list(row.get("Retrievals", ""), "Retrievals"),
                reference=row.get("Reference") or None,
                session_id=row.get("SessionId", ""),
                user_id=row.get("UserId", ""),
                duration_ms=row.get("DurationMs", 0.0),
                status_code=row.get("StatusCode", ""),
                sample_key=row.get("SampleKey", 0),
            )
        except ValidationError as exc:
            raise RequestRowError(f"trace {row.get('TraceId', '?')}: {exc.errors()[0]['msg']}") from exc
        except KeyError as exc:
            raise RequestRowError(f"row lacks column {exc}") from exc


def _json_list(text: str, column: str) -> list[Any]:
    if not text:
        return []
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RequestRowError(f"{column} is not valid JSON ({exc.msg})") from exc
    if not isinstance(value, list):
        raise RequestRowError(f"{column} is not a JSON array")
    return value


class Score(BaseModel):
    """One metric of one request by one scorer; the scheduler adds trace, scorer and version when writing."""

    metric: str
    value: float | None
    label: str = ""
    explanation: str = ""
    details: dict[str, Any] = Field(default_factory=dict)
    judge_model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: float = 0.0
    error: str = ""
    inclusion_probability: float = 1.0
    """The chance the request had of being judged by this scorer (directed sampling): its weight is 1 / it."""
