"""One trace's spans → one request row, by the rules of DESIGN.md "Requests from any trace".

- question and answer from the root chain span (JSON unwrapped), else from the outermost LLM span and the
  generating LLM span;
- the generating LLM span is the one whose output holds the answer and whose prompt holds retrieved
  documents, the last to end among equals;
- context: the retrieved or reranked documents whose text appears in the generating span's prompt, in the
  order the prompt holds them; otherwise the reranker's output (or a fusion retriever's); otherwise the leaf
  retrievers' union in rank order;
- variations and per-variation rankings from the leaf retriever spans (a retriever with no retriever with
  documents below it); the question searched as such has query index 0, the others follow in the order the
  query-writing LLM wrote them;
- model and tokens from the generating LLM span.

The result depends only on the set of spans: duplicates and arrival order change nothing, and a missing span
costs only what it carried.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from ragpulse_scorers.assembly import names, spans
from ragpulse_scorers.assembly.names import Kind, Source
from ragpulse_scorers.assembly.spans import Document, TraceSpan, normalized
from ragpulse_scorers.assembly.unwrap import USER_ROLES, answer_text, messages_text, question_text

COLUMNS: Final = (
    "TraceId", "SpanId", "Timestamp", "ServiceName", "Pipeline", "Variant", "Question", "Answer", "Context",
    "Variations", "Retrievals", "Reference", "SessionId", "UserId", "DurationMs", "StatusCode", "SampleKey",
    "Source", "Model", "InputTokens", "OutputTokens",
)  # fmt: skip
"""The ``ragpulse_requests`` columns an assembled row fills."""


@dataclass(frozen=True)
class AssembledRequest:
    trace_id: str
    span_id: str
    timestamp: datetime
    service_name: str
    pipeline: str
    variant: str
    question: str
    answer: str
    context: str
    variations: str
    retrievals: str
    reference: str
    session_id: str
    user_id: str
    duration_ms: float
    status_code: str
    source: Source
    model: str
    input_tokens: int
    output_tokens: int

    def row(self, sample_key: int) -> list[Any]:
        """The row in :data:`COLUMNS` order."""
        return [
            self.trace_id, self.span_id, self.timestamp, self.service_name, self.pipeline, self.variant,
            self.question, self.answer, self.context, self.variations, self.retrievals, self.reference,
            self.session_id, self.user_id, self.duration_ms, self.status_code, sample_key, self.source.value,
            self.model, self.input_tokens, self.output_tokens,
        ]  # fmt: skip


class Trace:
    """The deduplicated spans of one trace, in start order, with their tree."""

    def __init__(self, delivered: Iterable[TraceSpan]) -> None:
        unique: dict[str, TraceSpan] = {}
        # A span delivered twice keeps one copy; which one must not depend on arrival order.
        for span in delivered:
            kept = unique.get(span.span_id)
            if kept is None or (kept != span and repr(span) < repr(kept)):
                unique[span.span_id] = span
        self.spans = sorted(unique.values(), key=lambda s: (s.timestamp, s.span_id))
        self._parents = {
            span.span_id: span.parent_span_id
            for span in self.spans
            if span.parent_span_id in unique and span.parent_span_id != span.span_id
        }
        self._depths = self._depth_map(unique)

    def _depth_map(self, unique: dict[str, TraceSpan]) -> dict[str, int]:
        depths: dict[str, int] = {}
        for span in self.spans:
            chain: list[TraceSpan] = []
            on_path: set[str] = set()
            current: TraceSpan | None = span
            # Walk up until a known depth, a missing parent or a cycle (malformed input must not hang).
            while current is not None and current.span_id not in depths and current.span_id not in on_path:
                chain.append(current)
                on_path.add(current.span_id)
                current = unique.get(current.parent_span_id)
            depth = depths.get(current.span_id, -1) if current is not None else -1
            for visited in reversed(chain):
                depth += 1
                depths[visited.span_id] = depth
        return depths

    def depth(self, span: TraceSpan) -> int:
        return self._depths[span.span_id]

    def ancestors(self, span_ids: set[str]) -> set[str]:
        """Every span above any of ``span_ids``: one walk up per span, each ancestor visited once."""
        found: set[str] = set()
        for span_id in span_ids:
            parent = self._parents.get(span_id)
            while parent is not None and parent not in found:
                found.add(parent)
                parent = self._parents.get(parent)
        return found

    def outermost(self, kinds: tuple[Kind, ...]) -> TraceSpan | None:
        found = [span for span in self.spans if span.kind in kinds]
        return min(found, key=lambda s: (self.depth(s), s.timestamp, s.span_id)) if found else None

    def root(self) -> TraceSpan:
        """The ragpulse root when there is one, else the top span (earliest, then longest)."""
        rag_roots = [span for span in self.spans if span.is_ragpulse_root]
        if rag_roots:
            return rag_roots[0]
        return min(self.spans, key=lambda s: (self.depth(s), s.timestamp, -s.duration_ns, s.span_id))


@dataclass(frozen=True)
class _Retrieval:
    span: TraceSpan
    query: str
    documents: list[Document]


def assemble(trace_id: str, delivered: Iterable[TraceSpan]) -> AssembledRequest | None:
    """The request a trace holds, or None when it holds none (no retrieval and no generation, no span of
    another instrumentation, or a ragpulse root that already recorded its context)."""
    trace = Trace(delivered)
    foreign = [span for span in trace.spans if span.is_foreign]
    if not foreign or not any(span.kind in names.REQUEST_KINDS for span in trace.spans):
        return None
    root = trace.root()
    if root.is_ragpulse_root and spans.json_list(root.get(names.RAGPULSE_CONTEXT)):
        return None
    documents = {span.span_id: spans.documents(span) for span in trace.spans}
    ids = _recorded_ids(documents.values())
    for span_id, found in documents.items():
        documents[span_id] = [_with_recorded_id(document, ids) for document in found]

    chain = trace.outermost((Kind.CHAIN, Kind.AGENT))
    answer = root.get(names.OUTPUT_VALUE) if root.is_ragpulse_root else ""
    if not answer and chain is not None:
        answer = answer_text(chain.get(names.OUTPUT_VALUE))
    retrievers = {s.span_id for s in trace.spans if s.kind is Kind.RETRIEVER and documents[s.span_id]}
    fusers = retrievers & trace.ancestors(retrievers)
    leaves = [
        _Retrieval(span, spans.query(span), documents[span.span_id])
        for span in trace.spans
        if span.span_id in retrievers - fusers
    ]
    final = _final_ranking(trace, documents, fusers)
    prompts = {span.span_id: spans.prompt_text(span) for span in trace.spans if span.kind is Kind.LLM}
    generator = _generator(trace, answer, documents, prompts)
    question = _question(root, chain, _outermost_llm(trace, generator))
    if not answer and generator is not None:
        answer = spans.output_text(generator)
    queries = _ordered_queries(trace, leaves, question, generator)
    context = _context(None if generator is None else prompts[generator.span_id], final, leaves)
    model, (input_tokens, output_tokens) = "", (0, 0)
    if generator is not None:
        model, (input_tokens, output_tokens) = spans.model(generator), spans.tokens(generator)

    ragpulse_root = root if root.is_ragpulse_root else None
    openinference = any(names.SPAN_KIND in span.attributes for span in foreign)
    return AssembledRequest(
        trace_id=trace_id,
        span_id=root.span_id,
        timestamp=root.timestamp,
        service_name=root.service_name,
        pipeline=root.get(names.RAGPULSE_PIPELINE) if ragpulse_root else (chain or root).name,
        variant=root.get(names.RAGPULSE_VARIANT),
        question=question,
        answer=answer,
        context=spans.to_json(context) if context else "",
        variations=_kept(ragpulse_root, names.RAGPULSE_VARIATIONS, _variations_json(queries)),
        retrievals=_kept(ragpulse_root, names.RAGPULSE_RETRIEVALS, _retrievals_json(leaves, queries)),
        reference=root.get(names.RAGPULSE_REFERENCE),
        session_id=_first(trace, root, names.SESSION_ID),
        user_id=_first(trace, root, names.USER_ID),
        duration_ms=root.duration_ns / 1e6,
        status_code=root.status_code,
        source=Source.OPENINFERENCE if openinference else Source.GENAI,
        model=model,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
    )


def _recorded_ids(found: Iterable[list[Document]]) -> dict[str, str]:
    """Text → recorded id, so a document recorded without an id in one span gets the id another span gave."""
    ids: dict[str, str] = {}
    for document in sorted((d for docs in found for d in docs), key=lambda d: (d.id, d.text)):
        if document.text and not document.id.startswith("sha256:"):
            ids.setdefault(document.key, document.id)
    return ids


def _with_recorded_id(document: Document, ids: dict[str, str]) -> Document:
    if document.id.startswith("sha256:") and document.key in ids:
        return Document(ids[document.key], document.text, document.score, document.source)
    return document


def _question(root: TraceSpan, chain: TraceSpan | None, outermost_llm: TraceSpan | None) -> str:
    if root.is_ragpulse_root and root.get(names.INPUT_VALUE):
        return root.get(names.INPUT_VALUE)
    if chain is not None and chain.get(names.INPUT_VALUE):
        return question_text(chain.get(names.INPUT_VALUE))
    if outermost_llm is None:
        return ""
    user_messages = [
        fields.get("message.content", "")
        for fields in spans.indexed(outermost_llm.attributes, names.LLM_INPUT_MESSAGES)
        if fields.get("message.role", "").lower() in USER_ROLES
    ]
    user_messages += messages_text(outermost_llm.get(names.GEN_AI_INPUT_MESSAGES), USER_ROLES)
    if user_messages:
        return user_messages[-1]
    return question_text(outermost_llm.get(names.INPUT_VALUE))


def _outermost_llm(trace: Trace, generator: TraceSpan | None) -> TraceSpan | None:
    """The LLM span nearest the root; among siblings, the generating one (not a query writer before it)."""
    llms = [span for span in trace.spans if span.kind is Kind.LLM]
    if not llms:
        return None
    return min(llms, key=lambda s: (trace.depth(s), s is not generator, s.timestamp, s.span_id))


def _final_ranking(trace: Trace, documents: dict[str, list[Document]], fusers: set[str]) -> list[Document]:
    """The reranked list: the last reranker's output, else the outermost retriever that fused others."""
    rerankers = [s for s in trace.spans if s.kind is Kind.RERANKER and documents[s.span_id]]
    if rerankers:
        return documents[max(rerankers, key=lambda s: (s.end, s.span_id)).span_id]
    outer = [span for span in trace.spans if span.span_id in fusers]
    if outer:
        return documents[min(outer, key=lambda s: (trace.depth(s), s.timestamp, s.span_id)).span_id]
    return []


