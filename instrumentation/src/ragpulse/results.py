"""Reading answer text, token usage and the model out of what applications return, by duck typing.

Strings, dicts (``answer``/``output``/``result``...), OpenAI responses, LangChain messages (``content``,
``usage_metadata``, ``response_metadata``), LlamaIndex ``Response`` (``response``), ``ChatResponse``
(``message``) and ``CompletionResponse`` (``text``; streamed, ``delta``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from opentelemetry.util.types import AttributeValue

from ragpulse import semconv

ANSWER_FIELDS: Final = ("answer", "text", "output", "content", "result", "response")
_MODEL_FIELDS: Final = ("model_name", "model")
_NESTING: Final = 2
"""How deep an answer is looked for in wrappers (``{"answer": AIMessage(...)}``, ``ChatResponse.message``)."""


def answer_text(result: Any, depth: int = _NESTING) -> str | None:
    """The answer in a return value: a string, a field of a dict or object (itself a string, a list of text
    blocks or a message), a ``message`` (LlamaIndex ``ChatResponse``) or an OpenAI-style choice."""
    if isinstance(result, str):
        return result
    if result is None:
        return None
    if isinstance(result, Mapping):
        for key in ANSWER_FIELDS:
            if key in result:
                text = _field_text(result[key], depth)
                if text is not None:
                    return text
        return None
    if isinstance(result, list | tuple):
        return None
    for key in ANSWER_FIELDS:
        text = _field_text(getattr(result, key, None), depth)
        if text is not None:
            return text
    message = getattr(result, "message", None)
    if message is not None and depth > 0:
        text = answer_text(message, depth - 1)
        if text is not None:
            return text
    return _choice_text(result, "message")


def _field_text(value: Any, depth: int) -> str | None:
    if isinstance(value, str):
        return value
    if value is None:
        return None
    if isinstance(value, list):
        return blocks_text(value)
    return answer_text(value, depth - 1) if depth > 0 else None


def blocks_text(blocks: list[Any]) -> str | None:
    """Content given as blocks (LangChain, Anthropic): the text blocks joined; None when there are none."""
    texts: list[str] = []
    for block in blocks:
        if isinstance(block, str):
            texts.append(block)
        elif isinstance(block, Mapping) and isinstance(block.get("text"), str):
            texts.append(block["text"])
    return "".join(texts) if texts else None


def stream_item_text(item: Any) -> str | None:
    """The new text of one streamed item: a string, an OpenAI-style delta, a LlamaIndex response's ``delta``
    (its ``text`` is the text so far, not the increment), or an answer-like object (a message chunk)."""
    if isinstance(item, str):
        return item
    text = _choice_text(item, "delta")
    if text is not None:
        return text
    if hasattr(item, "delta"):
        delta = item.delta
        return delta if isinstance(delta, str) else None
    return answer_text(item)


def _choice_text(result: Any, field: str) -> str | None:
    choices = getattr(result, "choices", None)
    if not choices:
        return None
    try:
        content = getattr(getattr(choices[0], field, None), "content", None)
    except (TypeError, IndexError, KeyError):
        return None
    return content if isinstance(content, str) else None


Counts = tuple[int | None, int | None, int | None]
"""Prompt, completion and total tokens, each None when not reported."""


def usage_attributes(result: Any) -> dict[str, AttributeValue]:
    """Token counts from an OpenAI-style ``usage`` (chat: prompt/completion, responses: input/output) or a
    LangChain message's ``usage_metadata``, on the result or on the message a dict result holds."""
    return _count_attributes(_usage_counts(result))


def stream_usage_attributes(items: list[Any]) -> dict[str, AttributeValue]:
    """Token counts of a stream, summed over the items that report some (LangChain chunks each report
    their share, OpenAI's last chunk reports the whole)."""
    sums: list[int | None] = [None, None, None]
    for item in items:
        for position, count in enumerate(_usage_counts(item)):
            if count is not None:
                sums[position] = count + (sums[position] or 0)
    return _count_attributes((sums[0], sums[1], sums[2]))


def _usage_counts(result: Any) -> Counts:
    usage = _usage(result)
    if usage is None and isinstance(result, Mapping):
        usage = next((_usage(result[key]) for key in ANSWER_FIELDS if key in result), None)
    if usage is None:
        return None, None, None
    prompt = _count(usage, "prompt_tokens", "input_tokens")
    completion = _count(usage, "completion_tokens", "output_tokens")
    return prompt, completion, _count(usage, "total_tokens")


def _count_attributes(counts: Counts) -> dict[str, AttributeValue]:
    prompt, completion, total = counts
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


def _usage(result: Any) -> Any:
    for name in ("usage", "usage_metadata"):
        usage = result.get(name) if isinstance(result, Mapping) else getattr(result, name, None)
        if usage is not None:
            return usage
    return None


def response_model(result: Any) -> str | None:
    """The model that answered: a ``model`` field, or a LangChain message's ``response_metadata``."""
    if isinstance(result, Mapping):
        model = result.get("model")
        if not isinstance(model, str):
            return next((response_model(result[key]) for key in ANSWER_FIELDS if key in result), None)
        return model
    model = getattr(result, "model", None)
    if isinstance(model, str):
        return model
    metadata = getattr(result, "response_metadata", None)
    if isinstance(metadata, Mapping):
        for name in _MODEL_FIELDS:
            value = metadata.get(name)
            if isinstance(value, str):
                return value
    return None


def _count(usage: Any, *names: str) -> int | None:
    for name in names:
        value = usage.get(name) if isinstance(usage, Mapping) else getattr(usage, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None
