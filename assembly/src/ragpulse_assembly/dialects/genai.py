"""The OpenTelemetry GenAI semantic conventions (opentelemetry-instrumentation-openai-v2,
opentelemetry-util-genai, hand-written spans): ``gen_ai.operation.name``; prompts and answers in
``gen_ai.system_instructions``/``gen_ai.input.messages``/``gen_ai.output.messages`` (JSON of messages with
``parts``) or in GenAI events joined from ``otel_logs`` (legacy ``gen_ai.user.message``... ``gen_ai.choice``,
current ``gen_ai.client.inference.operation.details``, older span events ``gen_ai.content.prompt``);
retrieval spans with ``gen_ai.retrieval.query.text`` and ``gen_ai.retrieval.documents`` (id and score, text
only with content capture).

The message and event readers are public: OpenLLMetry and OpenLIT write the same keys and events.
"""

from __future__ import annotations

from typing import Any, Final

from ragpulse_assembly.dialects.base import Marker, common, count, documents_of, first
from ragpulse_assembly.model import LogEvent, Message, Role, Span, TraceSpan, Unread
from ragpulse_assembly.names import ContextSource, Kind, Source
from ragpulse_assembly.unwrap import content_text, message_of, messages_of, parse_json

OPERATION_NAME: Final = "gen_ai.operation.name"
SYSTEM: Final = "gen_ai.system"
PROVIDER_NAME: Final = "gen_ai.provider.name"
REQUEST_MODEL: Final = "gen_ai.request.model"
RESPONSE_MODEL: Final = "gen_ai.response.model"
USAGE_INPUT_TOKENS: Final = "gen_ai.usage.input_tokens"
USAGE_OUTPUT_TOKENS: Final = "gen_ai.usage.output_tokens"
USAGE_PROMPT_TOKENS: Final = "gen_ai.usage.prompt_tokens"
USAGE_COMPLETION_TOKENS: Final = "gen_ai.usage.completion_tokens"
INPUT_MESSAGES: Final = "gen_ai.input.messages"
OUTPUT_MESSAGES: Final = "gen_ai.output.messages"
SYSTEM_INSTRUCTIONS: Final = "gen_ai.system_instructions"
RETRIEVAL_DOCUMENTS: Final = "gen_ai.retrieval.documents"
RETRIEVAL_QUERY_TEXT: Final = "gen_ai.retrieval.query.text"
CONVERSATION_ID: Final = "gen_ai.conversation.id"
INPUT_MESSAGES_REF: Final = INPUT_MESSAGES + "_ref"
OUTPUT_MESSAGES_REF: Final = OUTPUT_MESSAGES + "_ref"
SYSTEM_INSTRUCTIONS_REF: Final = SYSTEM_INSTRUCTIONS + "_ref"
REFERENCES: Final = (INPUT_MESSAGES_REF, OUTPUT_MESSAGES_REF, SYSTEM_INSTRUCTIONS_REF)
"""Where opentelemetry-util-genai's upload completion hook says it put the content it took off the span."""
PROMPT: Final = "gen_ai.prompt"
COMPLETION: Final = "gen_ai.completion"
EVENT_NAME: Final = "event.name"
"""Where SDKs older than ``LogRecord.event_name`` put an event's name."""

SYSTEM_MESSAGE_EVENT: Final = "gen_ai.system.message"
USER_MESSAGE_EVENT: Final = "gen_ai.user.message"
ASSISTANT_MESSAGE_EVENT: Final = "gen_ai.assistant.message"
TOOL_MESSAGE_EVENT: Final = "gen_ai.tool.message"
CHOICE_EVENT: Final = "gen_ai.choice"
DETAILS_EVENT: Final = "gen_ai.client.inference.operation.details"
PROMPT_SPAN_EVENT: Final = "gen_ai.content.prompt"
COMPLETION_SPAN_EVENT: Final = "gen_ai.content.completion"
_MESSAGE_EVENTS: Final = {
    SYSTEM_MESSAGE_EVENT: Role.SYSTEM,
    USER_MESSAGE_EVENT: Role.USER,
    ASSISTANT_MESSAGE_EVENT: Role.ASSISTANT,
    TOOL_MESSAGE_EVENT: Role.TOOL,
}
EVENT_NAMES: Final = (*_MESSAGE_EVENTS, CHOICE_EVENT, DETAILS_EVENT, PROMPT_SPAN_EVENT, COMPLETION_SPAN_EVENT)
EVENT_KEYS: Final = (INPUT_MESSAGES, OUTPUT_MESSAGES, SYSTEM_INSTRUCTIONS, PROMPT, COMPLETION, *REFERENCES)
"""Event attributes that carry content (the current details event, older span events)."""

