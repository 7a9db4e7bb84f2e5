"""Templates held out while the parser was written: measured apart (see :mod:`templates`). Each was added
after the parser's development run, and nothing in the parser was changed to fit one of them."""

from __future__ import annotations

import json

from templates import Doc, Messages, Template

ANYTHINGLLM_SYSTEM = (
    "Given the following conversation, relevant context, and a follow up question, reply with an answer to"
    " the current question the user is asking. Return only your response to the question given the above"
    " information following the users instructions as needed."
)
AZURE_SEARCH_DEMO_SYSTEM = (
    "Assistant helps the company employees with their healthcare plan questions, and questions about the"
    " employee handbook. Be brief in your answers.\nAnswer ONLY with the facts listed in the list of sources"
    " below. If there isn't enough information below, say you don't know. Do not generate answers that don't"
    " use the sources below. If asking a clarifying question to the user would help, ask the question.\nFor"
    " tabular information return it as an html table. Do not return markdown format. If the question is not"
    " in English, answer in the language used in the question.\nEach source has a name followed by colon and"
    " the actual information, always include the source name for each fact you use in the response. Use"
    " square brackets to reference the source, for example [info1.txt]. Don't combine sources, list each"
    " source separately, for example [info1.txt][info2.pdf]."
)
SPRING_AI_QA_ADVISOR = (
    "{query}\n\nContext information is below, surrounded by ---------------------\n\n---------------------\n"
    "{question_answer_context}\n---------------------\n\nGiven the context and provided history information"
    " and not prior knowledge,\nreply to the user comment. If the answer is not in the context, inform\nthe"
    " user that you can't answer the question.\n"
)
LLAMAINDEX_CITATION_QA = (
    "Please provide an answer based solely on the provided sources. When referencing information from a"
    " source, cite the appropriate source(s) using their corresponding numbers. Every answer should include"
    " at least one source citation. Only cite a source when you are explicitly referencing it. If none of"
    " the sources are helpful, you should indicate that. For example:\nSource 1:\nThe sky is red in the"
    " evening and blue in the morning.\nSource 2:\nWater is wet when the sky is red.\nUser query: When is"
    " water wet?\nAnswer: Water will be wet when the sky is red [2], which occurs in the evening [1].\nNow"
    " it's your turn. Below are several numbered sources of information:\n------\n{context_str}\n------\n"
    "User query: {query_str}\nAnswer: "
)
RAGFLOW_SYSTEM_ZH = (
    "你是一个智能助手，请总结知识库的内容来回答问题，请列举知识库中的数据详细回答。当所有知识库内容都与问题无关时，"
    "你的回答需要包括“知识库中未找到您要的答案！”这句话。回答需要考虑聊天历史。\n      以下是知识库：\n      "
    "{knowledge}\n      以上是知识库。"
)
TXTAI_RAG = (
    "Answer the following question using only the context below. Only include information specifically"
    " discussed.\n\nquestion: {question}\ncontext: {context} "
)
ANTHROPIC_COOKBOOK_RAG = (
    "\n    You have been tasked with helping us to answer the following query: \n    <query>\n    {query}\n"
    "    </query>\n    You have access to the following documents which are meant to provide context as you"
    " answer the query:\n    <documents>\n    {context}\n    </documents>\n    Please remain faithful to the"
    " underlying context, and only deviate from it if you are 100% sure that you know the answer already. \n"
    "    Answer the question now, and avoid providing preamble such as 'Here is the answer', etc\n    "
)
COMMAND_R_PREAMBLE = (
    "## Task and Context\nYou help people answer their questions and other requests interactively. You will"
    " be asked a very wide array of requests on all kinds of topics. You will be equipped with a wide range"
    " of search engines or similar tools to help you, which you use to research your answer. You should"
    " focus on serving the user's needs as best you can, which will be wide-ranging.\n\n## Style Guide\n"
    "Unless the user asks for a different style of answer, you should answer in full sentences, using proper"
    " grammar and spelling."
)


def anythingllm(docs: list[Doc], question: str) -> Messages:
    context = "\nContext:\n" + "".join(
        f"[CONTEXT {n}]:\n{doc.text}\n[END CONTEXT {n}]\n\n" for n, doc in enumerate(docs)
    )
    return [("system", ANYTHINGLLM_SYSTEM + context), ("user", question)]


def azure_search_demo(docs: list[Doc], question: str) -> Messages:
    sources = "\n".join(f"{doc.title}: {doc.text}" for doc in docs)
    return [("system", AZURE_SEARCH_DEMO_SYSTEM), ("user", f"{question}\n\nSources:\n{sources}")]


