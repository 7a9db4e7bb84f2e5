"""Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ragpulse.chunks import Chunk, to_chunk

DEFAULT_K = 60


class FusedChunk(str):
    """One chunk of a fused ranking. It is its text (a ``str``), so fused chunks go straight into a prompt
    (``" ".join(chunks)``, f-strings), and it carries what fusion knows about it as read-only attributes."""

    id: str
    text: str
    score: float
    """The fused score: the sum of ``1 / (k + rank)`` over the rankings that hold the chunk."""
    rank: int
    """1-based position in the fused ranking."""
    source: str | None
    metadata: Mapping[str, Any]
    chunk: object
    """The application's original object (its first occurrence)."""

    def __new__(
        cls,
        *,
        id: str,
        text: str,
        score: float,
        rank: int,
        source: str | None,
        metadata: Mapping[str, Any],
        chunk: object,
    ) -> FusedChunk:
        self = super().__new__(cls, text)
        self.__dict__.update(
            id=id, text=text, score=score, rank=rank, source=source, metadata=metadata, chunk=chunk
        )
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"FusedChunk is read-only: cannot set {name!r}")

    def __getnewargs_ex__(self) -> tuple[tuple[()], dict[str, Any]]:
        return (), dict(self.__dict__)

    def __repr__(self) -> str:
        return f"FusedChunk(id={self.id!r}, rank={self.rank}, score={self.score!r}, text={self.text!r})"


@dataclass(slots=True)
class _Candidate:
    chunk: Chunk
    original: object
    contributions: list[float]
    best_rank: int


def rrf(
    rankings: Sequence[Sequence[object]], k: int = DEFAULT_K, top_n: int | None = None
) -> list[FusedChunk]:
    """Fuse rankings into one: ``score(d) = Σ 1 / (k + rank_i(d))`` with 1-based ranks, highest first.

    Chunks are the same when their ids are (a chunk without id gets a hash of its text); within one ranking
    only a chunk's first occurrence counts. Ties are broken by best rank, then id, so the result does not
    depend on the order of the rankings. Raises ``ChunkError`` for an item that is not a chunk and
    ``ValueError`` for a negative ``k`` or ``top_n``.
    """
    if k < 0:
        raise ValueError(f"k must be >= 0, got {k}")
    if top_n is not None and top_n < 0:
        raise ValueError(f"top_n must be >= 0, got {top_n}")
    candidates: dict[str, _Candidate] = {}
    for ranking in rankings:
        seen: set[str] = set()
        for position, item in enumerate(ranking):
            chunk = to_chunk(item, position)
            if chunk.id in seen:
                continue
            seen.add(chunk.id)
            rank = position + 1
            candidate = candidates.get(chunk.id)
            if candidate is None:
                candidates[chunk.id] = _Candidate(chunk, item, [1.0 / (k + rank)], rank)
            else:
                candidate.contributions.append(1.0 / (k + rank))
                candidate.best_rank = min(candidate.best_rank, rank)
    # fsum is exactly rounded, so a chunk's score is the same whatever order the rankings came in.
    scored = [(math.fsum(candidate.contributions), candidate) for candidate in candidates.values()]
    scored.sort(key=lambda pair: (-pair[0], pair[1].best_rank, pair[1].chunk.id))
    if top_n is not None:
        scored = scored[:top_n]
    return [
        FusedChunk(
            id=candidate.chunk.id,
            text=candidate.chunk.text,
            score=score,
            rank=rank,
            source=candidate.chunk.source,
            metadata=candidate.chunk.metadata,
            chunk=candidate.original,
        )
        for rank, (score, candidate) in enumerate(scored, start=1)
    ]
