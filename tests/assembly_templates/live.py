"""The templates sent through the real instrumentations: the ``openai`` client calls a loopback server that
answers with a chosen reply, under opentelemetry-instrumentation-openai-v2 (current GenAI conventions, content
on the span), openinference-instrumentation-openai or OpenLLMetry's opentelemetry-instrumentation-openai, and
the finished spans become stored spans as the collector writes them (attribute values as strings, sequences
as JSON)."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse_assembly.model import TraceSpan
from templates import Messages
from traffic import START

Sender = Callable[[Messages, str], TraceSpan]


class _Reply:
    text = ""


def _handler(reply: _Reply) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            body = json.dumps({
                "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o-mini",
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": reply.text}}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            }).encode()  # fmt: skip
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            return

    return Handler


def _stored(span: ReadableSpan) -> TraceSpan:
    attributes = {
        key: value
        if isinstance(value, str)
        else json.dumps(list(value) if isinstance(value, Sequence) else value)
        for key, value in (span.attributes or {}).items()
    }
    scope = span.instrumentation_scope.name if span.instrumentation_scope else ""
    return TraceSpan(f"{span.context.span_id:016x}", "", span.name, "svc", scope, START, 1_000_000, "Ok",
                     attributes)  # fmt: skip


def _openai_messages(messages: Messages) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    for role, text in messages:
        if role == "tool_call":
            call = {"id": "call_1", "type": "function", "function": {"name": text, "arguments": "{}"}}
            sent.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif role == "tool":
            sent.append({"role": "tool", "tool_call_id": "call_1", "content": text})
        else:
            sent.append({"role": role, "content": text})
    return sent


@contextmanager
def instrumented(family: str) -> Iterator[Sender]:
    """A sender that makes one real chat call per request under ``family``'s instrumentation."""
    from openai import OpenAI

    reply = _Reply()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(reply))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    saved = {key: os.environ.get(key) for key in _SETTINGS}
    os.environ.update(_SETTINGS)
    instrumentor = _instrumentor(family)
    instrumentor.instrument(tracer_provider=provider)
    client = OpenAI(base_url=f"http://127.0.0.1:{server.server_address[1]}/v1", api_key="test", max_retries=0)

    def send(messages: Messages, answer: str) -> TraceSpan:
        reply.text = answer
        exporter.clear()
        client.chat.completions.create(model="gpt-4o-mini", messages=_openai_messages(messages))  # type: ignore[arg-type]
        (span,) = exporter.get_finished_spans()
        return _stored(span)

    try:
        yield send
    finally:
        instrumentor.uninstrument()
        server.shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


_SETTINGS = {
    "OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental",
    "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "SPAN_ONLY",
}


def _instrumentor(family: str) -> Any:
    if family == "openinference":
        from openinference.instrumentation.openai import OpenAIInstrumentor as OpenInference

        return OpenInference()
    if family == "openllmetry":
        from opentelemetry.instrumentation.openai import OpenAIInstrumentor as OpenLLMetry

        return OpenLLMetry()
    from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor as OpenAIv2

    return OpenAIv2()