def spring_ai(docs: list[Doc], question: str) -> Messages:
    context = "\n".join(doc.text for doc in docs)
    return [
        ("system", "Default system text."),
        ("user", SPRING_AI_QA_ADVISOR.format(query=question, question_answer_context=context)),
    ]


def llamaindex_citation(docs: list[Doc], question: str) -> Messages:
    context = "\n\n".join(f"Source {n}:\n{doc.text}" for n, doc in enumerate(docs, 1))
    return [("user", LLAMAINDEX_CITATION_QA.format(context_str=context, query_str=question))]


def ragflow_chinese(docs: list[Doc], question: str) -> Messages:
    knowledge = "\n".join(
        f"\nID: {n}\n├── Title: {doc.title}\n└── Content:\n{doc.text}" for n, doc in enumerate(docs)
    )
    return [("system", RAGFLOW_SYSTEM_ZH.format(knowledge=knowledge)), ("user", question)]


def txtai(docs: list[Doc], question: str) -> Messages:
    context = "\n".join(doc.text for doc in docs)
    return [("user", TXTAI_RAG.format(question=question, context=context))]


def anthropic_cookbook(docs: list[Doc], question: str) -> Messages:
    context = "\n".join(doc.text for doc in docs)
    return [("user", ANTHROPIC_COOKBOOK_RAG.format(query=question, context=context))]


def command_r(docs: list[Doc], question: str) -> Messages:
    results = "\n\n".join(
        f"Document: {n}\ntitle: {doc.title}\ntext: {doc.text}" for n, doc in enumerate(docs)
    )
    return [
        ("system", COMMAND_R_PREAMBLE),
        ("user", question),
        ("system", f"<results>\n{results}\n</results>"),
    ]


HELD_OUT: list[Template] = [
    Template("anythingllm-context", "bracketed-enumeration", "Mintplex-Labs/anything-llm:server/utils/"
             "AiProviders/*/index.js (#appendContext) and the default chat prompt", anythingllm),
    Template("azure-search-openai-demo", "name-colon-sources", "Azure-Samples/azure-search-openai-demo:"
             "app/backend/approaches (system_message_chat_conversation, 'Sources:' user content)",
             azure_search_demo, marker=lambda n, d: f"[{d.title}]"),
    Template("spring-ai-question-answer-advisor", "question-first-rule-delimited", "spring-projects/"
             "spring-ai:advisors QuestionAnswerAdvisor DEFAULT_PROMPT_TEMPLATE", spring_ai),
    Template("llamaindex-citation-query-engine", "examples-in-instructions", "run-llama/llama_index:"
             "llama-index-core/llama_index/core/query_engine/citation_query_engine.py "
             "(CITATION_QA_TEMPLATE)", llamaindex_citation),
    Template("ragflow-chinese", "tree-metadata-non-english", "infiniflow/ragflow: Chinese default "
             "system prompt (web/src/locales/zh.ts systemInitialValue) and kb_prompt", ragflow_chinese,
             marker=lambda n, d: f"[ID:{n - 1}]"),
    Template("txtai-rag", "label-inline-lines", "neuml/txtai examples: RAG pipeline template", txtai),
    Template("anthropic-cookbook-rag", "xml-query-first", "anthropics/anthropic-cookbook:skills/"
             "retrieval_augmented_generation/guide.ipynb (answer_query_base)", anthropic_cookbook),
    Template("cohere-command-r-results", "key-value-records", "CohereForAI/c4ai-command-r tokenizer_config "
             "rag template: documents as 'Document: n / title / text' in <results>", command_r,
             marker=lambda n, d: f"[{n - 1}]"),
]  # fmt: skip


