"""Default RAG prompt templates of popular frameworks and products, in their own words, each with where it
was taken from. A template turns documents and a question into the messages a service sends; the documents
are formatted as the framework formats them (LlamaIndex's metadata lines, RAGFlow's tree, DSPy's «quotes»).

The held-out templates (:mod:`held_out`) were written after the parser was done, and are measured apart.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

Messages = list[tuple[str, str]]
"""(role, text) pairs; role "tool_call" is an assistant message that only calls a tool (its text: the
tool's name)."""


@dataclass(frozen=True)
class Doc:
    text: str
    title: str
    """A file name or page title the framework may print beside the text (metadata, never context text)."""


@dataclass(frozen=True)
class Template:
    name: str
    family: str
    """What the template's structure is: the families the tests cover one by one."""
    source: str
    """Where the template's words come from: repository and path, or a URL."""
    build: Callable[[list[Doc], str], Messages] = field(repr=False)
    marker: Callable[[int, Doc], str] = field(repr=False, default=lambda n, d: f"[{n}]")
    """How an answer cites document ``n`` (1-based) in this product's style."""


def _joined(docs: list[Doc], separator: str = "\n\n") -> str:
    return separator.join(doc.text for doc in docs)


def _llamaindex_nodes(docs: list[Doc]) -> str:
    """LlamaIndex ``node.get_content(metadata_mode=LLM)``: metadata lines, a blank line, the text."""
    return "\n\n".join(
        f"page_label: {n}\nfile_path: /data/{doc.title}\nfile_name: {doc.title}\n\n{doc.text}"
        for n, doc in enumerate(docs, 1)
    )


LANGCHAIN_HUB_RAG = (
    "You are an assistant for question-answering tasks. Use the following pieces of retrieved context to"
    " answer the question. If you don't know the answer, just say that you don't know. Use three sentences"
    " maximum and keep the answer concise.\nQuestion: {question} \nContext: {context} \nAnswer:"
)
LANGCHAIN_STUFF = (
    "Use the following pieces of context to answer the question at the end. If you don't know the answer,"
    " just say that you don't know, don't try to make up an answer.\n\n{context}\n\nQuestion: {question}\n"
    "Helpful Answer:"
)
LANGCHAIN_CHAT_STUFF = (
    "Use the following pieces of context to answer the user's question. \nIf you don't know the answer, just"
    " say that you don't know, don't try to make up an answer.\n----------------\n{context}"
)
LANGCHAIN_RETRIEVAL_QA_CHAT = (
    "Answer any use questions based solely on the context below:\n\n<context>\n{context}\n</context>"
)
LLAMAINDEX_TEXT_QA = (
    "Context information is below.\n---------------------\n{context_str}\n---------------------\nGiven the"
    " context information and not prior knowledge, answer the query.\nQuery: {query_str}\nAnswer: "
)
LLAMAINDEX_QA_SYSTEM = (
    "You are an expert Q&A system that is trusted around the world.\nAlways answer the query using the"
    " provided context information, and not prior knowledge.\nSome rules to follow:\n1. Never directly"
    " reference the given context in your answer.\n2. Avoid statements like 'Based on the context, ...' or"
    " 'The context information ...' or anything along those lines."
)
LLAMAINDEX_CONDENSE_PLUS_CONTEXT = (
    "\n  The following is a friendly conversation between a user and an AI assistant.\n  The assistant is"
    " talkative and provides lots of specific details from its context.\n  If the assistant does not know"
    " the answer to a question, it truthfully says it\n  does not know.\n\n  Here are the relevant documents"
    " for the context:\n\n  {context_str}\n\n  Instruction: Based on the above documents, provide a detailed"
    ' answer for the user question below.\n  Answer "don\'t know" if not present in the document.\n  '
)
LLAMAINDEX_CONTEXT_CHAT = (
    "Context information is below.\n--------------------\n{context_str}\n--------------------\n"
)
HAYSTACK_RAG = (
    "\nGiven the following information, answer the question.\n\nContext:\n{documents}\n\nQuestion:"
    " {question}\nAnswer:\n"
)
HAYSTACK_CHAT_RAG = (
    "Given these documents, answer the question.\nDocuments:\n{documents}\nQuestion: {question}\nAnswer:"
)
OPEN_WEBUI_RAG = (
    "### Task:\nRespond to the user query using the provided context, incorporating inline citations in the"
    " format [id] **only when the <source> tag includes an explicit id attribute** (e.g., <source"
    ' id="1">).\n\n### Guidelines:\n- If you don\'t know the answer, clearly state that.\n- If uncertain, ask'
    " the user for clarification.\n- Respond in the same language as the user's query.\n- If the context is"
    " unreadable or of poor quality, inform the user and provide the best possible answer.\n- If the answer"
    " isn't present in the context but you possess the knowledge, explain this to the user and provide the"
    " answer using your own understanding.\n- **Only include inline citations using [id] (e.g., [1], [2])"
    " when the <source> tag includes an id attribute.**\n- Do not cite if the <source> tag does not contain"
    " an id attribute.\n- Do not use XML tags in your response.\n- Ensure citations are concise and directly"
    " related to the information provided.\n\n### Example of Citation:\nIf the user asks about a specific"
    " topic and the information is found in a source with a provided id attribute, the response should"
    ' include the citation like in the following example:\n* "According to the study, the proposed method'
    " increases efficiency by 20% [1].\"\n\n### Output:\nProvide a clear and direct response to the user's"
    " query, including inline citations in the format [id] only when the <source> tag with id attribute is"
    " present in the context.\n\n<context>\n{context}\n</context>\n\n<user_query>\n{query}\n</user_query>\n"
)
OPEN_WEBUI_LEGACY_RAG = (
    "Use the following context as your learned knowledge, inside <context></context> XML tags.\n<context>\n"
    "    {context}\n</context>\n\nWhen answer to user:\n- If you don't know, just say that you don't know.\n"
    "- If you don't know when you are not sure, ask for clarification.\nAvoid mentioning that you obtained"
    " the information from the context.\nAnd answer according to the language of the user's question.\n\n"
    "Given the context information, answer the query.\nQuery: {query}"
)
DIFY_CONTEXT = (
    "Use the following context as your learned knowledge, inside <context></context> XML tags.\n\n<context>\n"
    "{context}\n</context>\n\nWhen answer to user:\n- If you don't know, just say that you don't know.\n- If"
    " you don't know when you are not sure, ask for clarification.\nAvoid mentioning that you obtained the"
    " information from the context.\nAnd answer according to the language of the user's question.\n"
)
RAGFLOW_SYSTEM = (
    "You are an intelligent assistant. Please summarize the content of the knowledge base to answer the"
    " question. Please list the data in the knowledge base and answer in detail. When all knowledge base"
    ' content is irrelevant to the question, your answer must include the sentence "The answer you are'
    ' looking for is not found in the knowledge base!" Answers need to consider chat history.\n      Here is'
    " the knowledge base:\n      {knowledge}\n      The above is the knowledge base."
)
RAGFLOW_SYSTEM_ES = (
    "Eres un asistente inteligente. Por favor, resume el contenido de la base de conocimientos\npara"
    " responder a la pregunta. Enumera los datos de la base de conocimientos y responde en\ndetalle. Cuando"
    " todo el contenido de la base de conocimientos sea irrelevante para la\npregunta, tu respuesta debe"
    ' incluir la frase "¡La respuesta que buscas no se encuentra en\nla base de conocimientos!". Las'
    " respuestas deben tener en cuenta el historial del chat.\nAquí está la base de conocimientos:\n"
    "{knowledge}\nLo anterior es la base de conocimientos."
)
ANTHROPIC_LONG_CONTEXT = "{documents}\n\n{question}"
OPENAI_COOKBOOK_INTRO = (
    "Use the below articles on the 2022 Winter Olympics to answer the subsequent question. If the answer"
    ' cannot be found, write "I could not find an answer."'
)
LANGGRAPH_AGENTIC_GENERATE = (
    "You are an assistant for question-answering tasks. Use the following pieces of retrieved context to"
    " answer the question. If you don't know the answer, just say that you don't know. Use three sentences"
    " maximum and keep the answer concise.\nQuestion: {question} \nContext: {context}"
)
PERPLEXICA_SYSTEM = (
    "You are Perplexica, an AI model skilled in web search and crafting detailed, engaging, and"
    " well-structured answers. You excel at summarizing web pages and extracting relevant information to"
    " create professional, blog-style responses.\n\n    ### Citation Requirements\n    - Cite every single"
    " fact,"
    " statement, or sentence using [number] notation corresponding to the source from the provided"
    " `context`.\n    - Integrate citations naturally at the end of sentences or clauses as appropriate. For"
    ' example, "The Eiffel Tower is one of the most visited landmarks in the world[1]."\n\n    <context>\n'
    "    {context}\n    </context>\n\n    Current date & time in ISO format (UTC timezone) is: 2026-11-26."
)


def langchain_hub_rag(docs: list[Doc], question: str) -> Messages:
    return [("user", LANGCHAIN_HUB_RAG.format(question=question, context=_joined(docs)))]


def langchain_stuff(docs: list[Doc], question: str) -> Messages:
    return [("user", LANGCHAIN_STUFF.format(context=_joined(docs), question=question))]


def langchain_chat_stuff(docs: list[Doc], question: str) -> Messages:
    return [("system", LANGCHAIN_CHAT_STUFF.format(context=_joined(docs))), ("user", question)]


def langchain_retrieval_qa_chat(docs: list[Doc], question: str) -> Messages:
    return [("system", LANGCHAIN_RETRIEVAL_QA_CHAT.format(context=_joined(docs))), ("user", question)]


def llamaindex_text_qa(docs: list[Doc], question: str) -> Messages:
    return [("user", LLAMAINDEX_TEXT_QA.format(context_str=_llamaindex_nodes(docs), query_str=question))]


def llamaindex_chat_text_qa(docs: list[Doc], question: str) -> Messages:
    user = LLAMAINDEX_TEXT_QA.format(context_str=_llamaindex_nodes(docs), query_str=question)
    return [("system", LLAMAINDEX_QA_SYSTEM), ("user", user)]


def llamaindex_condense_plus_context(docs: list[Doc], question: str) -> Messages:
    system = LLAMAINDEX_CONDENSE_PLUS_CONTEXT.format(context_str=_llamaindex_nodes(docs))
    return [("system", system), ("user", question)]


def llamaindex_context_chat(docs: list[Doc], question: str) -> Messages:
    return [("system", LLAMAINDEX_CONTEXT_CHAT.format(context_str=_joined(docs))), ("user", question)]


def haystack_rag(docs: list[Doc], question: str) -> Messages:
    documents = "".join(f"    {doc.text}\n" for doc in docs)
    return [("user", HAYSTACK_RAG.format(documents=documents, question=question))]


def haystack_chat_rag(docs: list[Doc], question: str) -> Messages:
    documents = "".join(f"    {doc.text}\n" for doc in docs)
    return [("user", HAYSTACK_CHAT_RAG.format(documents=documents, question=question))]


def dspy_rag(docs: list[Doc], question: str) -> Messages:
    system = (
        "Your input fields are:\n1. `context` (list[str]):\n2. `question` (str):\nYour output fields are:\n1."
        " `answer` (str):\nAll interactions will be structured in the following way, with the appropriate"
        " values filled in.\n\n[[ ## context ## ]]\n{context}\n\n[[ ## question ## ]]\n{question}\n\n[[ ##"
        " answer ## ]]\n{answer}\n\n[[ ## completed ## ]]\nIn adhering to this structure, your objective is:"
        " \n        Given the fields `context`, `question`, produce the fields `answer`."
    )
    context = "\n".join(f"[{n}] «{doc.text}»" for n, doc in enumerate(docs, 1))
    user = (
        f"[[ ## context ## ]]\n{context}\n\n[[ ## question ## ]]\n{question}\n\nRespond with the"
        " corresponding"
        " output fields, starting with the field `[[ ## answer ## ]]`, and then ending with the marker for"
        " `[[ ## completed ## ]]`."
    )
    return [("system", system), ("user", user)]


def open_webui(docs: list[Doc], question: str) -> Messages:
    context = "".join(
        f'<source id="{n}" name="{doc.title}">{doc.text}</source>\n' for n, doc in enumerate(docs, 1)
    )
    return [("user", OPEN_WEBUI_RAG.format(context=context, query=question))]


def open_webui_legacy(docs: list[Doc], question: str) -> Messages:
    return [
        ("system", "You are a helpful assistant."),
        ("user", OPEN_WEBUI_LEGACY_RAG.format(context=_joined(docs), query=question)),
    ]


def dify_chat(docs: list[Doc], question: str) -> Messages:
    return [("system", DIFY_CONTEXT.format(context=_joined(docs, "\n"))), ("user", question)]


def _ragflow_knowledge(docs: list[Doc]) -> str:
    return "\n".join(
        f"\nID: {n}\n├── Title: {doc.title}\n└── Content:\n{doc.text}" for n, doc in enumerate(docs)
    )


def ragflow(docs: list[Doc], question: str) -> Messages:
    return [("system", RAGFLOW_SYSTEM.format(knowledge=_ragflow_knowledge(docs))), ("user", question)]


def ragflow_spanish(docs: list[Doc], question: str) -> Messages:
    return [("system", RAGFLOW_SYSTEM_ES.format(knowledge=_ragflow_knowledge(docs))), ("user", question)]


def anthropic_long_context(docs: list[Doc], question: str) -> Messages:
    documents = (
        "<documents>\n"
        + "\n".join(
            f'  <document index="{n}">\n    <source>{doc.title}</source>\n    <document_content>\n'
            f"      {doc.text}\n"
            "    </document_content>\n  </document>"
            for n, doc in enumerate(docs, 1)
        )
        + "\n</documents>"
    )
    return [("user", ANTHROPIC_LONG_CONTEXT.format(documents=documents, question=question))]


def openai_cookbook_embeddings_qa(docs: list[Doc], question: str) -> Messages:
    message = OPENAI_COOKBOOK_INTRO
    for doc in docs:
        message += f'\n\nWikipedia article section:\n"""\n{doc.text}\n"""'
    message += f"\n\nQuestion: {question}"
    return [("system", "You answer questions about the 2022 Winter Olympics."), ("user", message)]


def langgraph_agentic_rag(docs: list[Doc], question: str) -> Messages:
    return [("user", LANGGRAPH_AGENTIC_GENERATE.format(question=question, context=_joined(docs)))]


def langchain_tool_agent(docs: list[Doc], question: str) -> Messages:
    """A LangChain agent calling ``create_retriever_tool``'s tool: its result is the documents joined with
    the tool's default separator."""
    return [
        ("system", "You are a helpful assistant. Use the retriever tool to look things up before answering."),
        ("user", question),
        ("tool_call", "retrieve_blog_posts"),
        ("tool", _joined(docs)),
    ]


def openai_function_search_json(docs: list[Doc], question: str) -> Messages:
    """OpenAI function calling (cookbook "How to call functions with chat models"): the function's result is
    a JSON string of search results."""
    results = json.dumps([{"title": doc.title, "content": doc.text} for doc in docs])
    return [
        ("system", "Answer the user's question. Call search_docs to find relevant documentation."),
        ("user", question),
        ("tool_call", "search_docs"),
        ("tool", results),
    ]


def perplexica(docs: list[Doc], question: str) -> Messages:
    context = "\n".join(f"{n}. {doc.text}" for n, doc in enumerate(docs, 1))
    return [("system", PERPLEXICA_SYSTEM.format(context=context)), ("user", question)]


def json_question_and_documents(docs: list[Doc], question: str) -> Messages:
    """A user message that is one JSON object (Cohere-style ``documents`` with ``title``/``snippet``)."""
    payload = {"question": question, "documents": [{"title": d.title, "snippet": d.text} for d in docs]}
    return [
        ("system", "Answer the question in the JSON input using only its documents."),
        ("user", json.dumps(payload, ensure_ascii=False)),
    ]


def system_message_per_document(docs: list[Doc], question: str) -> Messages:
    return [
        ("system", "You are a support assistant. Answer from the documents that follow, one per message."),
        *[("system", doc.text) for doc in docs],
        ("user", question),
    ]


def markdown_sources(docs: list[Doc], question: str) -> Messages:
    sources = "\n\n".join(f"### {doc.title}\n{doc.text}" for doc in docs)
    system = (
        "You are Khoj, a smart, inquisitive and helpful personal assistant.\nUse my personal notes to inform"
        " your response.\n\n## Notes\n" + sources
    )
    return [("system", system), ("user", question)]


def equals_fenced(docs: list[Doc], question: str) -> Messages:
    blocks = "\n".join(f"=====\n{doc.text}" for doc in docs) + "\n====="
    user = (
        "Answer the question truthfully using only the passages between the ===== lines.\n"
        f"{blocks}\nQ: {question}\nA:"
    )
    return [("user", user)]


def code_fenced_sources(docs: list[Doc], question: str) -> Messages:
    blocks = "\n\n".join(f"Source: {doc.title}\n```\n{doc.text}\n```" for doc in docs)
    return [
        ("system", "You answer developer questions. Quote only what the sources below say.\n\n" + blocks),
        ("user", question),
    ]


TEMPLATES: list[Template] = [
    Template("langchain-hub-rlm-rag-prompt", "label-inline", "smith.langchain.com/hub/rlm/rag-prompt",
             langchain_hub_rag),
    Template("langchain-stuff-qa", "after-instructions", "langchain-ai/langchain:libs/langchain/langchain/"
             "chains/question_answering/stuff_prompt.py (prompt_template)", langchain_stuff),
    Template("langchain-stuff-chat", "rule-delimited", "langchain-ai/langchain:libs/langchain/langchain/"
             "chains/question_answering/stuff_prompt.py (system_template)", langchain_chat_stuff),
    Template("langchain-retrieval-qa-chat", "xml-container", "smith.langchain.com/hub/langchain-ai/"
             "retrieval-qa-chat", langchain_retrieval_qa_chat),
    Template("llamaindex-text-qa", "rule-delimited-metadata", "run-llama/llama_index:llama-index-core/"
             "llama_index/core/prompts/default_prompts.py (DEFAULT_TEXT_QA_PROMPT_TMPL)", llamaindex_text_qa),
    Template("llamaindex-chat-text-qa", "rule-delimited-metadata", "run-llama/llama_index:llama-index-core/"
             "llama_index/core/prompts/chat_prompts.py (CHAT_TEXT_QA_PROMPT)", llamaindex_chat_text_qa),
    Template("llamaindex-condense-plus-context", "after-instructions-metadata", "run-llama/llama_index:"
             "llama-index-core/llama_index/core/chat_engine/condense_plus_context.py "
             "(DEFAULT_CONTEXT_PROMPT_TEMPLATE)", llamaindex_condense_plus_context),
    Template("llamaindex-context-chat", "rule-delimited", "run-llama/llama_index:llama-index-core/"
             "llama_index/core/chat_engine/context.py (DEFAULT_CONTEXT_TEMPLATE)", llamaindex_context_chat),
    Template("haystack-rag-tutorial", "label-block", "deepset-ai/haystack docs, tutorial 27 "
             "(First RAG Pipeline) prompt template", haystack_rag),
    Template("haystack-chat-rag", "label-block", "deepset-ai/haystack docs, ChatPromptBuilder RAG example",
             haystack_chat_rag),
    Template("dspy-chat-adapter", "sections-enumerated", "stanfordnlp/dspy:dspy/adapters/chat_adapter.py "
             "(dspy.ChainOfThought('context, question -> answer'))", dspy_rag),
    Template("open-webui-rag", "xml-attributes-quoted-tag", "open-webui/open-webui:backend/open_webui/"
             "config.py (DEFAULT_RAG_TEMPLATE)", open_webui,
             marker=lambda n, d: f"[{n}]"),
    Template("open-webui-legacy-rag", "xml-container", "open-webui/pipelines blueprints (TEMPLATE, the "
             "pre-0.5 Open WebUI RAG template)", open_webui_legacy),
    Template("dify-chat-context", "xml-container-lines", "langgenius/dify:api/core/prompt/"
             "prompt_templates/advanced_prompt_templates.py (CONTEXT)", dify_chat),
    Template("ragflow-default", "tree-metadata", "infiniflow/ragflow:sdk/python/ragflow_sdk/ragflow.py "
             "(default prompt) and rag/prompts kb_prompt", ragflow, marker=lambda n, d: f"[ID:{n - 1}]"),
    Template("ragflow-spanish", "tree-metadata-non-english", "RAGFlow agent prompt in Spanish (a public "
             "project's RAGFlow configuration)", ragflow_spanish, marker=lambda n, d: f"[ID:{n - 1}]"),
    Template("anthropic-long-context", "xml-nested-metadata", "docs.anthropic.com: long context prompting "
             "tips (documents/document/source/document_content)", anthropic_long_context,
             marker=lambda n, d: f"({d.title})"),
    Template("openai-cookbook-embeddings-qa", "quoted-blocks", "openai/openai-cookbook:examples/"
             "Question_answering_using_embeddings.ipynb (query_message)", openai_cookbook_embeddings_qa),
    Template("langgraph-agentic-rag", "label-inline", "langchain-ai/langgraph docs: agentic RAG tutorial "
             "(GENERATE_PROMPT)", langgraph_agentic_rag),
    Template("langchain-retriever-tool-agent", "tool-result", "langchain-ai/langchain: "
             "langchain_core/tools/retriever.py (create_retriever_tool, document_separator)",
             langchain_tool_agent),
    Template("openai-function-search-json", "tool-result-json", "openai/openai-cookbook: How to call "
             "functions with chat models (tool message with a JSON result)", openai_function_search_json,
             marker=lambda n, d: f"【4:{n - 1}†{d.title}】"),
    Template("perplexica-web-search", "xml-container-enumerated", "ItzCrazyKns/Perplexica:src/lib/prompts/"
             "webSearch.ts (webSearchResponsePrompt)", perplexica),
    Template("json-question-and-documents", "json-object", "Cohere chat API documents shape "
             "(title/snippet) sent as one JSON user message", json_question_and_documents,
             marker=lambda n, d: f"[doc{n}]"),
    Template("system-message-per-document", "message-per-document", "shape reported in issue 26: an "
             "instruction message, then one system message per retrieved chunk", system_message_per_document),
    Template("khoj-notes-markdown", "markdown-headings", "khoj-ai/khoj:src/khoj/processor/conversation/"
             "prompts.py (notes_conversation), notes as markdown headings", markdown_sources,
             marker=lambda n, d: f"[{d.title}]"),
    Template("equals-fenced-passages", "equals-delimited", "pattern of prompts that fence passages in ====="
             " lines (OpenAI community RAG prompts)", equals_fenced),
    Template("code-fenced-sources", "fenced-labelled", "pattern of developer-docs assistants: 'Source: "
             "<file>' and the chunk in a code fence", code_fenced_sources,
             marker=lambda n, d: f"({d.title})"),
]  # fmt: skip
