"""The state of the RAG request in progress, carried in a context variable.

Context variables follow the request into asyncio tasks and into threads that run with a copied context,
and streams re-enter the state of the request that created them on every step.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from opentelemetry.trace import Span
from opentelemetry.util.types import AttributeValue

from ragpulse import semconv
from ragpulse.chunks import Chunk
from ragpulse.internal import report_internal_error
from ragpulse.text import TextRecorder

if TYPE_CHECKING:
    from ragpulse.guarding import GuardVerdict

logger = logging.getLogger("ragpulse")


@dataclass(slots=True)
class Retrieval:
    query: str
    query_index: int
    documents: list[dict[str, Any]]
    """``{id, score, rank}`` per retrieved chunk, in the retriever's order."""


@dataclass(slots=True)
class RequestState:
    """What the steps of one request report to its root span, which records it all when it ends."""

    span: Span
    texts: TextRecorder
    """The root span's text recorder: what ``set_reference`` cut is listed with what the root cut."""
    question: str | None = None
    variations: list[str] | None = None
    retrievals: list[Retrieval] = field(default_factory=list)
    context: list[tuple[int, Chunk]] | None = None
    """``(rank, chunk)`` for the chunks that reached ``generate``, rank 1 first as it saw them."""
    other_queries: dict[str, int] = field(default_factory=dict)
    """Indices given to retrieval queries that are neither the question nor a variation."""
    guard_verdict: GuardVerdict | None = None
    """The ``GuardVerdict`` of the answer, when the root's ``guard`` option judged it."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def query_index(self, query: str) -> int:
        """The position of ``query`` among the request's queries: the question (0), then the variations
        that differ from it. Any other query gets the next free index the first time it is seen, so the
        same query keeps its index, whichever thread or task reaches the retriever first."""
        queries = [] if self.question is None else [self.question]
        queries += [variation for variation in self.variations or () if variation != self.question]
        if query in queries:
            return queries.index(query)
        with self.lock:
            index = self.other_queries.get(query)
            if index is None:
                index = len(queries) + len(self.other_queries)
                self.other_queries[query] = index
            return index


current_request: ContextVar[RequestState | None] = ContextVar("ragpulse_request", default=None)


def set_reference(answer: str) -> None:
    """Attach a known correct answer to the current request (``ragpulse.reference``)."""
    _set_on_root("set_reference", lambda recorder: _content_attribute(recorder, semconv.REFERENCE, answer))


def set_user(user_id: str) -> None:
    _set_on_root("set_user", lambda _recorder: {semconv.USER_ID: str(user_id)})


def set_session(session_id: str) -> None:
    _set_on_root("set_session", lambda _recorder: {semconv.SESSION_ID: str(session_id)})


def set_attributes(**attributes: AttributeValue) -> None:
    """Attach attributes to the current request's root span; text values are capped, not redacted.

    Names with dots go through a dict: ``set_attributes(**{"llm.token_count.prompt": 12})``.
    """

    def build(recorder: TextRecorder) -> dict[str, AttributeValue]:
        return {
            name: recorder.capped(name, value) if isinstance(value, str) else value
            for name, value in attributes.items()
        }

    _set_on_root("set_attributes", build)


def _content_attribute(recorder: TextRecorder, name: str, text: str) -> dict[str, AttributeValue]:
    value = recorder.content(name, str(text))
    return {} if value is None else {name: value}


def _set_on_root(what: str, build: Callable[[TextRecorder], dict[str, AttributeValue]]) -> None:
    state = current_request.get()
    if state is None:
        logger.debug("ragpulse: %s outside a @ragpulse.rag request is ignored", what)
        return
    try:
        state.span.set_attributes(build(state.texts))
    except Exception:
        report_internal_error(what)