def _generator(
    trace: Trace, answer: str, documents: dict[str, list[Document]], prompts: dict[str, str]
) -> TraceSpan | None:
    """The LLM span that wrote the answer: its output holds the answer, its prompt holds retrieved
    documents, and (among equals) it ended last, as a final answer does after query writers and checks."""
    llms = [span for span in trace.spans if span.kind is Kind.LLM]
    if not llms:
        return None
    texts = {d.key for found in documents.values() for d in found if d.key}
    wanted = normalized(answer)

    def rank(span: TraceSpan) -> tuple[bool, bool, datetime, str]:
        matches = bool(wanted) and wanted in normalized(spans.output_text(span))
        prompt = prompts[span.span_id]
        return (matches, any(text in prompt for text in texts), span.end, span.span_id)

    return max(llms, key=rank)


def _ordered_queries(
    trace: Trace, leaves: list[_Retrieval], question: str, generator: TraceSpan | None
) -> list[str]:
    """The distinct queries searched: the question first when it was searched as such, then in the order
    the query-writing LLM wrote them (never the order in which parallel searches happened to start)."""
    written = normalized(
        "\n".join(spans.output_text(s) for s in trace.spans if s.kind is Kind.LLM and s is not generator)
    )
    first_seen: dict[str, int] = {}
    for position, leaf in enumerate(leaves):
        first_seen.setdefault(leaf.query, position)
    asked = normalized(question)

    def order(query: str) -> tuple[int, int, int, str]:
        at = written.find(normalized(query)) if query.strip() else -1
        return (
            0 if normalized(query) == asked else 1,
            at if at >= 0 else len(written) + 1,
            first_seen[query],
            query,
        )

    return sorted(first_seen, key=order)


