"""The RAG service every capture app runs, written as a service team writes one without any framework: its
own keyword search (BM25) over a handful of help-centre articles, the hits pasted into the prompt, and the
``openai`` client. It knows nothing about tracing; each app adds one instrumentation around it.

It also writes the case's ground truth (``expected.json``) from the values it really used: the question as
the user typed it, the texts it pasted into the prompt in that order, and the answer as the client returned
it. The capture script passes the case's fixed fields in ``CORPUS_CASE``, the output path in
``CORPUS_EXPECTED``.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections import Counter
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

MODEL = "gpt-4o-mini"


@dataclass(frozen=True)
class Article:
    id: str
    title: str
    text: str


ARTICLES = [
    Article("kb-101", "Trash and recovery",
            "Deleted files stay in the trash for 30 days. After 30 days they are removed for good and cannot "
            "be restored. Workspace owners can empty the trash earlier from the admin console."),
    Article("kb-102", "Sharing with guests",
            "You can share a folder with a guest who has no account by sending a view-only link. Guest links "
            "expire after 14 days unless the owner renews them. Guests cannot edit or upload files."),
    Article("kb-103", "Storage plans",
            "The Free plan includes 5 GB of storage. The Team plan includes 2 TB shared by the whole "
            "workspace. Extra storage can be bought in blocks of 100 GB."),
    Article("kb-104", "Two-step sign-in",
            "Two-step sign-in asks for a code from an authenticator app after your password. Admins can "
            "require it for every member of the workspace. Lost codes can be replaced with backup codes."),
    Article("kb-105", "Offline access",
            "The desktop app keeps starred folders available offline. Changes made offline sync as soon as "
            "the device reconnects. Conflicting edits are saved as a second copy of the file."),
    Article("kb-106", "Version history",
            "Every file keeps its previous versions for 90 days on the Team plan and 7 days on the Free "
            "plan. You can restore any earlier version from the file's history panel."),
    Article("kb-107", "Upload limits",
            "A single upload can be at most 50 GB through the desktop app. Uploads through the web browser "
            "are limited to 5 GB per file."),
    Article("kb-108", "Deleting an account",
            "Deleting your account removes all your files after a grace period of 30 days. During the grace "
            "period you can sign in again to cancel the deletion."),
]  # fmt: skip

QUESTIONS = {
    "trash": "How long do deleted files stay in the trash?",
    "guests": "Can I share a folder with someone who has no account?",
    "storage": "How much storage does the Team plan include?",
    "twostep": "Can admins require two-step sign-in for everyone?",
    "offline": "What happens to changes I make while offline?",
    "versions": "How long are previous versions of a file kept on the Free plan?",
    "uploads": "What is the largest file I can upload from the browser?",
    "account": "Can I cancel the deletion of my account?",
}

_TOKEN = re.compile(r"[a-z0-9]+")
_STOP_WORDS = frozenset(
    _TOKEN.findall("a an and are as at be by can do does for from how i in is it my of on or the to what who")
)


def _tokens(text: str) -> list[str]:
    return [token for token in _TOKEN.findall(text.lower()) if token not in _STOP_WORDS]


def search(query: str, k: int = 3) -> list[tuple[Article, float]]:
    """Okapi BM25 over title and text (k1 = 1.5, b = 0.75): the top ``k`` articles with their scores."""
    docs = [_tokens(f"{a.title} {a.text}") for a in ARTICLES]
    average = sum(map(len, docs)) / len(docs)
    frequency = Counter(term for doc in docs for term in set(doc))
    scored = []
    for article, doc in zip(ARTICLES, docs, strict=True):
        counts = Counter(doc)
        score = 0.0
        for term in set(_tokens(query)):
            if term not in counts:
                continue
            idf = math.log(1 + (len(docs) - frequency[term] + 0.5) / (frequency[term] + 0.5))
            tf = counts[term]
            score += idf * tf * 2.5 / (tf + 1.5 * (0.25 + 0.75 * len(doc) / average))
        scored.append((article, round(score, 4)))
    scored.sort(key=lambda hit: -hit[1])
    return scored[:k]


INSTRUCTIONS = "You are the help-centre assistant. Answer in one sentence, using only the documents given."
REWRITE = "Rewrite the user's question as a short search query. Reply with the query only."


def messages_for(shape: str, question: str, articles: list[Article]) -> list[dict[str, str]]:
    """The chat prompt in one of the shapes services use to paste documents into it."""
    texts = [a.text for a in articles]
    if shape == "system-context":  # docs in the system message under "Context:", user = the bare question
        context = "\n\n".join(texts)
        return [
            {"role": "system", "content": f"{INSTRUCTIONS}\n\nContext:\n{context}"},
            {"role": "user", "content": question},
        ]
    if shape == "user-numbered":  # one user message: numbered docs, then "Question: ..."
        numbered = "\n".join(f"[{i}] {text}" for i, text in enumerate(texts, 1))
        return [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": f"{INSTRUCTIONS}\n\nDocuments:\n{numbered}\n\nQuestion: {question}"},
        ]
    if shape == "doc-tags":  # one message per document, <doc id=...> tags, then the question
        return [
            {"role": "system", "content": INSTRUCTIONS},
            *({"role": "user", "content": f'<doc id="{a.id}">\n{a.text}\n</doc>'} for a in articles),
            {"role": "user", "content": question},
        ]
    if shape == "document-n":  # one system message per document, "Document N:" headers
        return [
            {"role": "system", "content": INSTRUCTIONS},
            *({"role": "system", "content": f"Document {i}:\n{text}"} for i, text in enumerate(texts, 1)),
            {"role": "user", "content": question},
        ]
    if shape == "dashes":  # docs between "---" lines in the user message, question first
        fenced = "\n---\n".join(texts)
        return [
            {"role": "system", "content": INSTRUCTIONS},
            {"role": "user", "content": f"{question}\n\nUse these sources:\n---\n{fenced}\n---"},
        ]
    if shape == "history":  # "Context:" system message, an earlier exchange, then the new question
        context = "\n\n".join(texts)
        return [
            {"role": "system", "content": f"{INSTRUCTIONS}\n\nContext:\n{context}"},
            {"role": "user", "content": "Hi, I have a question about my workspace."},
            {"role": "assistant", "content": "Of course. What would you like to know?"},
            {"role": "user", "content": question},
        ]
    raise ValueError(f"unknown prompt shape {shape!r}")


def ask(client: Any, messages: list[dict[str, str]], stream: bool = False) -> str:
    """One chat completion with the ``openai`` client; a stream is read to the end and joined."""
    if not stream:
        response = client.chat.completions.create(model=MODEL, messages=messages, temperature=0)
        return str(response.choices[0].message.content)
    chunks = client.chat.completions.create(
        model=MODEL, messages=messages, temperature=0, stream=True, stream_options={"include_usage": True}
    )
    return "".join(chunk.choices[0].delta.content or "" for chunk in chunks if chunk.choices)


def answer(client: Any, question: str, shape: str, stream: bool = False) -> tuple[str, list[Article]]:
    """The whole service: search, paste, ask. Returns the answer and the articles in prompt order."""
    articles = [article for article, _ in search(question)]
    return ask(client, messages_for(shape, question, articles), stream), articles


def record(question: str | None, context: list[str], reply: str | None) -> None:
    """Write ``expected.json``: the case's fixed fields plus what this run really used."""
    case = json.loads(os.environ["CORPUS_CASE"])
    # What the trace cannot know (content capture off, documents traced by id only) is not in the truth.
    hidden = set(case["hidden"])
    question = None if "question" in hidden else question
    context = [] if "context" in hidden else context
    reply = None if "answer" in hidden else reply
    truth = {
        "family": case["family"],
        "packages": {dist: metadata.version(dist) for dist in case["packages"]},
        "description": case["description"],
        "question": question,
        "context": context,
        "answer": reply,
        "source": case["source"],
        "context_source": case["context_source"],
        "unscorable": case["unscorable"],
    }
    Path(os.environ["CORPUS_EXPECTED"]).write_text(json.dumps(truth, indent=2, ensure_ascii=False) + "\n")


def case_arguments() -> dict[str, Any]:
    """The app's arguments: ``CORPUS_ARGS`` JSON (question key, prompt shape, stream, app-specific flags)."""
    arguments: dict[str, Any] = json.loads(os.environ.get("CORPUS_ARGS", "{}"))
    arguments["question"] = QUESTIONS[arguments.get("question", "trash")]
    return arguments