LANGCHAIN_QA_WITH_SOURCES = (
    "Given the following extracted parts of a long document and a question, create a final answer with"
    " references (\"SOURCES\"). \nIf you don't know the answer, just say that you don't know. Don't try to"
    ' make up an answer.\nALWAYS return a "SOURCES" part in your answer.\n\nQUESTION: Which state/country\'s'
    " law governs the interpretation of the contract?\n=========\nContent: This Agreement is governed by"
    " English law and the parties submit to the exclusive jurisdiction of the English courts in relation to"
    " any dispute (contractual or non-contractual) concerning this Agreement save that either party may"
    " apply to any court for an injunction or other relief to protect its Intellectual Property Rights."
    "\nSource: 28-pl\nContent: No Waiver. Failure or delay in exercising any right or remedy under this"
    " Agreement shall not constitute a waiver of such (or any other) right or remedy.\nSource: 30-pl\n"
    "=========\nFINAL ANSWER:"
    " This Agreement is governed by English law.\nSOURCES: 28-pl\n\nQUESTION: {question}\n=========\n"
    "{summaries}\n=========\nFINAL ANSWER:"
)
CWYD_SYSTEM = (
    "## On your profile and general capabilities:\n- You're a private model trained by Open AI and hosted by"
    " the Azure AI platform.\n- You should **only generate the necessary code** to answer the user's"
    " question.\n## On your ability to answer questions based on retrieved documents:\n- You should always"
    " leverage the retrieved documents when the user is seeking information or whenever retrieved documents"
    " could be potentially helpful, regardless of your internal knowledge or information.\n- You can"
    " leverage past responses and retrieved documents for generating relevant and interesting suggestions"
    " for the next user turn.\n- You can only refer to the retrieved documents as references, ... in the"
    " following format: [docN]."
)
FLOWISE_QA = (
    'I want you to act as a document that I am having a conversation with. Your name is "AI Assistant".'
    " Using the provided context, answer the user's question to the best of your ability using the resources"
    " provided.\nIf there is nothing in the context relevant to the question at hand, just say \"Hmm, I'm not"
    ' sure" and stop after that. Refuse to answer any question not about the info. Never break character.\n'
    "------------\n{context}\n------------\nREMEMBER: If there is no relevant information within the context,"
    " just say \"Hmm, I'm not sure\". Don't try to make up an answer. Never break character."
)
LANGCHAIN4J_INJECTOR = "{userMessage}\n\nAnswer using the following information:\n{contents}"
KERNEL_MEMORY_ASK = (
    "Facts:\n{facts}\n======\nGiven only the facts above, provide a comprehensive/detailed answer.\nYou don't"
    " know where the knowledge comes from, just answer.\nIf you don't have sufficient information, reply with"
    " 'INFO NOT FOUND'.\nQuestion: {input}\nAnswer: "
)


def langchain_qa_with_sources(docs: list[Doc], question: str) -> Messages:
    summaries = "\n\n".join(f"Content: {doc.text}\nSource: {doc.title}" for doc in docs)
    return [("user", LANGCHAIN_QA_WITH_SOURCES.format(question=question, summaries=summaries))]


def chat_with_your_data(docs: list[Doc], question: str) -> Messages:
    sources = json.dumps(
        {"retrieved_documents": [{f"[doc{n}]": {"content": d.text}} for n, d in enumerate(docs, 1)]}
    )
    user = (
        f"## Retrieved Documents\n{sources}\n\n## User Question\nUse the Retrieved Documents to answer the"
        f" question: {question}"
    )
    return [("system", CWYD_SYSTEM), ("user", user)]


def flowise(docs: list[Doc], question: str) -> Messages:
    return [("system", FLOWISE_QA.format(context="\n\n".join(d.text for d in docs))), ("user", question)]


def langchain4j(docs: list[Doc], question: str) -> Messages:
    contents = "\n\n".join(d.text for d in docs)
    return [("user", LANGCHAIN4J_INJECTOR.format(userMessage=question, contents=contents))]


def kernel_memory(docs: list[Doc], question: str) -> Messages:
    facts = "".join(f"==== [File:{d.title};Relevance:8{n}.0%]:\n{d.text}\n" for n, d in enumerate(docs))
    return [("user", KERNEL_MEMORY_ASK.format(facts=facts, input=question))]


def search_results(docs: list[Doc], question: str) -> Messages:
    results = "\n\n".join(
        f"[{n}] {d.title} (https://help.example.com/{d.title})\n{d.text}" for n, d in enumerate(docs, 1)
    )
    system = (
        "You are a search assistant. Answer the user's question using the search results below, citing them"
        f" as [n].\n\n### Search results\n\n{results}"
    )
    return [("system", system), ("user", question)]


HELD_OUT_LATE: list[Template] = [
    Template("langchain-qa-with-sources", "examples-same-structure", "langchain-ai/langchain:libs/langchain/"
             "langchain/chains/qa_with_sources/stuff_prompt.py (template, EXAMPLE_PROMPT)",
             langchain_qa_with_sources, marker=lambda n, d: f"SOURCES: {d.title}"),
    Template("chat-with-your-data-accelerator", "json-in-markdown-section", "Azure-Samples/"
             "chat-with-your-data-solution-accelerator: answering prompts (retrieved_documents JSON)",
             chat_with_your_data, marker=lambda n, d: f"[doc{n}]"),
    Template("flowise-conversational-retrieval", "rule-delimited", "FlowiseAI/Flowise: Conversational "
             "Retrieval QA Chain default response prompt", flowise),
    Template("langchain4j-content-injector", "question-first-announced", "langchain4j/langchain4j: "
             "DefaultContentInjector default prompt template", langchain4j),
    Template("kernel-memory-facts", "labelled-equals-records", "microsoft/kernel-memory: ask prompt "
             "(answer-with-facts) and fact template '==== [File:..;Relevance:..]'", kernel_memory),
    Template("search-results-markdown", "heading-enumerated-urls", "pattern of Perplexity-style search "
             "assistants: '### Search results' with [n] title (url) and the snippet", search_results),
]  # fmt: skip


