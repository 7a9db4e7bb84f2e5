# ruff: noqa: E501
"""Blind wave G: eight services following real public defaults that waves A-F do not hold (LangChain4j's
content injector, Spring AI's QuestionAnswerAdvisor, the OpenAI cookbook's crawled-site Q&A, Mistral's RAG
cookbook, Pinecone Canopy's JSON context, kotaemon, Quivr, MaxKB). Written without looking at the reader's
output and measured once, as the out-of-sample figure; misses it shows are left for the next change.

    python tests/assembly_templates/blind/make_wave_g.py   # writes wave_g/*.json (deterministic)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

from make_wave_e import DE, EN, ES, JA, WEB, ZH, Doc, _answer, _as_sent, _flat, _history
from wave_writer import write_wave

HERE = Path(__file__).resolve().parent / "wave_g"
REQUESTS = 24

Messages = list[dict[str, str]]
Render = Callable[[list[Doc], str, random.Random], Messages]


def langchain4j_injector(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """LangChain4j DefaultContentInjector: the question first, then the contents joined by a blank line."""
    information = "\n\n".join(d.text for d in docs)
    return [
        {"role": "user", "content": f"{question}\n\nAnswer using the following information:\n{information}"}
    ]


def spring_ai_advisor(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Spring AI QuestionAnswerAdvisor: the user text, then the documents between dashed rules joined by a
    line break, then the closing instruction; Spanish documents."""
    context = "\n".join(d.text for d in docs)
    return [
        {
            "role": "user",
            "content": f"{question}\n\nContext information is below, surrounded by ---------------------\n\n---------------------\n{context}\n---------------------\n\nGiven the context and provided history information and not prior knowledge,\nreply to the user comment. If the answer is not in the context, inform\nthe user that you can't answer the question.\n",
        }
    ]


def openai_cookbook_crawl(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """OpenAI cookbook 'How to build an AI that can answer questions about your website': contexts joined by
    a ``###`` line between blank lines, then ``---`` and the question."""
    context = "\n\n###\n\n".join(_flat(d.text) for d in docs)
    return [
        {
            "role": "system",
            "content": "Answer the question based on the context below, and if the question can't be answered based on the context, say \"I don't know\"\n\n",
        },
        {"role": "user", "content": f"Context: {context}\n\n---\n\nQuestion: {question}\nAnswer:"},
    ]


def mistral_cookbook(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Mistral's basic RAG guide: chunks between dashed rules, then the query; German documents."""
    chunks = "\n".join(d.text for d in docs)
    return [
        {
            "role": "user",
            "content": f"Context information is below.\n---------------------\n{chunks}\n---------------------\nGiven the context information and not prior knowledge, answer the query.\nQuery: {question}\nAnswer:",
        }
    ]


def canopy_json(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Pinecone Canopy's stuffing context builder: the context as JSON (query and snippets with source and
    text) after the system prompt, the question as the user message."""
    context = json.dumps(
        [{"query": question, "snippets": [{"source": d.url, "text": d.text} for d in docs]}],
        ensure_ascii=False,
    )
    system = (
        "Use the following pieces of context to answer the user question at the next messages. This context retrieved from a knowledge database and you should use only the facts from the context to answer. Always remember to include the source to the documents you used from their 'source' field in the format 'Source: $SOURCE_HERE'.\nIf you don't know the answer, just say that you don't know, don't try to make up an answer, use the context.\nDon't address the context directly, but use it to answer the user question like it's your own knowledge.\nContext:\n"
        + context
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": question}]


def kotaemon_qa(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """kotaemon's default QA prompt: evidence with each file name on its own line, history before it."""
    evidence = "\n\n".join(f"{d.source}\n{d.title}: {d.text}" for d in docs)
    return [
        *_history(EN, question, rng, 2),
        {
            "role": "user",
            "content": f"Use the following pieces of context to answer the question at the end in detail with clear explanation. If you don't know the answer, just say that you don't know, don't try to make up an answer. Give answer in English.\n\n{evidence}\nQuestion: {question}\nHelpful Answer:",
        },
    ]


def quivr_ja(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Quivr's default RAG prompt shape over Japanese files: each chunk with its file name as a header
    line, then the user's question."""
    context = "\n\n".join(f"Filename: {d.source}\nContent: {d.text}" for d in docs)
    return [
        {
            "role": "system",
            "content": "When answering use markdown. Use markdown code blocks for code snippets.\nAnswer in a concise and clear manner.\nYou must use ONLY the provided context to answer the question.\nIf you cannot provide an answer using ONLY the context provided, do not attempt to answer from your own knowledge.",
        },
        {"role": "user", "content": f"Context:\n{context}\n\nUser Question: {question}\nAnswer:"},
    ]


def maxkb_zh(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """MaxKB's default application prompt (Chinese): paragraphs in <data> tags under 已知信息, then the
    answer rules and the question."""
    data = "\n".join(f"<data>{d.text}</data>" for d in docs)
    return [
        {
            "role": "user",
            "content": f"已知信息：\n{data}\n回答要求：\n- 请使用简洁且专业的语言来回答用户的问题。\n- 如果你不知道答案，请回答“没有在知识库中查找到相关信息，建议咨询相关技术支持或参考官方文档进行操作”。\n- 避免提及你是从已知信息中获得的知识。\n- 请保证答案与已知信息中描述的一致。\n- 请使用 Markdown 语法优化答案的格式。\n- 已知信息中的图片、链接地址和脚本语言请直接返回。\n- 请使用与问题相同的语言来回答。\n问题：\n{question}",
        }
    ]


SERVICES: list[tuple[str, str, str, list[Doc], Render]] = [
    ("lc4j-injector", "LangChain4j DefaultContentInjector", "question first, contents joined by a blank line", EN, langchain4j_injector),
    ("spring-advisor-es", "Spring AI QuestionAnswerAdvisor", "user text first, documents between dashed rules", ES, spring_ai_advisor),
    ("cookbook-crawl", "OpenAI cookbook web crawl Q&A", "contexts joined by ### between blank lines, --- then question", WEB, openai_cookbook_crawl),
    ("mistral-rag-de", "Mistral basic RAG guide", "chunks between dashed rules joined by a line break, then Query:", DE, mistral_cookbook),
    ("canopy-json", "Pinecone Canopy stuffing context builder", "JSON context with query and snippets in the system prompt", WEB, canopy_json),
    ("kotaemon-qa", "kotaemon default QA prompt", "history first, file name line then title: text", EN, kotaemon_qa),
    ("quivr-ja", "Quivr default RAG prompt", "Filename/Content records, User Question:", JA, quivr_ja),
    ("maxkb-zh", "MaxKB default application prompt", "<data> paragraphs under 已知信息, rules, then 问题", ZH, maxkb_zh),
]  # fmt: skip


def _as_sent_or_json(text: str, messages: Messages) -> str:
    """The document as the prompt holds it; inside a JSON context, its decoded text."""
    if json.dumps(text, ensure_ascii=False)[1:-1] in "\n".join(m["content"] for m in messages):
        return text
    return _as_sent(text, messages)


def build() -> None:
    write_wave(
        "wave_g", HERE, SERVICES, seed=7000, requests=REQUESTS, answer=_answer, as_sent=_as_sent_or_json
    )


if __name__ == "__main__":
    build()
