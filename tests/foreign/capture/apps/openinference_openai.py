"""The service traced by OpenInference's openai instrumentor (Arize Phoenix's quickstart). With
``manual_spans`` the service also opens its own CHAIN and RETRIEVER spans with OpenInference's tracer helpers,
as its manual-instrumentation guide shows; without, the ChatCompletion span is the whole trace."""

from __future__ import annotations

from openai import OpenAI
from openinference.instrumentation import TracerProvider
from openinference.instrumentation.openai import OpenAIInstrumentor
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from service import Article, ask, case_arguments, messages_for, record, search


def main() -> None:
    args = case_arguments()
    provider = TracerProvider(resource=Resource.create({"service.name": "helpdesk"}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    OpenAIInstrumentor().instrument(tracer_provider=provider)
    tracer = provider.get_tracer("helpdesk")
    client = OpenAI()
    question, shape, stream = args["question"], args["shape"], args.get("stream", False)

    def retrieve(query: str) -> list[Article]:
        with tracer.start_as_current_span("search", openinference_span_kind="retriever") as span:
            span.set_input(query)
            hits = search(query)
            for i, (article, score) in enumerate(hits):
                span.set_attribute(f"retrieval.documents.{i}.document.id", article.id)
                span.set_attribute(f"retrieval.documents.{i}.document.score", score)
                span.set_attribute(f"retrieval.documents.{i}.document.content", article.text)
            return [article for article, _ in hits]

    def generate(query: str, articles: list[Article]) -> str:
        used.extend(a.text for a in articles)
        return ask(client, messages_for(shape, query, articles), stream)

    @tracer.chain(name="rag")
    def rag(query: str) -> str:
        return generate(query, retrieve(query))

    used: list[str] = []
    if args.get("manual_spans"):
        reply = rag(question)
    else:
        reply = generate(question, [article for article, _ in search(question)])
    record(question, used, reply)
    provider.shutdown()


if __name__ == "__main__":
    main()
