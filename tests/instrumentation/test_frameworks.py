"""The decorators on real LangChain and LlamaIndex objects (langchain-core, llama-index-core and their fake
models), which ragpulse reads by duck typing without importing either."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
import ragpulse
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.language_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore
from llama_index.core import VectorStoreIndex
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.embeddings import MockEmbedding
from llama_index.core.llms import MockLLM
from llama_index.core.schema import QueryBundle, TextNode
from ragpulse import semconv
from span_capture import Spans

TEXTS = {
    "eiffel": "The Eiffel Tower is in Paris.",
    "rome": "Rome is the capital of Italy.",
    "nile": "The Nile flows through Egypt.",
}
PROMPT = ChatPromptTemplate.from_template("Context: {context}\nQuestion: {question}")


def attrs(span: Any) -> dict[str, Any]:
    return dict(span.attributes or {})


def langchain_retriever(k: int = 2) -> Any:
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=32))
    store.add_documents([Document(page_content=text, id=key) for key, text in TEXTS.items()])
    return store.as_retriever(search_kwargs={"k": k})


def llamaindex_index() -> VectorStoreIndex:
    nodes = [TextNode(text=text, id_=key) for key, text in TEXTS.items()]
    return VectorStoreIndex(nodes, embed_model=MockEmbedding(embed_dim=8))


def format_docs(documents: list[Document]) -> str:
    return "\n".join(document.page_content for document in documents)


async def test_a_decorated_chain_is_a_runnable_tracing_each_input_of_every_method(spans: Spans) -> None:
    chain = ragpulse.rag(pipeline="lcel")(PROMPT | FakeListChatModel(responses=["Paris."]))
    inputs = {"question": "Where is the Eiffel Tower?", "context": "It is in Paris."}

    assert chain.invoke(inputs).content == "Paris."
    assert [message.content for message in chain.batch([inputs, inputs])] == ["Paris.", "Paris."]
    assert "".join(chunk.content for chunk in chain.stream(inputs)) == "Paris."
    assert (await chain.ainvoke(inputs)).content == "Paris."
    assert len(await chain.abatch([inputs, inputs])) == 2
    assert "".join([chunk.content async for chunk in chain.astream(inputs)]) == "Paris."

    roots = spans.named("rag lcel")
    assert len(roots) == 8
    assert {attrs(root)[semconv.INPUT_VALUE] for root in roots} == {inputs["question"]}
    assert {attrs(root)[semconv.OUTPUT_VALUE] for root in roots} == {"Paris."}
    assert json.loads(attrs(roots[0])[semconv.CONTEXT])[0]["text"] == inputs["context"]


def test_a_decorated_retriever_composes_with_pipe_on_either_side(spans: Spans) -> None:
    retriever = ragpulse.retrieve(langchain_retriever())
    chain = RunnableLambda(lambda question: question.strip()) | retriever | format_docs

    formatted = chain.invoke("  Where is the Eiffel Tower?  ")

    span = spans.one("retrieve")
    assert attrs(span)[semconv.INPUT_VALUE] == "Where is the Eiffel Tower?"
    ids = [attrs(span)[semconv.retrieval_document(slot, "id")] for slot in range(2)]
    assert formatted == "\n".join(TEXTS[key] for key in ids)
    assert retriever.get_name() == "VectorStoreRetriever"


def test_retriever_map_with_jitter_attributes_each_retrieval_to_its_query(spans: Spans) -> None:
    retriever = ragpulse.retrieve(langchain_retriever())
    jitter = random.Random(8)

    def after_a_pause(query: str) -> str:
        time.sleep(jitter.uniform(0, 0.03))
        return query

    fan_out = (RunnableLambda(after_a_pause) | retriever).map()
    rewrite = RunnableLambda(lambda question: [f"{question} {n}" for n in range(1, 6)])
    variations = ragpulse.variations(rewrite)

    @ragpulse.rag
    def request(question: str) -> str:
        queries = [question, *variations.invoke(question)]
        fan_out.invoke(queries)
        return "done"

    request("q")
    retrievals = json.loads(attrs(spans.one("rag request"))[semconv.RETRIEVALS])
    assert [(r["query"], r["query_index"]) for r in retrievals] == [("q", 0)] + [
        (f"q {n}", n) for n in range(1, 6)
    ]


def test_dict_input_and_output_give_question_answer_and_context(spans: Spans) -> None:
    documents = [Document(page_content=TEXTS["nile"], id="nile")]
    qa = ragpulse.rag(pipeline="qa")(
        RunnableLambda(lambda inputs: {"result": "Egypt.", "source_documents": documents, **inputs})
    )
    assert qa.invoke({"query": "Where does the Nile flow?"})["result"] == "Egypt."
    root = attrs(spans.one("rag qa"))
    assert root[semconv.INPUT_VALUE] == "Where does the Nile flow?"
    assert root[semconv.OUTPUT_VALUE] == "Egypt."
    assert [chunk["id"] for chunk in json.loads(root[semconv.CONTEXT])] == ["nile"]


def test_a_generate_step_taking_the_chain_dict_records_question_and_context(spans: Spans) -> None:
    reply = AIMessage(
        content="Paris.",
        usage_metadata={"input_tokens": 11, "output_tokens": 2, "total_tokens": 13},
        response_metadata={"model_name": "fake-4"},
    )
    write_answer = ragpulse.generate(PROMPT | GenericFakeChatModel(messages=iter([reply])))
    documents = [Document(page_content=TEXTS["eiffel"], id="eiffel")]

    @ragpulse.rag
    def request(question: str) -> str:
        return str(write_answer.invoke({"question": question, "context": documents}).content)

    assert request("Where is the Eiffel Tower?") == "Paris."
    generate = attrs(spans.one("generate"))
    assert generate[semconv.INPUT_VALUE] == "Where is the Eiffel Tower?"
    assert (generate[semconv.LLM_TOKEN_COUNT_PROMPT], generate[semconv.LLM_TOKEN_COUNT_TOTAL]) == (11, 13)
    assert generate[semconv.GEN_AI_USAGE_INPUT_TOKENS] == 11
    assert generate[semconv.GEN_AI_USAGE_OUTPUT_TOKENS] == 2
    assert generate[semconv.LLM_MODEL_NAME] == generate[semconv.GEN_AI_REQUEST_MODEL] == "fake-4"
    root = attrs(spans.one("rag request"))
    assert [chunk["id"] for chunk in json.loads(root[semconv.CONTEXT])] == ["eiffel"]


def test_a_streamed_generation_sums_the_usage_its_chunks_report(spans: Spans) -> None:
    @ragpulse.generate
    def stream(question: str) -> Any:
        yield AIMessageChunk(
            content="Par", usage_metadata={"input_tokens": 11, "output_tokens": 1, "total_tokens": 12}
        )
        yield AIMessageChunk(
            content="is.",
            usage_metadata={"input_tokens": 0, "output_tokens": 1, "total_tokens": 1},
            response_metadata={"model_name": "fake-4"},
        )

    assert "".join(str(chunk.content) for chunk in stream("Where is the Eiffel Tower?")) == "Paris."
    generate = attrs(spans.one("generate"))
    assert generate[semconv.OUTPUT_VALUE] == "Paris."
    assert (generate[semconv.LLM_TOKEN_COUNT_PROMPT], generate[semconv.LLM_TOKEN_COUNT_COMPLETION]) == (11, 2)
    assert generate[semconv.LLM_TOKEN_COUNT_TOTAL] == 13
    assert generate[semconv.LLM_MODEL_NAME] == "fake-4"


def test_a_streamed_chain_of_dict_chunks_gives_answer_and_context(spans: Spans) -> None:
    retriever = langchain_retriever(k=1)
    chain = ragpulse.rag(pipeline="assign")(
        RunnablePassthrough.assign(context=lambda inputs: retriever.invoke(inputs["question"])).assign(
            answer=PROMPT | FakeListChatModel(responses=["Paris."]) | StrOutputParser()
        )
    )
    chunks = list(chain.stream({"question": "Where is the Eiffel Tower?"}))

    root = attrs(spans.one("rag assign"))
    assert root[semconv.OUTPUT_VALUE] == "".join(chunk.get("answer", "") for chunk in chunks) == "Paris."
    (documents,) = [chunk["context"] for chunk in chunks if "context" in chunk]
    assert [chunk["id"] for chunk in json.loads(root[semconv.CONTEXT])] == [documents[0].id]


def test_a_model_named_by_the_decorator_is_not_replaced_by_the_response_s(spans: Spans) -> None:
    reply = AIMessage(content="Paris.", response_metadata={"model_name": "served-model"})
    ragpulse.generate(model="requested-model")(GenericFakeChatModel(messages=iter([reply]))).invoke("q")
    generate = attrs(spans.one("generate"))
    assert generate[semconv.LLM_MODEL_NAME] == "requested-model"
    assert generate[semconv.GEN_AI_RESPONSE_MODEL] == "served-model"


def test_llamaindex_query_engine_response_gives_answer_and_source_nodes(spans: Spans) -> None:
    engine = llamaindex_index().as_query_engine(llm=MockLLM(max_tokens=4), similarity_top_k=2)
    query = ragpulse.rag(pipeline="engine")(engine.query)

    response = query("Where is the Eiffel Tower?")

    root = attrs(spans.one("rag engine"))
    assert root[semconv.INPUT_VALUE] == "Where is the Eiffel Tower?"
    assert root[semconv.OUTPUT_VALUE] == response.response == "text text text text"
    context = json.loads(root[semconv.CONTEXT])
    assert [chunk["id"] for chunk in context] == [node.node.node_id for node in response.source_nodes]
    assert [chunk["text"] for chunk in context] == [TEXTS[chunk["id"]] for chunk in context]


def test_llamaindex_streaming_response_ends_the_request_when_its_stream_does(spans: Spans) -> None:
    engine = llamaindex_index().as_query_engine(llm=MockLLM(max_tokens=3), similarity_top_k=1, streaming=True)
    query = ragpulse.rag(pipeline="streaming")(engine.query)

    response = query("Where is Rome?")
    assert spans.named("rag streaming") == []
    streamed = "".join(response.response_gen)

    root = attrs(spans.one("rag streaming"))
    assert root[semconv.OUTPUT_VALUE] == streamed == "text text text"
    assert [chunk["id"] for chunk in json.loads(root[semconv.CONTEXT])] == [
        node.node.node_id for node in response.source_nodes
    ]


def test_llamaindex_chat_response_and_completion_stream(spans: Spans) -> None:
    llm = MockLLM(max_tokens=5)
    chat = ragpulse.generate(name="chat")(llm.chat)
    stream = ragpulse.generate(name="stream")(llm.stream_complete)

    reply = chat([ChatMessage(role="user", content="Where is the Eiffel Tower?")])
    deltas = [response.delta for response in stream("The Eiffel Tower is in")]

    assert attrs(spans.one("chat"))[semconv.OUTPUT_VALUE] == reply.message.content
    assert reply.message.content == "text text text text text"
    # Each streamed CompletionResponse carries the text so far and its delta: only the deltas join.
    assert attrs(spans.one("stream"))[semconv.OUTPUT_VALUE] == "".join(deltas) == "text text text text text"


def test_llamaindex_query_bundle_is_the_query(spans: Spans) -> None:
    search = ragpulse.retrieve(llamaindex_index().as_retriever(similarity_top_k=1).retrieve)
    [node] = search(QueryBundle("Where does the Nile flow?"))
    span = attrs(spans.one("retrieve"))
    assert span[semconv.INPUT_VALUE] == "Where does the Nile flow?"
    assert span[semconv.retrieval_document(0, "id")] == node.node.node_id


def test_a_runnable_that_fails_records_the_error_and_raises(spans: Spans) -> None:
    def fail(question: str) -> str:
        raise ValueError("no answer")

    chain = ragpulse.rag(pipeline="failing")(RunnableLambda(fail))
    with pytest.raises(ValueError, match="no answer"):
        chain.invoke("q")
    with pytest.raises(ValueError, match="no answer"):
        list(chain.stream("q"))
    assert [root.status.status_code.name for root in spans.named("rag failing")] == ["ERROR", "ERROR"]


async def test_llamaindex_async_streaming_response_joins_its_answer_and_keeps_its_sources(
    spans: Spans,
) -> None:
    engine = llamaindex_index().as_query_engine(llm=MockLLM(max_tokens=3), similarity_top_k=2, streaming=True)
    query = ragpulse.rag(pipeline="async streaming")(engine.aquery)

    response = await query("Where is Rome?")
    assert type(response).__name__ == "AsyncStreamingResponse"
    assert spans.named("rag async streaming") == []
    streamed = "".join([text async for text in response.async_response_gen()])

    root = attrs(spans.one("rag async streaming"))
    assert root[semconv.INPUT_VALUE] == "Where is Rome?"
    assert root[semconv.OUTPUT_VALUE] == streamed == "text text text"
    context = json.loads(root[semconv.CONTEXT])
    assert [chunk["id"] for chunk in context] == [node.node.node_id for node in response.source_nodes]
    assert [chunk["text"] for chunk in context] == [TEXTS[chunk["id"]] for chunk in context]
    assert (await response.get_response()).response == streamed


async def test_llamaindex_async_streaming_response_left_unread_still_ends_its_request(spans: Spans) -> None:
    engine = llamaindex_index().as_query_engine(llm=MockLLM(max_tokens=3), similarity_top_k=1, streaming=True)
    query = ragpulse.rag(pipeline="unread")(engine.aquery)

    response = await query("Where is Rome?")
    stream = response.async_response_gen()
    assert await anext(stream) == "text "
    await stream.aclose()
    await response.response_gen.aclose()

    root = attrs(spans.one("rag unread"))
    assert root[semconv.STREAM_ABANDONED] is True
    assert root[semconv.OUTPUT_VALUE] == "text "
