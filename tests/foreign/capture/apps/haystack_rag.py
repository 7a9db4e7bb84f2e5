"""Haystack's RAG tutorial pipeline over the help-centre articles: InMemoryBM25Retriever -> ChatPromptBuilder
(the documents in the system message under "Context:") -> OpenAIChatGenerator. ``tracer`` picks the tracing:
``openinference`` (OpenInference's Haystack instrumentor) or ``native`` (Haystack's own OpenTelemetry tracer,
content per HAYSTACK_CONTENT_TRACING_ENABLED). ``include_outputs`` runs with
include_outputs_from={"retriever"}; ``stream`` gives the generator a streaming callback."""

from __future__ import annotations

import os
from typing import Any

from haystack import Document, Pipeline, tracing
from haystack.components.builders import ChatPromptBuilder
from haystack.components.generators.chat import OpenAIChatGenerator
from haystack.components.retrievers.in_memory import InMemoryBM25Retriever
from haystack.dataclasses import ChatMessage, StreamingChunk
from haystack.document_stores.in_memory import InMemoryDocumentStore
from otel import traced
from service import ARTICLES, INSTRUCTIONS, MODEL, case_arguments, record

TEMPLATE = [
    ChatMessage.from_system(
        INSTRUCTIONS + "\n\nContext:\n{% for document in documents %}{{ document.content }}\n\n{% endfor %}"
    ),
    ChatMessage.from_user("{{ question }}"),
]


def pipeline(store: InMemoryDocumentStore, stream: bool) -> Pipeline:
    chunks: list[StreamingChunk] = []
    rag = Pipeline()
    rag.add_component("retriever", InMemoryBM25Retriever(document_store=store, top_k=3))
    rag.add_component(
        "prompt_builder", ChatPromptBuilder(template=TEMPLATE, required_variables=["question", "documents"])
    )
    rag.add_component(
        "llm",
        OpenAIChatGenerator(
            model=MODEL,
            api_base_url=os.environ["OPENAI_BASE_URL"],
            streaming_callback=chunks.append if stream else None,
        ),
    )
    rag.connect("retriever.documents", "prompt_builder.documents")
    rag.connect("prompt_builder.prompt", "llm.messages")
    return rag


def main() -> None:
    args = case_arguments()
    question = args["question"]
    with traced("helpdesk") as provider:
        if args["tracer"] == "native":
            from haystack_integrations.tracing.opentelemetry import OpenTelemetryTracer

            tracing.enable_tracing(OpenTelemetryTracer(provider.get_tracer("helpdesk")))
        else:
            from openinference.instrumentation.haystack import HaystackInstrumentor

            HaystackInstrumentor().instrument(tracer_provider=provider)
        store = InMemoryDocumentStore()
        store.write_documents([Document(id=a.id, content=a.text, meta={"title": a.title}) for a in ARTICLES])
        inputs: dict[str, Any] = {"retriever": {"query": question}, "prompt_builder": {"question": question}}
        if args.get("include_outputs"):
            result = pipeline(store, args.get("stream", False)).run(
                inputs, include_outputs_from={"retriever"}
            )
            documents = result["retriever"]["documents"]
        else:
            result = pipeline(store, args.get("stream", False)).run(inputs)
            # The same BM25 query the retriever ran, straight on the store (which no tracer wraps).
            documents = store.bm25_retrieval(query=question, top_k=3)
    record(question, [d.content for d in documents], result["llm"]["replies"][0].text)


if __name__ == "__main__":
    main()
