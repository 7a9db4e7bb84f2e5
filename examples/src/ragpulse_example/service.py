"""The RAG-Fusion service, instrumented with ragpulse's decorators.

Two variants so per-variant numbers mean something: ``A`` is plain RAG (the question alone, BM25 top 5) and
``B`` is RAG-Fusion (the question plus three variations, BM25 top 10 each, fused with RRF, top 5).

What a request is made to do on purpose is labelled on its root span (:mod:`ragpulse_example.labels`): a
planted unsupported statement, or degraded retrieval, where every retrieval returns chunks sharing no word
with the question, as a broken index would.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import ragpulse
from opentelemetry import trace

from ragpulse_example.backends import Backend
from ragpulse_example.bm25 import BM25Index
from ragpulse_example.injection import inject
from ragpulse_example.labels import DEGRADED_RETRIEVAL_ATTRIBUTE, PLANTED_ATTRIBUTE

PIPELINE = "pydoc-qa"
CHUNK_SOURCE = "python-reference"


@dataclass(frozen=True)
class Variant:
    name: str
    variation_count: int
    retrieve_depth: int
    context_size: int = 5


VARIANTS: dict[str, Variant] = {
    "A": Variant("A", variation_count=0, retrieve_depth=5),
    "B": Variant("B", variation_count=3, retrieve_depth=10),
}


def variant_named(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; choose from {', '.join(VARIANTS)}") from None


class RagFusionService:
    """One variant of the service; :meth:`ask` handles one request and is the traced root span."""

    def __init__(self, variant: Variant, backend: Backend, index: BM25Index) -> None:
        self.variant = variant
        self.backend = backend
        self.index = index
        self.last_trace_id = ""
        # Decorated per instance: the variant and the model name are only known at run time.
        self.ask = ragpulse.rag(pipeline=PIPELINE, variant=variant.name)(self._ask)
        self._variations = ragpulse.variations(self._make_variations)
        self._retrieve = ragpulse.retrieve(self._search)
        self._fuse = ragpulse.fuse(self._rrf)
        self._generate = ragpulse.generate(model=backend.model)(self._answer)

    def _ask(
        self,
        question: str,
        *,
        inject_seed: int | None = None,
        degraded_retrieval: bool = False,
        session_id: str | None = None,
    ) -> str:
        """Answer ``question``; with ``inject_seed`` an unsupported sentence is planted in the answer, with
        ``degraded_retrieval`` every retrieval returns chunks unrelated to the question; ``session_id`` names
        the conversation the question belongs to."""
        self.last_trace_id = format(trace.get_current_span().get_span_context().trace_id, "032x")
        if session_id is not None:
            ragpulse.set_session(session_id)
        if degraded_retrieval:
            ragpulse.set_attributes(**{DEGRADED_RETRIEVAL_ATTRIBUTE: True})
        unrelated_to = question if degraded_retrieval else None
        queries = [question]
        if self.variant.variation_count:
            queries += self._variations(question)
        rankings = [
            self._retrieve(query, query_index=index, unrelated_to=unrelated_to)
            for index, query in enumerate(queries)
        ]
        chunks = self._fuse(rankings) if len(rankings) > 1 else rankings[0][: self.variant.context_size]
        answer: str = self._generate(question, [_as_dict(chunk) for chunk in chunks])
        if inject_seed is not None:
            answer = inject(answer, question, inject_seed)
            ragpulse.set_attributes(**{PLANTED_ATTRIBUTE: True})
        return answer

    def _make_variations(self, question: str) -> list[str]:
        return self.backend.variations(question, self.variant.variation_count)

    def _search(
        self, query: str, *, query_index: int = 0, unrelated_to: str | None = None
    ) -> list[dict[str, Any]]:
        """BM25's best passages for ``query``, or with ``unrelated_to`` passages sharing no word with it."""
        depth = self.variant.retrieve_depth
        hits = (
            self.index.search(query, depth)
            if unrelated_to is None
            else self.index.unrelated(unrelated_to, depth, seed=unrelated_to)
        )
        return [
            {
                "id": hit.passage.id,
                "text": hit.passage.text,
                "score": round(hit.score, 4),
                "source": CHUNK_SOURCE,
            }
            for hit in hits
        ]

    def _rrf(self, rankings: Sequence[Sequence[dict[str, Any]]]) -> list[Any]:
        return list(ragpulse.rrf(rankings, k=60, top_n=self.variant.context_size))

    def _answer(self, question: str, chunks: Sequence[dict[str, Any]]) -> str:
        return self.backend.answer(question, [str(chunk["text"]) for chunk in chunks])


def _as_dict(chunk: Any) -> dict[str, Any]:
    """RRF returns FusedChunk objects, plain retrieval returns dicts; generate takes one shape."""
    if isinstance(chunk, dict):
        return chunk
    return {"id": chunk.id, "text": chunk.text, "score": chunk.score, "source": chunk.source}