LCEL_QUICKSTART = (
    "Answer the question based only on the following context:\n{context}\n\nQuestion: {question}\n"
)
MISTRAL_RAG = (
    "\nContext information is below.\n---------------------\n{retrieved_chunk}\n---------------------\nGiven"
    " the context information and not prior knowledge, answer the query.\nQuery: {question}\nAnswer:\n"
)
LLAMAINDEX_REFINE = (
    "The original query is as follows: {query_str}\nWe have provided an existing answer: {existing_answer}"
    "\nWe have the opportunity to refine the existing answer (only if needed) with some more context below.\n"
    "------------\n{context_msg}\n------------\nGiven the new context, refine the original answer to better"
    " answer the query. If the context isn't useful, return the original answer.\nRefined Answer: "
)


def lcel_quickstart(docs: list[Doc], question: str) -> Messages:
    return [("user", LCEL_QUICKSTART.format(context="\n\n".join(d.text for d in docs), question=question))]


def lcel_document_repr(docs: list[Doc], question: str) -> Messages:
    """The same chain with the retriever's list piped in unformatted: the prompt holds its repr."""
    listed = repr([_LangChainDocument(d) for d in docs])
    return [("user", LCEL_QUICKSTART.format(context=listed, question=question))]


class _LangChainDocument:
    def __init__(self, doc: Doc) -> None:
        self.doc = doc

    def __repr__(self) -> str:
        return f"Document(metadata={{'source': {self.doc.title!r}}}, page_content={self.doc.text!r})"


def mistral_rag(docs: list[Doc], question: str) -> Messages:
    return [("user", MISTRAL_RAG.format(retrieved_chunk=[d.text for d in docs], question=question))]


def llamaindex_refine(docs: list[Doc], question: str) -> Messages:
    context = "\n\n".join(d.text for d in docs)
    existing = "I could not find this in the first sources."
    return [("user", LLAMAINDEX_REFINE.format(query_str=question, existing_answer=existing,
                                               context_msg=context))]  # fmt: skip


def llama31_brave_search(docs: list[Doc], question: str) -> Messages:
    results = json.dumps([
        {"title": d.title, "url": f"https://help.example.com/{d.title}", "description": d.text} for d in docs
    ])  # fmt: skip
    return [
        ("system", "Environment: ipython\nTools: brave_search\n\nCutting Knowledge Date: December 2023\n"
                   "Today Date: 26 Nov 2026\n\nYou are a helpful assistant."),
        ("user", question),
        ("tool_call", "brave_search"),
        ("tool", results),
    ]  # fmt: skip


def vercel_ai_sdk_rag(docs: list[Doc], question: str) -> Messages:
    results = json.dumps([{"name": d.text, "similarity": 0.9 - n / 10} for n, d in enumerate(docs)])
    return [
        ("system", "You are a helpful assistant. Check your knowledge base before answering any questions."
                   "\n    Only respond to questions using information from tool calls.\n    if no relevant"
                   ' information is found in the tool calls, respond, "Sorry, I don\'t know."'),
        ("user", question),
        ("tool_call", "getInformation"),
        ("tool", results),
    ]  # fmt: skip


HELD_OUT_LAST: list[Template] = [
    Template("langchain-lcel-quickstart", "announced-label-block", "langchain-ai/langchain docs: LCEL RAG "
             "quickstart prompt ('Answer the question based only on the following context')",
             lcel_quickstart),
    Template("langchain-lcel-document-repr", "python-repr-list", "the LCEL quickstart with the retriever's "
             "documents piped in unformatted (a common mistake: the prompt holds the list's repr)",
             lcel_document_repr),
    Template("mistral-rag-guide", "python-repr-strings", "docs.mistral.ai guides/rag: prompt formatted with "
             "the retrieved_chunk list itself", mistral_rag),
    Template("llamaindex-refine", "refine-step", "run-llama/llama_index:llama-index-core/llama_index/core/"
             "prompts/default_prompts.py (DEFAULT_REFINE_PROMPT_TMPL)", llamaindex_refine),
    Template("llama31-brave-search", "tool-result-json-description", "meta-llama/llama-models: Llama 3.1 "
             "prompt format, built-in brave_search tool result in an ipython message", llama31_brave_search),
    Template("vercel-ai-sdk-rag-tool", "tool-result-json-name", "vercel/ai docs: RAG chatbot guide "
             "(getInformation tool returning name and similarity)", vercel_ai_sdk_rag),
]  # fmt: skip
