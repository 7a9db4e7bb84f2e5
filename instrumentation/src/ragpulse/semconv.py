"""Span and attribute names: the one place they are spelled.

OpenInference names where a convention exists (so Phoenix, Arize and friends can read the spans), GenAI
names (``gen_ai.*``) where they apply, and ``ragpulse.*`` for what no convention covers.
"""

from typing import Final

# OpenInference
SPAN_KIND: Final = "openinference.span.kind"
INPUT_VALUE: Final = "input.value"
INPUT_MIME_TYPE: Final = "input.mime_type"
OUTPUT_VALUE: Final = "output.value"
OUTPUT_MIME_TYPE: Final = "output.mime_type"
SESSION_ID: Final = "session.id"
USER_ID: Final = "user.id"
METADATA: Final = "metadata"
LLM_MODEL_NAME: Final = "llm.model_name"
LLM_TOKEN_COUNT_PROMPT: Final = "llm.token_count.prompt"
LLM_TOKEN_COUNT_COMPLETION: Final = "llm.token_count.completion"
LLM_TOKEN_COUNT_TOTAL: Final = "llm.token_count.total"
RERANKER_QUERY: Final = "reranker.query"
RERANKER_TOP_K: Final = "reranker.top_k"
LLM_PROMPTS: Final = "llm.prompts"
# Flattened lists: ``<prefix><i>.<field>``.
RETRIEVAL_DOCUMENTS_PREFIX: Final = "retrieval.documents."
RERANKER_OUTPUT_DOCUMENTS_PREFIX: Final = "reranker.output_documents."
LLM_INPUT_MESSAGES_PREFIX: Final = "llm.input_messages."
LLM_OUTPUT_MESSAGES_PREFIX: Final = "llm.output_messages."


class SpanKind:
    """Values of ``openinference.span.kind``."""

    CHAIN: Final = "CHAIN"
    RETRIEVER: Final = "RETRIEVER"
    RERANKER: Final = "RERANKER"
    LLM: Final = "LLM"


def retrieval_document(index: int, field: str) -> str:
    """``retrieval.documents.<i>.document.<field>`` for field in id, score, content, metadata."""
    return f"retrieval.documents.{index}.document.{field}"


def reranker_input_document(index: int, field: str) -> str:
    return f"reranker.input_documents.{index}.document.{field}"


def reranker_output_document(index: int, field: str) -> str:
    return f"reranker.output_documents.{index}.document.{field}"


# OpenTelemetry GenAI
GEN_AI_OPERATION_NAME: Final = "gen_ai.operation.name"
GEN_AI_PROVIDER_NAME: Final = "gen_ai.provider.name"
GEN_AI_REQUEST_MODEL: Final = "gen_ai.request.model"
GEN_AI_RESPONSE_MODEL: Final = "gen_ai.response.model"
GEN_AI_USAGE_INPUT_TOKENS: Final = "gen_ai.usage.input_tokens"
GEN_AI_USAGE_OUTPUT_TOKENS: Final = "gen_ai.usage.output_tokens"
GEN_AI_RETRIEVAL_TOP_K: Final = "gen_ai.retrieval.top_k"
GEN_AI_RETRIEVAL_QUERY_TEXT: Final = "gen_ai.retrieval.query.text"
GEN_AI_RETRIEVAL_DOCUMENTS: Final = "gen_ai.retrieval.documents"
GEN_AI_INPUT_MESSAGES: Final = "gen_ai.input.messages"
GEN_AI_OUTPUT_MESSAGES: Final = "gen_ai.output.messages"
GEN_AI_SYSTEM_INSTRUCTIONS: Final = "gen_ai.system_instructions"
# The evaluation event (a log record with this event name) and its attributes
GEN_AI_EVALUATION_RESULT: Final = "gen_ai.evaluation.result"
GEN_AI_EVALUATION_NAME: Final = "gen_ai.evaluation.name"
GEN_AI_EVALUATION_SCORE_VALUE: Final = "gen_ai.evaluation.score.value"
GEN_AI_EVALUATION_SCORE_LABEL: Final = "gen_ai.evaluation.score.label"
GEN_AI_EVALUATION_EXPLANATION: Final = "gen_ai.evaluation.explanation"
ERROR_TYPE: Final = "error.type"

# ragpulse: the instrumentation scope of the decorators, and the root span of one RAG request
INSTRUMENTATION_NAME: Final = "ragpulse"
KIND: Final = "ragpulse.kind"
KIND_RAG: Final = "rag"
PIPELINE: Final = "ragpulse.pipeline"
VARIANT: Final = "ragpulse.variant"
CONTEXT: Final = "ragpulse.context"
"""JSON array of the chunks the generator saw: ``{id, text, score, rank, source}``."""
VARIATIONS: Final = "ragpulse.variations"
"""JSON array of the query variations (strings)."""
RETRIEVALS: Final = "ragpulse.retrievals"
"""JSON array, one entry per retrieval: ``{query, query_index, documents: [{id, score, rank}]}``."""
REFERENCE: Final = "ragpulse.reference"
"""A known correct answer, when the application has one."""
TRUNCATED: Final = "ragpulse.truncated"
"""Names of attributes whose values were cut to their size cap (JSON array)."""

