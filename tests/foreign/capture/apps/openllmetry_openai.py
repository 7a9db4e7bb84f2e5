"""The service under OpenLLMetry, as traceloop's quickstart writes it: ``Traceloop.init`` (which instruments
the openai client) and ``@workflow`` / ``@task`` decorators on the service's steps. With ``decorators``
false, only opentelemetry-instrumentation-openai on a plain SDK setup, no traceloop-sdk. ``rewrite`` first
asks the model for a search query (a second LLM call in the trace); ``events`` passes
``use_attributes=False``, which sends prompts and completions as log events instead of span attributes."""

from __future__ import annotations

import os
from typing import Any

from openai import OpenAI
from service import REWRITE, Article, ask, case_arguments, messages_for, record, search


def with_decorators(args: dict[str, Any]) -> tuple[str, list[str]]:
    from opentelemetry.sdk.resources import Resource
    from otel import export_logs
    from traceloop.sdk import Traceloop
    from traceloop.sdk.decorators import task, workflow

    # Traceloop's events path needs the application's own global logger provider.
    logs = export_logs(Resource.create({"service.name": "helpdesk"})) if args.get("events") else None
    Traceloop.init(
        app_name="helpdesk",
        api_endpoint=os.environ["OTEL_EXPORTER_OTLP_ENDPOINT"],
        disable_batch=True,
        telemetry_enabled=False,
        **({"use_attributes": False} if args.get("events") else {}),
    )
    client = OpenAI()

    @task(name="rewrite_query")
    def rewrite_query(question: str) -> str:
        messages = [{"role": "system", "content": REWRITE}, {"role": "user", "content": question}]
        return ask(client, messages)

    @task(name="retrieve")
    def retrieve(question: str) -> list[dict[str, Any]]:
        return [{"id": a.id, "text": a.text, "score": score} for a, score in search(question)]

    @task(name="generate")
    def generate(question: str, documents: list[dict[str, Any]]) -> str:
        articles = [Article(d["id"], "", d["text"]) for d in documents]
        return ask(client, messages_for(args["shape"], question, articles), args.get("stream", False))

    used: list[str] = []

    @workflow(name="rag")
    def rag(question: str) -> str:
        documents = retrieve(rewrite_query(question) if args.get("rewrite") else question)
        used.extend(d["text"] for d in documents)
        return generate(question, documents)

    reply = rag(args["question"])
    if logs is not None:
        logs.shutdown()
    return reply, used


def instrumentor_only(args: dict[str, Any]) -> tuple[str, list[str]]:
    from opentelemetry.instrumentation.openai import OpenAIInstrumentor
    from otel import traced

    with traced("helpdesk"):
        OpenAIInstrumentor().instrument()
        articles = [article for article, _ in search(args["question"])]
        messages = messages_for(args["shape"], args["question"], articles)
        return ask(OpenAI(), messages, args.get("stream", False)), [a.text for a in articles]


if __name__ == "__main__":
    arguments = case_arguments()
    reply, context = (with_decorators if arguments.get("decorators", True) else instrumentor_only)(arguments)
    record(arguments["question"], context, reply)
