"""The values request assembly writes and compares, spelled once: span kinds, sources, context sources, and
the names of ragpulse's own root span (from ``ragpulse.semconv``).

The attribute names of other instrumentation families are spelled in their dialect modules
(:mod:`ragpulse_assembly.dialects`), each family's in one place.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from ragpulse import semconv

RAGPULSE_SCOPE: Final = semconv.INSTRUMENTATION_NAME
"""The instrumentation scope of ragpulse's decorators: their spans are not foreign."""
RAGPULSE_KIND: Final = semconv.KIND
RAGPULSE_KIND_RAG: Final = semconv.KIND_RAG
RAGPULSE_CONTEXT: Final = semconv.CONTEXT


class Kind(StrEnum):
    """What a span did, in the common span model."""

    CHAIN = "CHAIN"
    AGENT = "AGENT"
    RETRIEVER = "RETRIEVER"
    RERANKER = "RERANKER"
    LLM = "LLM"
    EMBEDDING = "EMBEDDING"
    TOOL = "TOOL"
    OTHER = "OTHER"


REQUEST_KINDS: Final = (Kind.RETRIEVER, Kind.RERANKER, Kind.LLM)
"""A trace with none of these (indexing, embedding jobs) is not a request."""


class Source(StrEnum):
    """``ragpulse_requests.Source``: the instrumentation family a request row came from."""

    RAGPULSE = "ragpulse"
    OPENINFERENCE = "openinference"
    GENAI = "genai"
    OPENLLMETRY = "openllmetry"
    OPENLIT = "openlit"
    HAYSTACK = "haystack"


class ContextSource(StrEnum):
    """``ragpulse_requests.ContextSource``: where a request's context was found."""

    RAGPULSE = "ragpulse"
    """The decorators' ``ragpulse.context`` (rows the materialized view writes)."""
    RETRIEVER = "retriever"
    """Retriever, reranker or vector-store spans carrying document text."""
    DOCUMENTS = "documents"
    """Document lists in other attributes (a task's output, a chain's input), or texts found elsewhere in the
    trace by document id."""
    PROMPT = "prompt"
    """Documents pasted into the generating LLM's prompt, with no document span carrying their text."""
    MAPPING = "mapping"
    """Where the service's ``[[assembly.mappings]]`` entry says its documents are."""
    NONE = ""