def _variations_json(queries: list[str]) -> str:
    """A single query is a plain retrieval, not a set of variations."""
    return spans.to_json(queries) if len(queries) > 1 else ""


def _retrievals_json(leaves: list[_Retrieval], queries: list[str]) -> str:
    if not leaves:
        return ""
    index = {query: position for position, query in enumerate(queries)}
    ordered = sorted(leaves, key=lambda leaf: (index[leaf.query], leaf.span.timestamp, leaf.span.span_id))
    return spans.to_json(
        [
            {
                "query": leaf.query,
                "query_index": index[leaf.query],
                "documents": [
                    {"id": document.id, "score": document.score, "rank": rank}
                    for rank, document in enumerate(leaf.documents, 1)
                ],
            }
            for leaf in ordered
        ]
    )


def _context(prompt: str | None, final: list[Document], leaves: list[_Retrieval]) -> list[dict[str, Any]]:
    union = _union_in_rank_order(leaves)
    chosen = _seen_by(prompt, final + union) if prompt is not None else []
    chosen = chosen or final or union
    final_scores = {document.id: document.score for document in final}
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


def _union_in_rank_order(leaves: list[_Retrieval]) -> list[Document]:
    """Every leaf's first document, then every leaf's second, ...: each id once."""
    seen: set[str] = set()
    union = []
    depth = max((len(leaf.documents) for leaf in leaves), default=0)
    for rank in range(depth):
        for leaf in leaves:
            if rank < len(leaf.documents) and leaf.documents[rank].id not in seen:
                seen.add(leaf.documents[rank].id)
                union.append(leaf.documents[rank])
    return union


def _seen_by(prompt: str, candidates: list[Document]) -> list[Document]:
    """The candidates whose text is in the generator's (normalized) prompt, in the order it holds them."""
    found: dict[str, tuple[int, Document]] = {}
    for document in candidates:
        text = document.key
        at = prompt.find(text) if text else -1
        if at >= 0 and document.id not in found and all(text != d.key for _, d in found.values()):
            found[document.id] = (at, document)
    return [document for _, document in sorted(found.values(), key=lambda item: (item[0], item[1].id))]


def _kept(root: TraceSpan | None, key: str, derived: str) -> str:
    """A ragpulse root's own value when it recorded one, else what the trace's other spans give."""
    if root is not None and spans.json_list(root.get(key)):
        return root.get(key)
    return derived


def _first(trace: Trace, root: TraceSpan, key: str) -> str:
    if root.get(key):
        return root.get(key)
    return next((span.get(key) for span in trace.spans if span.get(key)), "")
