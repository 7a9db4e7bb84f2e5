"""The attribute names and values request assembly reads, spelled once.

They follow OpenInference and the GenAI conventions (and ragpulse's root span); the scorers do not import the
instrumentation package, so the names read here are listed here.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

# OpenInference
SPAN_KIND: Final = "openinference.span.kind"
INPUT_VALUE: Final = "input.value"
OUTPUT_VALUE: Final = "output.value"
SESSION_ID: Final = "session.id"
USER_ID: Final = "user.id"
LLM_MODEL_NAME: Final = "llm.model_name"
LLM_TOKEN_COUNT_PROMPT: Final = "llm.token_count.prompt"
LLM_TOKEN_COUNT_COMPLETION: Final = "llm.token_count.completion"
LLM_PROMPTS: Final = "llm.prompts"
RERANKER_QUERY: Final = "reranker.query"
RETRIEVAL_DOCUMENTS: Final = "retrieval.documents."
RERANKER_OUTPUT_DOCUMENTS: Final = "reranker.output_documents."
LLM_INPUT_MESSAGES: Final = "llm.input_messages."
LLM_OUTPUT_MESSAGES: Final = "llm.output_messages."

# OpenTelemetry GenAI
GEN_AI_OPERATION_NAME: Final = "gen_ai.operation.name"
GEN_AI_REQUEST_MODEL: Final = "gen_ai.request.model"
GEN_AI_RESPONSE_MODEL: Final = "gen_ai.response.model"
GEN_AI_USAGE_INPUT_TOKENS: Final = "gen_ai.usage.input_tokens"
GEN_AI_USAGE_OUTPUT_TOKENS: Final = "gen_ai.usage.output_tokens"
GEN_AI_INPUT_MESSAGES: Final = "gen_ai.input.messages"
GEN_AI_OUTPUT_MESSAGES: Final = "gen_ai.output.messages"
GEN_AI_SYSTEM_INSTRUCTIONS: Final = "gen_ai.system_instructions"
GEN_AI_RETRIEVAL_DOCUMENTS: Final = "gen_ai.retrieval.documents"
GEN_AI_RETRIEVAL_QUERY_TEXT: Final = "gen_ai.retrieval.query.text"

# ragpulse's root span
RAGPULSE_SCOPE: Final = "ragpulse"
"""The instrumentation scope of ragpulse's decorators: their spans are not foreign."""
RAGPULSE_KIND: Final = "ragpulse.kind"
RAGPULSE_KIND_RAG: Final = "rag"
RAGPULSE_PIPELINE: Final = "ragpulse.pipeline"
RAGPULSE_VARIANT: Final = "ragpulse.variant"
RAGPULSE_CONTEXT: Final = "ragpulse.context"
RAGPULSE_VARIATIONS: Final = "ragpulse.variations"
RAGPULSE_RETRIEVALS: Final = "ragpulse.retrievals"
RAGPULSE_REFERENCE: Final = "ragpulse.reference"

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
