"""The service instrumented by hand with opentelemetry-util-genai's TelemetryHandler, as its README shows: a
workflow span around the request (question and answer as GenAI messages) and a retrieval span for the search,
with the model call traced by opentelemetry-instrumentation-openai-v2 (or, with ``trace_llm`` false, not
traced). ``documents`` = ``content`` records id, score and text; ``ids`` only id and score (the spec's
minimum)."""

from __future__ import annotations

from openai import OpenAI
from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor
from opentelemetry.util.genai.handler import get_telemetry_handler
from opentelemetry.util.genai.types import InputMessage, OutputMessage, Text
from otel import traced
from service import ask, case_arguments, messages_for, record, search


def main() -> None:
    args = case_arguments()
    question = args["question"]
    with traced("helpdesk", logs=True, metrics=True):
        if args.get("trace_llm", True):
            OpenAIInstrumentor().instrument()
        handler = get_telemetry_handler()
        client = OpenAI()
        with handler.workflow("helpdesk-rag") as workflow:
            workflow.input_messages = [InputMessage(role="user", parts=[Text(content=question)])]
            with handler.retrieval(data_source_id="help-centre") as retrieval:
                retrieval.query_text = question
                retrieval.top_k = 3
                hits = search(question, k=3)
                retrieval.documents = [
                    {"id": article.id, "score": score}
                    | ({"content": article.text} if args["documents"] == "content" else {})
                    for article, score in hits
                ]
            articles = [article for article, _ in hits]
            reply = ask(client, messages_for(args["shape"], question, articles))
            workflow.output_messages = [
                OutputMessage(role="assistant", parts=[Text(content=reply)], finish_reason="stop")
            ]
    record(question, [a.text for a in articles], reply)


if __name__ == "__main__":
    main()
