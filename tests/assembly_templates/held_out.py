"""Templates held out while the parser was written: measured apart (see :mod:`templates`). Each was added
after the parser's development run, and nothing in the parser was changed to fit one of them."""

from __future__ import annotations

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
