"""RAG-Fusion in LangChain (LCEL), as the cookbook writes it: a query writer, the retriever mapped over the
queries, reciprocal rank fusion, then prompt | chat model.

The models are langchain-core's fakes: ``FakeListLLM`` writes the query variations and
``GenericFakeChatModel`` answers with a message that carries token usage and a model name, as a real chat
model's does; ``DeterministicFakeEmbedding`` and ``InMemoryVectorStore`` do the retrieval.

``instrumentation="ragpulse"`` decorates the steps; ``"openinference"`` leaves the chain undecorated and
traces it with ``openinference-instrumentation-langchain`` for the duration of the call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, cast

import ragpulse
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.language_models import FakeListLLM, GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate, PromptTemplate
from langchain_core.runnables import Runnable, RunnableLambda, RunnableParallel, RunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore
from opentelemetry import trace

from ragpulse_example.frameworks.corpus import CHAT_MODEL_NAME, PASSAGES, Question, question_named
from ragpulse_example.frameworks.tracing import openinference_to, ragpulse_to

Instrumentation = Literal["ragpulse", "openinference"]
PIPELINE = "langchain-fusion"
TOP_K = 3
CONTEXT_SIZE = 4
EMBEDDING_SIZE = 64

QUERY_PROMPT = PromptTemplate.from_template(
    "You write search queries. Write three search queries related to: {question}\nQueries:"
)
ANSWER_PROMPT = ChatPromptTemplate.from_template(
    "Answer the question from the context only.\n\nContext:\n{context}\n\nQuestion: {question}"
)


def run(
    question: str,
    tracer_provider: trace.TracerProvider | None = None,
    *,
    instrumentation: Instrumentation = "ragpulse",
) -> str:
    """Answer ``question`` with the RAG-Fusion chain; its spans go to ``tracer_provider`` (default: the
    global one)."""
    decorated = instrumentation == "ragpulse"
    chain = build_chain(question_named(question), decorated=decorated)
    if decorated:
        tracing = ragpulse_to(tracer_provider)
    else:
        from openinference.instrumentation.langchain import LangChainInstrumentor

        tracing = openinference_to(LangChainInstrumentor(), tracer_provider)
    with tracing:
        answer: str = chain.invoke({"question": question})
    return answer


def build_chain(question: Question, *, decorated: bool) -> Runnable[dict[str, str], str]:
    """The chain for one question (the fake models are given that question's canned replies)."""
    mark = _ragpulse_marks() if decorated else _no_marks()
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=EMBEDDING_SIZE))
    store.add_documents(
        [Document(page_content=text, id=key, metadata={"source": key}) for key, text in PASSAGES.items()]
    )
    retriever = mark["retrieve"](store.as_retriever(search_kwargs={"k": TOP_K}))
    query_writer = FakeListLLM(responses=["\n".join(question.variations)])
    make_variations = mark["variations"](QUERY_PROMPT | query_writer | StrOutputParser() | _lines)
    queries = RunnableParallel(question=_question, variations=make_variations) | _all_queries
    fused = queries | retriever.map() | RunnableLambda(mark["fuse"](reciprocal_rank_fusion))
    chat_model = GenericFakeChatModel(messages=iter([_reply(question)]))
    write_answer = mark["generate"](
        RunnablePassthrough.assign(context=lambda inputs: format_docs(inputs["context"]))
        | ANSWER_PROMPT
        | chat_model
    )
    chain: Runnable[dict[str, str], str] = mark["rag"](
        RunnableParallel(context=fused, question=_question) | write_answer | StrOutputParser()
    )
    return chain


def reciprocal_rank_fusion(rankings: list[list[Document]]) -> list[Document]:
    return [cast(Document, fused.chunk) for fused in ragpulse.rrf(rankings, k=60, top_n=CONTEXT_SIZE)]


def format_docs(documents: list[Document]) -> str:
    return "\n\n".join(document.page_content for document in documents)


def _question(inputs: dict[str, Any]) -> str:
    return str(inputs["question"])


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _all_queries(inputs: dict[str, Any]) -> list[str]:
    """The question first (query index 0), then its variations."""
    return [inputs["question"], *inputs["variations"]]


def _reply(question: Question) -> AIMessage:
    return AIMessage(
        content=question.answer,
        usage_metadata={
            "input_tokens": len(question.text.split()),
            "output_tokens": len(question.answer.split()),
            "total_tokens": len(question.text.split()) + len(question.answer.split()),
        },
        response_metadata={"model_name": CHAT_MODEL_NAME},
    )


def _ragpulse_marks() -> dict[str, Callable[[Any], Any]]:
    return {
        "rag": ragpulse.rag(pipeline=PIPELINE),
        "variations": ragpulse.variations,
        "retrieve": ragpulse.retrieve(capture_text=True),
        "fuse": ragpulse.fuse(k=60),
        "generate": ragpulse.generate,
    }


def _no_marks() -> dict[str, Callable[[Any], Any]]:
    return dict.fromkeys(("rag", "variations", "retrieve", "fuse", "generate"), _unchanged)


def _unchanged(target: Any) -> Any:
    return target
