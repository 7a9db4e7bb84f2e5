"""RAG-Fusion in LlamaIndex: query variations from an LLM, a vector retriever per query, reciprocal rank
fusion, and a response synthesizer.

The models are llama-index-core's mocks: ``MockLLM`` repeats its prompt, so the query writer's prompt holds
the canned variations and the answer prompt is the retrieved context itself (the answer is extractive, so
grounded by construction); ``MockEmbedding`` gives every text the same vector, so each retrieval returns
the index's first passages.

``instrumentation="ragpulse"`` runs the steps as decorated functions over the LlamaIndex pieces (retriever,
LLM, synthesizer); ``"openinference"`` runs the stock ``QueryFusionRetriever`` + ``RetrieverQueryEngine``
traced by ``openinference-instrumentation-llama-index`` for the duration of the call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import ragpulse
from llama_index.core import PromptTemplate, VectorStoreIndex
from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.base.response.schema import Response
from llama_index.core.embeddings import MockEmbedding
from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.response_synthesizers import BaseSynthesizer, get_response_synthesizer
from llama_index.core.retrievers import QueryFusionRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
from opentelemetry import trace

from ragpulse_example.frameworks.corpus import PASSAGES, Question, question_named
from ragpulse_example.frameworks.tracing import openinference_to, ragpulse_to

Instrumentation = Literal["ragpulse", "openinference"]
PIPELINE = "llamaindex-fusion"
TOP_K = 3
CONTEXT_SIZE = 4
EMBEDDING_SIZE = 16
MODEL_NAME = "MockLLM"
ANSWER_PROMPT = PromptTemplate("{context_str}")
"""``MockLLM`` repeats its prompt: with this one, the answer is the context it was given."""


def run(
    question: str,
    tracer_provider: trace.TracerProvider | None = None,
    *,
    instrumentation: Instrumentation = "ragpulse",
) -> str:
    """Answer ``question``; its spans go to ``tracer_provider`` (default: the global one)."""
    parts = build_parts(question_named(question))
    if instrumentation == "ragpulse":
        pipeline = decorated_pipeline(parts)
        with ragpulse_to(tracer_provider):
            return str(pipeline(question).response)
    engine = RetrieverQueryEngine.from_args(
        QueryFusionRetriever(
            [parts.retriever],
            llm=parts.llm,
            query_gen_prompt=parts.query_prompt,
            mode="reciprocal_rerank",  # type: ignore[arg-type]
            num_queries=1 + len(parts.question.variations),
            similarity_top_k=CONTEXT_SIZE,
            use_async=False,
        ),
        llm=parts.llm,
        text_qa_template=ANSWER_PROMPT,
    )
    from openinference.instrumentation.llama_index import LlamaIndexInstrumentor

    with openinference_to(LlamaIndexInstrumentor(), tracer_provider):
        return str(engine.query(question))


@dataclass(frozen=True)
class Parts:
    question: Question
    retriever: BaseRetriever
    llm: MockLLM
    synthesizer: BaseSynthesizer
    query_prompt: str
    """What the query writer is asked; ``MockLLM`` repeats it, so it holds the canned variations."""


def build_parts(question: Question) -> Parts:
    nodes = [
        TextNode(text=text, id_=key, metadata={"source": key}, excluded_llm_metadata_keys=["source"])
        for key, text in PASSAGES.items()
    ]
    index = VectorStoreIndex(nodes, embed_model=MockEmbedding(embed_dim=EMBEDDING_SIZE))
    llm = MockLLM()
    return Parts(
        question=question,
        retriever=index.as_retriever(similarity_top_k=TOP_K),
        llm=llm,
        synthesizer=get_response_synthesizer(llm=llm, text_qa_template=ANSWER_PROMPT),
        query_prompt="\n".join(question.variations),
    )


def decorated_pipeline(parts: Parts) -> Callable[[str], Response]:
    """The RAG-Fusion request as ragpulse-decorated steps over the LlamaIndex pieces."""

    @ragpulse.variations
    def make_variations(question: str) -> list[str]:
        completion = parts.llm.complete(parts.query_prompt)
        return [line.strip() for line in completion.text.splitlines() if line.strip()]

    search = ragpulse.retrieve(capture_text=True)(parts.retriever.retrieve)

    @ragpulse.fuse(k=60)
    def fuse(rankings: list[list[NodeWithScore]]) -> list[Any]:
        return [fused.chunk for fused in ragpulse.rrf(rankings, k=60, top_n=CONTEXT_SIZE)]

    synthesize = ragpulse.generate(model=MODEL_NAME)(parts.synthesizer.synthesize)

    @ragpulse.rag(pipeline=PIPELINE)
    def answer(question: str) -> Response:
        queries = [question, *make_variations(question)]
        rankings = [search(QueryBundle(query)) for query in queries]
        response = synthesize(QueryBundle(question), fuse(rankings))
        if not isinstance(response, Response):
            raise TypeError(f"expected a Response, the synthesizer returned {type(response).__name__}")
        return response

    return answer
