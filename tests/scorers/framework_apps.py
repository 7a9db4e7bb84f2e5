"""Two small RAG-Fusion apps written the way each framework's cookbook writes them, with the fake LLMs and
embeddings the frameworks ship, so they run offline. Neither knows about ragpulse: the tests trace them with
OpenInference's instrumentors only."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from operator import itemgetter
from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.language_models import FakeListLLM
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable, RunnableLambda
from langchain_core.vectorstores import InMemoryVectorStore
from llama_index.core import Document as LlamaDocument
from llama_index.core import VectorStoreIndex
from llama_index.core.base.llms.types import CompletionResponse
from llama_index.core.embeddings import MockEmbedding
from llama_index.core.llms import MockLLM
from llama_index.core.llms.callbacks import llm_completion_callback
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.retrievers import QueryFusionRetriever

PASSAGES = [
    "The Eiffel Tower is 330 metres tall and stands on the Champ de Mars in Paris.",
    "Gustave Eiffel's company designed and built the tower for the 1889 World's Fair.",
    "The tower was the tallest man-made structure in the world until 1930.",
    "Paris is the capital of France and its largest city.",
    "The Louvre is the world's most visited art museum.",
    "The Seine flows through Paris before reaching the English Channel.",
    "Montmartre is a hill in the north of Paris known for its artists.",
    "The Arc de Triomphe honours those who fought for France.",
]
QUESTION = "How tall is the Eiffel Tower?"
QUERIES = ["Eiffel Tower height in metres", "tallest structure in Paris", "Eiffel Tower construction"]


@dataclass
class LangChainFusion:
    """Query-writing chain | retriever.map() | reciprocal rank fusion, then prompt | chat model."""

    answer: str
    usage: tuple[int, int] = (57, 9)
    """Input and output tokens the chat model reports (``AIMessage.usage_metadata``)."""
    top_n: int = 3
    fused: list[list[str]] = field(default_factory=list)
    """The texts handed to the prompt, per invocation: the context the model saw."""

    def chain(self) -> Runnable[dict[str, str], str]:
        store = InMemoryVectorStore.from_texts(PASSAGES, DeterministicFakeEmbedding(size=32))
        retriever = store.as_retriever(search_kwargs={"k": 3})
        write_queries = (
            ChatPromptTemplate.from_template("Write search queries, one per line, for: {question}")
            | FakeListLLM(responses=["\n".join(QUERIES)])
            | StrOutputParser()
            | RunnableLambda(lambda text: [line for line in text.split("\n") if line.strip()])
        )
        retrieval = write_queries | retriever.map() | RunnableLambda(self.reciprocal_rank_fusion)
        prompt = ChatPromptTemplate.from_template(
            "Answer from the context only.\n\nContext:\n{context}\n\nQuestion: {question}"
        )
        return (
            {"context": retrieval | RunnableLambda(format_docs), "question": itemgetter("question")}
            | prompt
            | GenericFakeChatModel(messages=repeat(self.reply()))
            | StrOutputParser()
        )

    def reply(self) -> AIMessage:
        tokens_in, tokens_out = self.usage
        usage = {
            "input_tokens": tokens_in,
            "output_tokens": tokens_out,
            "total_tokens": tokens_in + tokens_out,
        }
        return AIMessage(content=self.answer, usage_metadata=usage)

    def reciprocal_rank_fusion(self, rankings: list[list[Document]], k: int = 60) -> list[Document]:
        scores: dict[str, float] = {}
        documents: dict[str, Document] = {}
        for ranking in rankings:
            for rank, document in enumerate(ranking):
                documents[document.page_content] = document
                scores[document.page_content] = scores.get(document.page_content, 0.0) + 1 / (rank + k)
        ordered = sorted(scores, key=lambda text: scores[text], reverse=True)[: self.top_n]
        self.fused.append(ordered)
        return [documents[text] for text in ordered]


def format_docs(documents: list[Document]) -> str:
    return "\n\n".join(document.page_content for document in documents)


class CannedLLM(MockLLM):
    """LlamaIndex's MockLLM answering with a fixed text instead of echoing the prompt."""

    reply: str = ""

    def __init__(self, reply: str) -> None:
        super().__init__()
        self.reply = reply

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return CompletionResponse(text=self.reply)


def llama_index_fusion(answer: str, top_k: int = 3) -> RetrieverQueryEngine:
    """QueryFusionRetriever (reciprocal rerank of the question and three written queries), a query engine."""
    embed = MockEmbedding(embed_dim=8)
    index = VectorStoreIndex.from_documents(
        [LlamaDocument(text=text) for text in PASSAGES], embed_model=embed
    )
    retriever = QueryFusionRetriever(
        [index.as_retriever(similarity_top_k=2)],
        llm=CannedLLM(reply="\n".join(QUERIES)),
        similarity_top_k=top_k,
        num_queries=len(QUERIES) + 1,
        mode="reciprocal_rerank",  # type: ignore[arg-type]
        use_async=False,
    )
    return RetrieverQueryEngine.from_args(retriever, llm=CannedLLM(reply=answer))
