"""Reading answer text and token usage out of what applications return (strings, dicts, SDK objects)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from opentelemetry.util.types import AttributeValue

from ragpulse import semconv

_ANSWER_FIELDS = ("answer", "text", "output", "content")


def answer_text(result: Any) -> str | None:
    """The answer in a return value: a string, a dict or object field, or an OpenAI-style message."""
    if isinstance(result, str):
        return result
    if result is None:
        return None
    if isinstance(result, Mapping):
        for key in _ANSWER_FIELDS:
            value = result.get(key)
            if isinstance(value, str):
                return value
        return None
    for key in _ANSWER_FIELDS:
        value = getattr(result, key, None)
        if isinstance(value, str):
            return value
    return _choice_text(result, "message")


def stream_item_text(item: Any) -> str | None:
    """The text of one streamed item: a string, an OpenAI-style delta, or an answer-like object."""
    if isinstance(item, str):
        return item
    text = _choice_text(item, "delta")
    return text if text is not None else answer_text(item)


def _choice_text(result: Any, field: str) -> str | None:
    choices = getattr(result, "choices", None)
    if not choices:
        return None
    try:
        content = getattr(getattr(choices[0], field, None), "content", None)
    except (TypeError, IndexError, KeyError):
        return None
    return content if isinstance(content, str) else None


def usage_attributes(result: Any) -> dict[str, AttributeValue]:
    """Token counts from an OpenAI-style ``usage`` (chat: prompt/completion, responses: input/output)."""
    usage = result.get("usage") if isinstance(result, Mapping) else getattr(result, "usage", None)
    if usage is None:
        return {}
    prompt = _count(usage, "prompt_tokens", "input_tokens")
    completion = _count(usage, "completion_tokens", "output_tokens")
    total = _count(usage, "total_tokens")
    attributes: dict[str, AttributeValue] = {}
    if prompt is not None:
        attributes[semconv.LLM_TOKEN_COUNT_PROMPT] = prompt
        attributes[semconv.GEN_AI_USAGE_INPUT_TOKENS] = prompt
    if completion is not None:
        attributes[semconv.LLM_TOKEN_COUNT_COMPLETION] = completion
        attributes[semconv.GEN_AI_USAGE_OUTPUT_TOKENS] = completion
    if total is None and prompt is not None and completion is not None:
        total = prompt + completion
    if total is not None:
        attributes[semconv.LLM_TOKEN_COUNT_TOTAL] = total
    return attributes


def response_model(result: Any) -> str | None:
    model = result.get("model") if isinstance(result, Mapping) else getattr(result, "model", None)
    return model if isinstance(model, str) else None


def _count(usage: Any, *names: str) -> int | None:
    for name in names:
        value = usage.get(name) if isinstance(usage, Mapping) else getattr(usage, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None