KINDS: Final = {
    "chat": Kind.LLM,
    "text_completion": Kind.LLM,
    "generate_content": Kind.LLM,
    "retrieval": Kind.RETRIEVER,
    "embeddings": Kind.EMBEDDING,
    "invoke_agent": Kind.AGENT,
    "create_agent": Kind.AGENT,
    "invoke_workflow": Kind.CHAIN,
    "execute_tool": Kind.TOOL,
}
_GENERATING: Final = ("chat", "text_completion", "generate_content", "retrieval")


class GenAI:
    source = Source.GENAI
    keys = frozenset(
        {
            OPERATION_NAME, SYSTEM, PROVIDER_NAME, REQUEST_MODEL, RESPONSE_MODEL, USAGE_INPUT_TOKENS,
            USAGE_OUTPUT_TOKENS, USAGE_PROMPT_TOKENS, USAGE_COMPLETION_TOKENS, INPUT_MESSAGES,
            OUTPUT_MESSAGES, SYSTEM_INSTRUCTIONS, RETRIEVAL_DOCUMENTS, RETRIEVAL_QUERY_TEXT, CONVERSATION_ID,
            *REFERENCES,
        }
    )  # fmt: skip
    prefixes: tuple[str, ...] = ()
    markers = (
        Marker(OPERATION_NAME, _GENERATING), Marker(INPUT_MESSAGES), Marker(OUTPUT_MESSAGES),
        Marker(REQUEST_MODEL),
    )  # fmt: skip
    """``gen_ai.request.model`` finds spans of conventions older than ``gen_ai.operation.name``."""
    scopes = ("opentelemetry.instrumentation.openai_v2", "opentelemetry.util.genai")

    def claims(self, span: TraceSpan) -> bool:
        return (
            any(key in span.attributes for key in (OPERATION_NAME, INPUT_MESSAGES, OUTPUT_MESSAGES))
            or any(event.name in EVENT_NAMES for event in span.events)
            or span.scope_name.startswith(self.scopes)
        )

    def normalise(self, span: TraceSpan) -> Span:
        return read(span, self.source, kind_of(span))


def kind_of(span: TraceSpan) -> Kind:
    operation = span.get(OPERATION_NAME)
    if operation in KINDS:
        return KINDS[operation]
    if any(key in span.attributes for key in (INPUT_MESSAGES, OUTPUT_MESSAGES)) or any(
        event.name in EVENT_NAMES for event in span.events
    ):
        return Kind.LLM
    return Kind.OTHER


def read(span: TraceSpan, source: Source, kind: Kind) -> Span:
    """A span in the GenAI conventions' names, of ``kind`` (the caller's family may say it otherwise)."""
    fields: dict[str, Any] = {
        "model": first(span, RESPONSE_MODEL, REQUEST_MODEL),
        "input_tokens": count(first(span, USAGE_INPUT_TOKENS, USAGE_PROMPT_TOKENS)),
        "output_tokens": count(first(span, USAGE_OUTPUT_TOKENS, USAGE_COMPLETION_TOKENS)),
        "session_id": span.get(CONVERSATION_ID),
    }
    unread: set[Unread] = set()
    if kind is Kind.RETRIEVER:
        found = documents_of(parse_json(span.get(RETRIEVAL_DOCUMENTS)))
        if found is None and span.get(RETRIEVAL_DOCUMENTS).strip() not in ("", "[]"):
            unread.add(Unread.DOCUMENTS)
        fields |= {
            "input_text": span.get(RETRIEVAL_QUERY_TEXT),
            "documents": tuple(found or ()),
            "document_origin": ContextSource.RETRIEVER,
        }
        return common(span, source, kind, unread=frozenset(unread), **fields)
    messages = prompt_messages(span)
    output = generated_text(span)
    if messages is None:
        unread.add(Unread.MESSAGES)
    if output is None:
        unread.add(Unread.OUTPUT)
    if not messages and not output and _uploaded(span):
        unread.add(Unread.UPLOADED)
    if kind is Kind.LLM:
        fields |= {"messages": tuple(messages or ()), "output_text": output or ""}
    else:
        asked = [message.text for message in messages or () if message.role is Role.USER]
        fields |= {"input_text": asked[-1] if asked else "", "output_text": output or ""}
    return common(span, source, kind, unread=frozenset(unread), **fields)


