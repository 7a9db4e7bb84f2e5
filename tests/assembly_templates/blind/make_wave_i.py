# ruff: noqa: E501
"""Blind wave I: four services whose templates no earlier wave nor the corpus holds, three of them putting a
title or metadata line before each document's text in a shape of their own (a markdown heading per document
in German; "[n] title (url)" search results; Korean "제목:" / "URL:" lines with no label before the text) and
one without (h2oGPT's default document Q&A prompt, the context in triple quotes). Written before any change to
the reader for titled documents and measured once with main's readers.

    python tests/assembly_templates/blind/make_wave_i.py   # writes wave_i/*.json (deterministic)
"""

from __future__ import annotations

import random
from pathlib import Path

from make_wave_e import DE, EN, WEB, Doc, _answer, _as_sent
from make_wave_f import KO
from wave_writer import write_wave

HERE = Path(__file__).resolve().parent / "wave_i"
REQUESTS = 24

Messages = list[dict[str, str]]


def h2ogpt_docqa(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """h2oGPT's default document Q&A: the chunks joined by blank lines inside triple quotes, the question
    after a fixed lead-in."""
    context = "\n\n".join(d.text for d in docs)
    return [
        {
            "role": "user",
            "content": f'Pay attention and remember the information below, which will help to answer the question or imperative after the context ends.\n"""\n{context}\n"""\nAccording to only the information in the document sources provided within the context above, {question}',
        }
    ]


def markdown_sections_de(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A docs-site assistant (German): each retrieved page section under its own '## title' heading."""
    context = "\n\n".join(f"## {d.title}\n{d.text}" for d in docs)
    return [
        {
            "role": "system",
            "content": f"Du bist der Hilfe-Assistent der Stadtwerke. Antworte nur mit den folgenden Abschnitten aus der Dokumentation.\n\n# Dokumentation\n\n{context}",
        },
        {"role": "user", "content": question},
    ]


def search_results_urls(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A search answer engine: each result as '[n] title (url)' with its snippet on the next line."""
    results = "\n\n".join(f"[{n}] {d.title} ({d.url})\n{d.text}" for n, d in enumerate(docs, 1))
    return [
        {
            "role": "system",
            "content": "You answer from web search results. Cite results inline as [n]. If the results do not answer the question, say so.",
        },
        {"role": "user", "content": f"Search results:\n\n{results}\n\nQuestion: {question}"},
    ]


def title_url_ko(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A Korean knowledge-base bot: '제목:' and 'URL:' lines before each text, no label before the text."""
    context = "\n\n".join(f"제목: {d.title}\nURL: {d.url}\n{d.text}" for d in docs)
    return [
        {
            "role": "user",
            "content": f"다음 문서를 참고하여 질문에 답하세요. 문서에 없는 내용은 모른다고 답하세요.\n\n{context}\n\n질문: {question}",
        }
    ]


SERVICES = [
    (
        "h2ogpt-docqa",
        "h2oGPT default document Q&A prompt",
        "chunks joined by blank lines in triple quotes, question after a lead-in",
        EN,
        h2ogpt_docqa,
    ),
    (
        "hilfe-abschnitte-de",
        "docs-site assistant, markdown sections",
        "'## title' heading per document in the system message, German",
        DE,
        markdown_sections_de,
    ),
    (
        "search-urls",
        "search answer engine",
        "'[n] title (url)' line before each snippet, then Question:",
        WEB,
        search_results_urls,
    ),
    (
        "jemok-url-ko",
        "Korean knowledge-base bot",
        "'제목:' and 'URL:' lines before each text, no content label",
        KO,
        title_url_ko,
    ),
]


def build() -> None:
    write_wave("wave_i", HERE, SERVICES, seed=9300, requests=REQUESTS, answer=_answer, as_sent=_as_sent)


if __name__ == "__main__":
    build()
