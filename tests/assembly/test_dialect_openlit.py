"""OpenLIT spans in the common model: GenAI keys under an ``openlit`` scope."""

from __future__ import annotations

import json

from dialect_spans import parts, raw, read
from ragpulse_assembly.model import Message, Role
from ragpulse_assembly.names import Kind, Source

SYSTEM = "Context:\nUploads from the browser are limited to 5 GB."


def test_the_system_message_recorded_twice_is_read_once() -> None:
    span = read(
        raw(
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.input.messages": parts(("system", SYSTEM), ("user", "How big can an upload be?")),
                "gen_ai.system_instructions": json.dumps([{"type": "text", "content": SYSTEM}]),
                "gen_ai.output.messages": parts(("assistant", "5 GB from the browser.")),
                "gen_ai.usage.total_tokens": "60",
                "gen_ai.usage.input_tokens": "50",
            },
            name="chat gpt-4o-mini",
            scope="openlit.instrumentation.openai",
        ),
        Source.OPENLIT,
    )

    assert span.kind is Kind.LLM
    assert span.messages == (Message(Role.SYSTEM, SYSTEM), Message(Role.USER, "How big can an upload be?"))
    assert (span.output_text, span.input_tokens) == ("5 GB from the browser.", 50)
