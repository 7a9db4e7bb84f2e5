"""Which documents are a request's context, and where they were found: the documents the generating call's
prompt holds, else those pasted into it, else the reranker's or fusion retriever's ranking, else the
retrievers' union; documents recorded by id only take their text from another span that recorded it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ragpulse_assembly.model import Document, Span
from ragpulse_assembly.names import ContextSource
from ragpulse_assembly.readings import PastedReading
from ragpulse_assembly.trace import Trace
from ragpulse_assembly.unwrap import parse_json


@dataclass(frozen=True)
class ChosenContext:
    chunks: list[dict[str, Any]]
    source: ContextSource
    unavailable: bool
    """Documents were recorded, by id only, and their text is nowhere: the context exists but is unknown."""
    not_separable: bool = False
    """The prompt refers to documents that could not be told apart from its instructions."""
    disagreement: str = ""
    """The learnt template and the structure rules read the prompt's documents differently (both readings)."""
    pending: bool = False
    """The context depends on the prompt, whose template is not learnt yet."""


def resolved_documents(spans: list[Span]) -> dict[str, list[Document]]:
    """Each span's documents, with one id per text across the trace (a document recorded without an id in
    one span gets the id another span gave it) and texts filled in by id (a document recorded by id only
    gets the text another span recorded for that id)."""
    ids: dict[str, str] = {}
    texts: dict[str, str] = {}
    every = sorted((d for span in spans for d in span.documents), key=lambda d: (d.id, d.text))
    for document in every:
        if document.text and not document.id.startswith("sha256:"):
            ids.setdefault(document.key, document.id)
            texts.setdefault(document.id, document.text)
    resolved: dict[str, list[Document]] = {}
    for span in spans:
        found = []
        for document in span.documents:
            if not document.text and document.id in texts:
                document = Document(document.id, texts[document.id], document.score, document.source)
            elif document.id.startswith("sha256:") and document.key in ids:
                document = Document(ids[document.key], document.text, document.score, document.source)
            found.append(document)
        resolved[span.span_id] = found
    return resolved


def choose_context(
    trace: Trace,
    generator: Span | None,
    final: list[Document],
    union: list[Document],
    documents: dict[str, list[Document]],
    pasted: PastedReading | None,
) -> ChosenContext:
    """The chunks the generator saw, and where they were found. ``pasted``: the generator's prompt read for
    pasted documents."""
    origins = {s.span_id: s.document_origin for s in trace.spans}
    retrieved = [d for d in final + union if d.text]
    ranked = [d for d in final or union if d.text]
    # Texts a retriever span recorded itself: a text found by id elsewhere makes the context "documents".
    from_retrievers = {
        d.key
        for s in trace.spans
        if s.document_origin is ContextSource.RETRIEVER
        for d in s.documents
        if d.text
    }
    listed = [
        d
        for span_id, found in documents.items()
        if origins[span_id] is ContextSource.DOCUMENTS
        for d in found
        if d.text
    ]
    prompt = generator.prompt if generator is not None else ""
    unavailable = any(not d.text for found in documents.values() for d in found)
    final_scores = {document.id: document.score for document in final}
    if prompt:
        seen = seen_by(prompt, retrieved + listed)
        if seen:
            return ChosenContext(chunk_rows(seen, final_scores), _origin(seen, from_retrievers), unavailable)
    # A prompt that holds none of the retrieved documents but documents of its own: those are what the
    # model saw (a retrieval for another purpose, or documents rewritten before pasting).
    chunks = pasted.chunks if pasted is not None else ()
    disagreement = pasted.disagreement if pasted is not None else ""
    if ranked and not chunks and not disagreement:
        return ChosenContext(chunk_rows(ranked, final_scores), _origin(ranked, from_retrievers), unavailable)
    pending = pasted is not None and pasted.pending
    if chunks:
        found = [Document(_pasted_id(n), text) for n, text in enumerate(chunks, 1)]
        return ChosenContext(chunk_rows(found, {}), ContextSource.PROMPT, unavailable, pending=pending)
    if listed and not prompt:
        return ChosenContext(chunk_rows(listed, {}), ContextSource.DOCUMENTS, unavailable)
    not_separable = pasted is not None and pasted.not_separable
    return ChosenContext([], ContextSource.NONE, unavailable, not_separable, disagreement, pending)


def _origin(chosen: list[Document], from_retrievers: set[str]) -> ContextSource:
    """RETRIEVER when retriever spans returned every chosen document, else DOCUMENTS."""
    by_retriever = all(document.key in from_retrievers for document in chosen)
    return ContextSource.RETRIEVER if by_retriever else ContextSource.DOCUMENTS


def _pasted_id(position: int) -> str:
    """Documents found in a prompt have no id but their place in it."""
    return f"prompt:{position}"


def chunk_rows(chosen: list[Document], final_scores: dict[str, float | None]) -> list[dict[str, Any]]:
    """The chunks as ``ragpulse_requests.Context`` holds them, in rank order."""
    return [
        {
            "id": document.id,
            "text": document.text,
            "score": final_scores.get(document.id, document.score),
            "rank": rank,
            "source": document.source,
        }
        for rank, document in enumerate(chosen, 1)
    ]


def seen_by(prompt: str, candidates: list[Document]) -> list[Document]:
    """The candidates whose text is in the generator's (normalized) prompt, in the order it holds them."""
    found: dict[str, tuple[int, Document]] = {}
    for document in candidates:
        text = document.key
        at = prompt.find(text) if text else -1
        if at >= 0 and document.id not in found and all(text != d.key for _, d in found.values()):
            found[document.id] = (at, document)
    return [document for _, document in sorted(found.values(), key=lambda item: (item[0], item[1].id))]


def context_texts(context: str) -> list[str]:
    """The chunks' texts of a stored ``ragpulse_requests.Context``, in rank order."""
    parsed = parse_json(context) if context else None
    if not isinstance(parsed, list):
        return []
    return [str(chunk.get("text", "")) for chunk in parsed if isinstance(chunk, dict)]
