"""LangChain's RAG tutorial chain under OpenLLMetry (``Traceloop.init`` instruments LangChain and openai): a
retriever over the help-centre articles (the service's keyword search as a ``BaseRetriever``), the documents
formatted into the system message under "Context:", ``ChatOpenAI`` and ``StrOutputParser``."""

from __future__ import annotations

import os

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnablePassthrough
from langchain_openai import ChatOpenAI
from service import INSTRUCTIONS, MODEL, case_arguments, record, search
from traceloop.sdk import Traceloop


class HelpCentreRetriever(BaseRetriever):
    k: int = 3

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        return [
            Document(
                page_content=article.text, metadata={"id": article.id, "title": article.title, "score": s}
            )
            for article, s in search(query, self.k)
        ]


def main() -> None:
    args = case_arguments()
    Traceloop.init(
        app_name="helpdesk",
        api_endpoint=os.environ["OTEL_EXPORTER_OTLP_ENDPOINT"],
        disable_batch=True,
        telemetry_enabled=False,
    )
    used: list[str] = []

    def format_docs(documents: list[Document]) -> str:
        used.extend(d.page_content for d in documents)
        return "\n\n".join(d.page_content for d in documents)

    prompt = ChatPromptTemplate.from_messages(
        [("system", INSTRUCTIONS + "\n\nContext:\n{context}"), ("human", "{question}")]
    )
    llm = ChatOpenAI(model=MODEL, temperature=0, base_url=os.environ["OPENAI_BASE_URL"])
    chain = (
        {"context": HelpCentreRetriever() | format_docs, "question": RunnablePassthrough()}
        | prompt
        | llm
        | StrOutputParser()
    )
    reply = chain.invoke(args["question"])
    record(args["question"], used, reply)


if __name__ == "__main__":
    main()