def _uploaded(span: TraceSpan) -> bool:
    """The span (or its details event) holds only references to content uploaded elsewhere."""
    holders = [span.attributes, *(event.attributes for event in span.events if event.name == DETAILS_EVENT)]
    return any(holder.get(key, "").strip() for holder in holders for key in REFERENCES)


def prompt_messages(span: TraceSpan) -> list[Message] | None:
    """The prompt: system instructions and input messages from the span, else from its events; None when
    content was recorded that cannot be read."""
    recorded = _prompt_from(span.get(SYSTEM_INSTRUCTIONS), span.get(INPUT_MESSAGES))
    if recorded:
        return recorded
    for event in _content_events(span):
        if event.name == DETAILS_EVENT:
            found = _prompt_from(event.attributes.get(SYSTEM_INSTRUCTIONS, ""),
                                 event.attributes.get(INPUT_MESSAGES, ""))  # fmt: skip
            if found:
                return found
        if event.name == PROMPT_SPAN_EVENT:
            found = messages_of(parse_json(event.attributes.get(PROMPT, "")))
            if found:
                return found
    legacy = [message for event in span.events if (message := _event_message(event)) is not None]
    if legacy:
        return legacy
    return None if recorded is None else []


def _prompt_from(instructions: str, inputs: str) -> list[Message] | None:
    """Messages of ``gen_ai.input.messages``, after ``gen_ai.system_instructions`` unless the messages
    already hold those instructions as a system message (OpenLIT records them in both)."""
    if not instructions.strip() and not inputs.strip():
        return []
    parsed_inputs = parse_json(inputs)
    messages = messages_of(parsed_inputs)
    if inputs.strip() and not messages and parsed_inputs != []:
        return None
    system = _instructions(instructions)
    if system is None:
        return None
    if system and not any(m.role is Role.SYSTEM and m.text == system for m in messages):
        messages.insert(0, Message(Role.SYSTEM, system))
    return messages


def _instructions(value: str) -> str | None:
    """``gen_ai.system_instructions``: a JSON list of parts, or plain text."""
    if not value.strip():
        return ""
    parsed = parse_json(value)
    if parsed is None:
        return value
    if isinstance(parsed, str):
        return parsed
    text = content_text(parsed)
    if text is None and isinstance(parsed, list):
        found = messages_of(parsed)
        text = "\n".join(m.text for m in found) if found else None
    return text


def generated_text(span: TraceSpan) -> str | None:
    """The answer: assistant output messages from the span, else from its events; None when content was
    recorded that cannot be read."""
    recorded = _assistant_text(span.get(OUTPUT_MESSAGES))
    if recorded:
        return recorded
    for event in _content_events(span):
        key = OUTPUT_MESSAGES if event.name == DETAILS_EVENT else COMPLETION
        if event.name in (DETAILS_EVENT, COMPLETION_SPAN_EVENT):
            found = _assistant_text(event.attributes.get(key, ""))
            if found:
                return found
    choices = [_choice_text(event) for event in span.events if event.name == CHOICE_EVENT]
    texts = [text for text in choices if text]
    if texts:
        return "\n".join(texts)
    return None if recorded is None else ""


def _assistant_text(value: str) -> str | None:
    if not value.strip():
        return ""
    messages = messages_of(parse_json(value))
    texts = [m.text for m in messages if m.role in (Role.ASSISTANT, Role.OTHER) and m.text]
    if texts:
        return "\n".join(texts)
    return "" if messages or parse_json(value) == [] else None


def _content_events(span: TraceSpan) -> list[LogEvent]:
    return [e for e in span.events if e.name in (DETAILS_EVENT, PROMPT_SPAN_EVENT, COMPLETION_SPAN_EVENT)]


def _event_message(event: LogEvent) -> Message | None:
    """A legacy message event: the role is in its name, the text in its body ``{"content": ...}``."""
    spoken = _MESSAGE_EVENTS.get(event.name)
    if spoken is None:
        return None
    body = parse_json(event.body)
    if isinstance(body, dict):
        text = content_text(body.get("content"))
        return Message(spoken, text) if text else None
    return Message(spoken, event.body) if event.body.strip() and body is None else None


def _choice_text(event: LogEvent) -> str:
    body = parse_json(event.body)
    if not isinstance(body, dict):
        return ""
    message = body.get("message")
    if isinstance(message, dict):
        found = message_of({"role": "assistant", **message})
        return found.text if found is not None else ""
    return ""
