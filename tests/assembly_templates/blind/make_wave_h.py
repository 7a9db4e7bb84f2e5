# ruff: noqa: E501
"""Blind wave H (a first trial): two templates from frameworks no earlier wave used, written at the end of a
stop and measured once with main's readers, nothing changed for them (Embedchain's default QA prompt with its
contexts joined by " | "; a Danswer-like prompt with "DOCUMENT n: title" blocks). Misses are left for the next
change.

    python tests/assembly_templates/blind/make_wave_h.py   # writes wave_h/*.json (deterministic)
"""

from __future__ import annotations

import random
from pathlib import Path

from make_wave_e import EN, Doc, _answer, _as_sent
from wave_writer import write_wave

Messages = list[dict[str, str]]


def embedchain(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """Embedchain's default QA prompt: contexts joined by ' | ' on one line."""
    context = " | ".join(d.text.replace("\n", " ") for d in docs)
    return [
        {
            "role": "user",
            "content": f"Use the following pieces of context to answer the query at the end.\nIf you don't know the answer, just say that you don't know, don't try to make up an answer.\n\n{context}\n\nQuery: {question}\n\nHelpful Answer:",
        }
    ]


def danswer(docs: list[Doc], question: str, rng: random.Random) -> Messages:
    """A Danswer-like prompt: numbered documents with a DOCUMENT header and title, then the query."""
    body = "\n\n".join(f"DOCUMENT {n}: {d.title}\n{d.text}" for n, d in enumerate(docs, 1))
    return [
        {
            "role": "system",
            "content": "You are a question answering system that is constantly learning and improving. Cite the documents you use as [1], [2].",
        },
        {"role": "user", "content": f"CONTEXT:\n---\n{body}\n---\n\nQUERY:\n{question}"},
    ]


SERVICES = [
    ("embedchain-qa", "Embedchain default", "pipe-joined one line", EN, embedchain),
    ("danswer-like", "Danswer-like", "DOCUMENT n: title header", EN, danswer),
]
HERE = Path(__file__).resolve().parent / "wave_h"


def build() -> None:
    write_wave("wave_h", HERE, SERVICES, seed=9100, requests=24, answer=_answer, as_sent=_as_sent)


if __name__ == "__main__":
    build()