# ragpulse: the guard's verdict on the root span (``ragpulse.guard`` / ``@rag(guard=...)``)
GUARD_VERDICT: Final = "ragpulse.guard.verdict"
"""``supported``, ``unsupported`` or ``unknown`` (no verdict: see ``ragpulse.guard.reason``)."""
GUARD_REASON: Final = "ragpulse.guard.reason"
"""Why the verdict is ``unknown`` (extra not installed, time-out, input not judgeable, judge error)."""
GUARD_SCORE: Final = "ragpulse.guard.score"
"""The support score of the weakest claim, 0 to 1."""
GUARD_JUDGE: Final = "ragpulse.guard.judge"
"""The free judge that decided: ``rules`` or ``learnt``."""
GUARD_VERSION: Final = "ragpulse.guard.version"
"""Its version, as the ``lexical`` scorer's scores carry it (``3``, ``4-<model hash>``)."""
GUARD_INPUT_SHA256: Final = "ragpulse.guard.input_sha256"
"""SHA-256 of the question, answer and chunk texts as judged: which text the verdict is about."""
GUARD_ELAPSED_MS: Final = "ragpulse.guard.elapsed_ms"
GUARD_UNSUPPORTED: Final = "ragpulse.guard.unsupported"
"""JSON array of the unsupported claims: ``{claim, evidence, chunk_id, score}`` (content: capped, redacted)"""
GUARD_VERDICT_SUPPORTED: Final = "supported"
GUARD_VERDICT_UNSUPPORTED: Final = "unsupported"
GUARD_VERDICT_UNKNOWN: Final = "unknown"

# ragpulse: end-user feedback, a small span of its own (root of its own trace) naming the request
KIND_FEEDBACK: Final = "feedback"
SPAN_FEEDBACK: Final = "ragpulse.feedback"
FEEDBACK_TRACE_ID: Final = "ragpulse.feedback.trace_id"
"""The request's trace id (32 hex digits)."""
FEEDBACK_SPAN_ID: Final = "ragpulse.feedback.span_id"
"""The request's root span id (16 hex digits); absent when the caller gave only the trace id."""
FEEDBACK_REQUEST_TIME_US: Final = "ragpulse.feedback.request_time_us"
"""The request's start time in microseconds since the epoch; only known inside the request."""
FEEDBACK_SCORE: Final = "ragpulse.feedback.score"
"""The end user's score, 0 (bad) to 1 (good), as given."""
FEEDBACK_COMMENT: Final = "ragpulse.feedback.comment"
"""The end user's comment (content: withheld when content capture is off, redacted and capped)."""

# ragpulse: step spans
QUERY_INDEX: Final = "ragpulse.query_index"
FUSION_METHOD: Final = "ragpulse.fusion.method"
FUSION_K: Final = "ragpulse.fusion.k"
FUSION_INPUT_RANKINGS: Final = "ragpulse.fusion.input_rankings"
"""JSON array of rankings, each a list of ``{id, score}``."""
FUSION_OUTPUT_RANKING: Final = "ragpulse.fusion.output_ranking"
"""JSON array of ``{id, score}`` in fused order."""
PROMPT_CHARS: Final = "ragpulse.prompt.chars"

# ragpulse: the scores it exports as gen_ai.evaluation.result events
SCORER: Final = "ragpulse.scorer"
SCORER_VERSION: Final = "ragpulse.scorer.version"
METRIC: Final = "ragpulse.metric"
EVALUATED_SERVICE: Final = "ragpulse.evaluated_service"
"""The service whose request was scored (the event's own resource is the scorer process)."""

# Span names
SPAN_RAG_PREFIX: Final = "rag"
SPAN_VARIATIONS: Final = "variations"
SPAN_RETRIEVE: Final = "retrieve"
SPAN_FUSE: Final = "fuse"
SPAN_GENERATE: Final = "generate"

TRUNCATION_MARKER: Final = "…[truncated {dropped} chars]"
"""Appended to a text attribute cut to its cap, so a reader sees that text is missing."""

# Values
GEN_AI_OPERATION_RETRIEVAL: Final = "retrieval"
GEN_AI_OPERATION_CHAT: Final = "chat"
FUSION_METHOD_RRF: Final = "rrf"

STREAM_ABANDONED: Final = "ragpulse.stream.abandoned"
"""True on a span whose stream was closed or dropped before its end; its output is what streamed so far."""
REDACTION_FAILED_MARKER: Final = "[ragpulse: redaction failed, text withheld]"
"""Set instead of a text whose redaction hook raised, so unredacted text never leaves the process."""
