"""DSPy's RAG tutorial module over the help-centre articles: the module's own search function for the
context, then ``dspy.Predict('context, question -> answer')`` (``module`` = predict) or
``dspy.ChainOfThought('context, question -> response')`` (``module`` = cot), ChatAdapter prompts through
LiteLLM to the OpenAI-compatible endpoint; traced by OpenInference's DSPy instrumentor."""

from __future__ import annotations

import os

import dspy
from openinference.instrumentation.dspy import DSPyInstrumentor
from otel import traced
from service import MODEL, case_arguments, record, search


def search_texts(query: str, k: int = 3) -> list[str]:
    return [article.text for article, _ in search(query, k)]


class RAG(dspy.Module):  # type: ignore[misc]
    def __init__(self, module: str) -> None:
        super().__init__()
        if module == "cot":
            self.respond = dspy.ChainOfThought("context, question -> response")
        else:
            self.respond = dspy.Predict("context, question -> answer")

    def forward(self, question: str) -> dspy.Prediction:
        context = search_texts(question)
        return self.respond(context=context, question=question)


def main() -> None:
    args = case_arguments()
    with traced("helpdesk") as provider:
        DSPyInstrumentor().instrument(tracer_provider=provider)
        lm = dspy.LM(f"openai/{MODEL}", api_base=os.environ["OPENAI_BASE_URL"], cache=False)
        dspy.configure(lm=lm)
        prediction = RAG(args["module"])(question=args["question"])
    reply = prediction.response if args["module"] == "cot" else prediction.answer
    record(args["question"], search_texts(args["question"]), reply)


if __name__ == "__main__":
    main()
