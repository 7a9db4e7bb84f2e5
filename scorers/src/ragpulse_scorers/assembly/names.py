"""The attribute names and values request assembly reads, spelled once.

Every name comes from ``ragpulse.semconv`` (OpenInference, the GenAI conventions and ragpulse's root span);
this module gathers the ones assembly reads, so its queries can ask for exactly those keys.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from ragpulse import semconv

# OpenInference
SPAN_KIND: Final = semconv.SPAN_KIND
INPUT_VALUE: Final = semconv.INPUT_VALUE
OUTPUT_VALUE: Final = semconv.OUTPUT_VALUE
SESSION_ID: Final = semconv.SESSION_ID
USER_ID: Final = semconv.USER_ID
LLM_MODEL_NAME: Final = semconv.LLM_MODEL_NAME
LLM_TOKEN_COUNT_PROMPT: Final = semconv.LLM_TOKEN_COUNT_PROMPT
LLM_TOKEN_COUNT_COMPLETION: Final = semconv.LLM_TOKEN_COUNT_COMPLETION
LLM_PROMPTS: Final = semconv.LLM_PROMPTS
RERANKER_QUERY: Final = semconv.RERANKER_QUERY
RETRIEVAL_DOCUMENTS: Final = semconv.RETRIEVAL_DOCUMENTS_PREFIX
RERANKER_OUTPUT_DOCUMENTS: Final = semconv.RERANKER_OUTPUT_DOCUMENTS_PREFIX
LLM_INPUT_MESSAGES: Final = semconv.LLM_INPUT_MESSAGES_PREFIX
LLM_OUTPUT_MESSAGES: Final = semconv.LLM_OUTPUT_MESSAGES_PREFIX

# OpenTelemetry GenAI
GEN_AI_OPERATION_NAME: Final = semconv.GEN_AI_OPERATION_NAME
GEN_AI_REQUEST_MODEL: Final = semconv.GEN_AI_REQUEST_MODEL
GEN_AI_RESPONSE_MODEL: Final = semconv.GEN_AI_RESPONSE_MODEL
GEN_AI_USAGE_INPUT_TOKENS: Final = semconv.GEN_AI_USAGE_INPUT_TOKENS
GEN_AI_USAGE_OUTPUT_TOKENS: Final = semconv.GEN_AI_USAGE_OUTPUT_TOKENS
GEN_AI_INPUT_MESSAGES: Final = semconv.GEN_AI_INPUT_MESSAGES
GEN_AI_OUTPUT_MESSAGES: Final = semconv.GEN_AI_OUTPUT_MESSAGES
GEN_AI_SYSTEM_INSTRUCTIONS: Final = semconv.GEN_AI_SYSTEM_INSTRUCTIONS
GEN_AI_RETRIEVAL_DOCUMENTS: Final = semconv.GEN_AI_RETRIEVAL_DOCUMENTS
GEN_AI_RETRIEVAL_QUERY_TEXT: Final = semconv.GEN_AI_RETRIEVAL_QUERY_TEXT

# ragpulse's root span
RAGPULSE_SCOPE: Final = semconv.INSTRUMENTATION_NAME
"""The instrumentation scope of ragpulse's decorators: their spans are not foreign."""
RAGPULSE_KIND: Final = semconv.KIND
RAGPULSE_KIND_RAG: Final = semconv.KIND_RAG
RAGPULSE_PIPELINE: Final = semconv.PIPELINE
RAGPULSE_VARIANT: Final = semconv.VARIANT
RAGPULSE_CONTEXT: Final = semconv.CONTEXT
RAGPULSE_VARIATIONS: Final = semconv.VARIATIONS
RAGPULSE_RETRIEVALS: Final = semconv.RETRIEVALS
RAGPULSE_REFERENCE: Final = semconv.REFERENCE

EXACT_KEYS: Final = (
    SPAN_KIND, INPUT_VALUE, OUTPUT_VALUE, SESSION_ID, USER_ID, LLM_MODEL_NAME, LLM_TOKEN_COUNT_PROMPT,
    LLM_TOKEN_COUNT_COMPLETION, LLM_PROMPTS, RERANKER_QUERY, GEN_AI_OPERATION_NAME, GEN_AI_REQUEST_MODEL,
    GEN_AI_RESPONSE_MODEL, GEN_AI_USAGE_INPUT_TOKENS, GEN_AI_USAGE_OUTPUT_TOKENS, GEN_AI_INPUT_MESSAGES,
    GEN_AI_OUTPUT_MESSAGES, GEN_AI_SYSTEM_INSTRUCTIONS, GEN_AI_RETRIEVAL_DOCUMENTS,
    GEN_AI_RETRIEVAL_QUERY_TEXT,
    RAGPULSE_KIND, RAGPULSE_PIPELINE, RAGPULSE_VARIANT, RAGPULSE_CONTEXT, RAGPULSE_VARIATIONS,
    RAGPULSE_RETRIEVALS, RAGPULSE_REFERENCE,
)  # fmt: skip
"""Every attribute assembly reads by its full name."""
KEY_PREFIXES: Final = (
    RETRIEVAL_DOCUMENTS, RERANKER_OUTPUT_DOCUMENTS, LLM_INPUT_MESSAGES, LLM_OUTPUT_MESSAGES,
    f"{LLM_PROMPTS}.",
)  # fmt: skip
"""Flattened lists assembly reads (``<prefix><i>.<field>``)."""


class Kind(StrEnum):
    """What a span did, from ``openinference.span.kind`` or ``gen_ai.operation.name``."""

    CHAIN = "CHAIN"
    AGENT = "AGENT"
    RETRIEVER = "RETRIEVER"
    RERANKER = "RERANKER"
    LLM = "LLM"
    EMBEDDING = "EMBEDDING"
    OTHER = "OTHER"


GEN_AI_KINDS: Final = {
    "retrieval": Kind.RETRIEVER,
    "chat": Kind.LLM,
    "text_completion": Kind.LLM,
    "generate_content": Kind.LLM,
    "embeddings": Kind.EMBEDDING,
    "invoke_agent": Kind.AGENT,
    "invoke_workflow": Kind.CHAIN,
}
REQUEST_KINDS: Final = (Kind.RETRIEVER, Kind.RERANKER, Kind.LLM)
"""A trace with none of these (indexing, embedding jobs) is not a request."""


class Source(StrEnum):
    """``ragpulse_requests.Source``: where a request row came from."""

    RAGPULSE = "ragpulse"
    OPENINFERENCE = "openinference"
    GENAI = "genai"
