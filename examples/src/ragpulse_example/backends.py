"""Where variations and answers come from: an OpenAI-compatible model, or the labelled stand-ins."""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from ragpulse_example.bm25 import BM25Index, default_index
from ragpulse_example.standins import STANDIN_MODEL, extractive_answer, rewrite_variations, speaks_to

if TYPE_CHECKING:
    from openai import OpenAI

logger = logging.getLogger(__name__)

DEFAULT_MODEL = "gpt-4o-mini"

_VARIATIONS_PROMPT = (
    "You write search queries for a search engine over the Python language reference. Given a question, "
    "write {count} different search queries that together cover it. Answer with one query per line and "
    "nothing else."
)
_ANSWER_PROMPT = (
    "Answer the question using only the numbered passages from the Python language reference. Be concise "
    "(at most four sentences). If the passages do not contain the answer, say so."
)


class Backend(Protocol):
    model: str

    def variations(self, question: str, count: int) -> list[str]: ...

    def answer(self, question: str, passages: Sequence[str]) -> str: ...


class StandinBackend:
    """Rule-based rewrites and extractive answers: deterministic, offline, and labelled as such.

    Given passages that share no word with the question, the stand-in does what a model often does with
    passages that miss the point: it answers from what it knows, here the passages a sound retriever finds in
    ``knowledge``. Such an answer is true but unsupported by the context it was given.
    """

    model = STANDIN_MODEL

    def __init__(self, knowledge: BM25Index | None = None) -> None:
        self._knowledge = knowledge

    def variations(self, question: str, count: int) -> list[str]:
        return rewrite_variations(question, count)

    def answer(self, question: str, passages: Sequence[str]) -> str:
        if speaks_to(question, passages):
            return extractive_answer(question, passages)
        knowledge = self._knowledge or default_index()
        return extractive_answer(question, [hit.passage.text for hit in knowledge.search(question, 5)])


class OpenAIBackend:
    """Any OpenAI-compatible Chat Completions endpoint (the openai client reads OPENAI_BASE_URL/API_KEY)."""

    def __init__(self, model: str, client: OpenAI | None = None) -> None:
        from openai import OpenAI

        self.model = model
        # Local servers (vLLM, Ollama) need no key, but the client insists on one.
        self._client = client or OpenAI(
            api_key=os.environ.get("OPENAI_API_KEY") or "unused", max_retries=3, timeout=60
        )

    def _complete(self, system: str, user: str) -> str:
        response = self._client.chat.completions.create(
            model=self.model,
            messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
            temperature=0,
        )
        return (response.choices[0].message.content or "").strip()

    def variations(self, question: str, count: int) -> list[str]:
        text = self._complete(_VARIATIONS_PROMPT.format(count=count), question)
        lines = [line.strip().lstrip("-*0123456789.) ").strip() for line in text.splitlines()]
        return [line for line in lines if line][:count]

    def answer(self, question: str, passages: Sequence[str]) -> str:
        numbered = "\n\n".join(f"[{number}] {text}" for number, text in enumerate(passages, start=1))
        return self._complete(_ANSWER_PROMPT, f"Passages:\n{numbered}\n\nQuestion: {question}")


def llm_configured() -> bool:
    return bool(os.environ.get("OPENAI_BASE_URL") or os.environ.get("OPENAI_API_KEY"))


def default_backend() -> Backend:
    """The model named by ``RAGPULSE_EXAMPLE_MODEL`` when an endpoint is configured, else the stand-ins."""
    if llm_configured():
        model = os.environ.get("RAGPULSE_EXAMPLE_MODEL") or DEFAULT_MODEL
        logger.info("example service: variations and answers from model %s", model)
        return OpenAIBackend(model)
    logger.info(
        "example service: no OPENAI_BASE_URL/OPENAI_API_KEY, so variations are rule-based rewrites and "
        "answers are extractive stand-ins (model name %r), not a language model",
        STANDIN_MODEL,
    )
    return StandinBackend()
