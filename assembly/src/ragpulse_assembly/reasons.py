"""Why a request cannot be scored: the codes of ``ragpulse_requests.Unscorable``, what each means to a user,
what to do about it, and which parts of a request it leaves a judge without.

Rows the materialized view writes from ragpulse root spans get their code from the column's default
(migration 0016), computed from the same missing parts; assembled rows set it from the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Unscorable(StrEnum):
    SCORABLE = ""
    NO_CONTENT = "no_content"
    NO_QUESTION = "no_question"
    NO_ANSWER = "no_answer"
    NO_CONTEXT = "no_context"
    CONTEXT_UNAVAILABLE = "context_unavailable"
    UNPARSEABLE = "unparseable"
    MAPPING_FOUND_NOTHING = "mapping_found_nothing"
    REQUEST_FAILED = "request_failed"
    CONTEXT_NOT_SEPARABLE = "context_not_separable"
    CONTENT_UPLOADED = "content_uploaded"
    READINGS_DISAGREE = "readings_disagree"


@dataclass(frozen=True)
class Explanation:
    label: str
    """A few words for counts: "no content captured"."""
    text: str
    """One sentence for a log row or a listing."""
    hint: str
    """What the user can change so such requests are scored."""
    missing: frozenset[str]
    """The request fields (:class:`~ragpulse_scorers.models.RagRequest` names) a judge would lack; a scorer
    that requires any of them is skipped with :attr:`text`. Empty: every scorer is skipped."""


_EVERYTHING: Final = frozenset[str]()

EXPLANATIONS: Final[dict[Unscorable, Explanation]] = {
    Unscorable.NO_CONTENT: Explanation(
        "no content captured",
        "no question or answer text was recorded: the instrumentation's content capture is off",
        "turn content capture on: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true (OpenTelemetry "
        "GenAI), TRACELOOP_TRACE_CONTENT=true (OpenLLMetry), HAYSTACK_CONTENT_TRACING_ENABLED=true "
        "(Haystack), OPENINFERENCE_HIDE_INPUTS/OUTPUTS unset (OpenInference), RAGPULSE_CAPTURE_CONTENT=true",
        frozenset({"question", "answer", "context"}),
    ),
    Unscorable.NO_QUESTION: Explanation(
        "no question",
        "the user's question could not be told apart from the rest of the prompt",
        "put the question in its own user message, or after a 'Question:' line; or add an assembly mapping "
        "for the service that says where the question is",
        frozenset({"question"}),
    ),
    Unscorable.NO_ANSWER: Explanation(
        "no answer",
        "no answer text was recorded (the call failed, streamed nothing, or returned no text)",
        "turn content capture on if it is off (the question may be recorded where the answer is not); else"
        " check the trace's status: a streamed answer is recorded only when the stream is read to its end",
        frozenset({"answer"}),
    ),
    Unscorable.NO_CONTEXT: Explanation(
        "no context",
        "no retrieved documents were found: no retriever span, no document attribute, none pasted in the "
        "prompt",
        "trace the retrieval step (a retriever span), or paste documents under a 'Context:' line, numbered "
        "or delimited",
        frozenset({"context"}),
    ),
    Unscorable.CONTEXT_UNAVAILABLE: Explanation(
        "context unavailable",
        "documents were recorded by id and score only, and their text is nowhere in the trace",
        "record document content on the retrieval span (content capture), or paste the documents in the "
        "prompt",
        frozenset({"context"}),
    ),
    Unscorable.UNPARSEABLE: Explanation(
        "unparseable",
        "the recorded question, answer or documents are serialized objects (JSON, Python reprs, a whole "
        "prompt) that could not be turned into text",
        "record plain text (format documents as text before pasting them into a prompt), add an assembly "
        "mapping for the service, or report the instrumentation and its version to ragpulse",
        _EVERYTHING,
    ),
    Unscorable.CONTEXT_NOT_SEPARABLE: Explanation(
        "context not separable",
        "the prompt refers to documents, but they cannot be told apart from its instructions (or two "
        "readings of it disagree, or where a document ends cannot be told, or a document would keep part of "
        "its markup)",
        "add an assembly mapping for the service that says where its documents are; or paste them in a "
        "container ragpulse reads: under a 'Context:' line, numbered, delimited or in <document> tags",
        frozenset({"context"}),
    ),
    Unscorable.READINGS_DISAGREE: Explanation(
        "readings disagree",
        "the template learnt from the service's own prompts and the structure rules read different documents"
        " (or questions) in this prompt; the request's detail gives both readings",
        "check the learnt template with `ragpulse assembly templates --service NAME`; if it reads the "
        'documents right, pin it as the service\'s mapping (template = "VERSION" in [[assembly.mappings]]),'
        " else add a mapping that says where the documents are",
        frozenset({"context"}),
    ),
    Unscorable.CONTENT_UPLOADED: Explanation(
        "content uploaded elsewhere",
        "the instrumentation's completion hook uploaded the prompt and answer to external storage and left "
        "only references on the span (gen_ai.input.messages_ref, gen_ai.output.messages_ref)",
        "keep content in the span beside the upload: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT="
        "SPAN_ONLY (or SPAN_AND_EVENT); or unset OTEL_INSTRUMENTATION_GENAI_COMPLETION_HOOK",
        _EVERYTHING,
    ),
    Unscorable.MAPPING_FOUND_NOTHING: Explanation(
        "mapping found nothing",
        "the service's [[assembly.mappings]] entry names a field (question, documents or answer) that it"
        " found nothing for in this trace",
        "check the mapping against stored traces with `ragpulse assembly preview --service NAME`, then"
        " `ragpulse assembly rerun --since 24h` assembles them again",
        _EVERYTHING,
    ),
    Unscorable.REQUEST_FAILED: Explanation(
        "request failed",
        "the request failed: its root span ended with an error status",
        "the exception and its stack are on the trace's root span; a request that failed is not judged",
        _EVERYTHING,
    ),
}


def explain(code: str) -> Explanation | None:
    """The explanation of a stored code; None for a scorable request or a code this version does not know."""
    try:
        return EXPLANATIONS.get(Unscorable(code))
    except ValueError:
        return None


def failure_text(failure: str) -> str:
    """What a failed request's reason says: its exception type, when the root span recorded one."""
    return f"the request failed: {failure}" if failure else "the request failed"


def skip_reason(code: str, requires: tuple[str, ...], failure: str = "") -> str | None:
    """Why a scorer requiring ``requires`` must not judge a request marked ``code``, or None when it may.

    ``failure`` is the exception type of a failed request (``ragpulse_requests.Failure``). A code this version
    does not know skips every scorer: never judge what cannot be explained.
    """
    if not code:
        return None
    if code == Unscorable.REQUEST_FAILED:
        return failure_text(failure)
    explanation = explain(code)
    if explanation is None:
        return f"not scorable ({code})"
    if explanation.missing and not explanation.missing & set(requires):
        return None
    return f"{explanation.label}: {explanation.text}"
