"""The service with no tracing code at all: run under ``opentelemetry-instrument`` (zero-code), which
loads every installed instrumentor (here opentelemetry-instrumentation-openai-v2) and the OTLP exporters
from ``OTEL_*`` variables."""

from __future__ import annotations

from openai import OpenAI
from service import answer, case_arguments, record

if __name__ == "__main__":
    args = case_arguments()
    reply, articles = answer(OpenAI(), args["question"], args["shape"], args.get("stream", False))
    record(args["question"], [a.text for a in articles], reply)
