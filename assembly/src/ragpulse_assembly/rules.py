"""One trace's spans → one request row, by the rules of DESIGN.md "Requests from any trace". The rules read
only the common span model (:mod:`ragpulse_assembly.model`), never a family's keys:

- question and answer from the ragpulse root, else the outermost chain span that recorded them, else the
  outermost LLM span's last user message (without the documents pasted into it) and the generating LLM
  span's output;
- the generating LLM span is the one whose output holds the answer and whose prompt holds retrieved
  documents, the last to end among equals;
- context: the documents whose text appears in the generating span's prompt, in the order the prompt holds
  them; otherwise the documents pasted into the prompt itself, when it holds some; otherwise the reranker's
  output (or a fusion retriever's), otherwise the leaf retrievers' union in rank order; documents recorded by
  id only take their text from another span that recorded the same id;
- variations and per-variation rankings from the leaf retriever spans (a retriever with no retriever with
  documents below it); the question searched as such has query index 0, the others follow in the order the
  query-writing LLM wrote them;
- model and tokens from the generating LLM span (or the LLM call inside it that counted them);
- a request that cannot be judged says why (:mod:`ragpulse_assembly.reasons`), and
  :mod:`ragpulse_assembly.guard` refuses serialized values whatever dialect produced them.

The result depends only on the set of spans: duplicates and arrival order change nothing, and a missing span
costs only what it carried.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Final

from ragpulse_assembly import guard
from ragpulse_assembly.context import ChosenContext, choose_context, resolved_documents
from ragpulse_assembly.model import Document, Message, Role, Span, TraceSpan, Unread, normalized
from ragpulse_assembly.names import REQUEST_KINDS, ContextSource, Kind, Source
from ragpulse_assembly.prompt_context import answer_of, read_prompt
from ragpulse_assembly.reading_checks import checked, outside_question
from ragpulse_assembly.readings import RULES_ONLY, Readers, read_pasted
from ragpulse_assembly.reasons import Unscorable
from ragpulse_assembly.trace import Trace
from ragpulse_assembly.unwrap import parse_json

COLUMNS: Final = (
    "TraceId", "SpanId", "Timestamp", "ServiceName", "Pipeline", "Variant", "Question", "Answer", "Context",
    "Variations", "Retrievals", "Reference", "SessionId", "UserId", "DurationMs", "StatusCode", "SampleKey",
    "Source", "Model", "InputTokens", "OutputTokens", "ContextSource", "Unscorable", "TemplateVersion",
    "UnscorableDetail",
)  # fmt: skip
"""The ``ragpulse_requests`` columns an assembled row fills."""
FAILED_STATUS: Final = "Error"
"""``otel_traces.StatusCode`` of a span that ended in error."""


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
    context_source: ContextSource
    unscorable: Unscorable
    template_version: str = ""
    """The learnt template that read the generating call's prompt ("" when none did)."""
    unscorable_detail: str = ""
    """What a reason code alone does not say: both readings of a prompt they disagree on."""
    pending: bool = False
    """Its context depends on a prompt whose template is not learnt yet: the caller may hold it."""

    def row(self, sample_key: int) -> list[Any]:
        """The row in :data:`COLUMNS` order."""
        return [
            self.trace_id, self.span_id, self.timestamp, self.service_name, self.pipeline, self.variant,
            self.question, self.answer, self.context, self.variations, self.retrievals, self.reference,
            self.session_id, self.user_id, self.duration_ms, self.status_code, sample_key, self.source.value,
            self.model, self.input_tokens, self.output_tokens, self.context_source.value,
            self.unscorable.value, self.template_version, self.unscorable_detail,
        ]  # fmt: skip


@dataclass(frozen=True)
class _Retrieval:
    span: Span
    query: str
    documents: list[Document]


def assemble(
    trace_id: str, delivered: Iterable[TraceSpan], readers: Readers = RULES_ONLY
) -> AssembledRequest | None:
    """The request a trace holds, or None when it holds none (no retrieval and no generation, no span of
    another instrumentation, or a ragpulse root that already recorded its context). ``readers``: how
    documents pasted into the prompt are read (the structure rules, learnt templates, or both)."""
    trace = Trace(delivered)
    foreign = [span for span in trace.spans if span.source not in (None, Source.RAGPULSE)]
    if not foreign or not any(span.kind in REQUEST_KINDS for span in trace.spans):
        return None
    root = trace.root()
    rag = root.rag
    if rag is not None and _json_list(rag.context):
        return None
    documents = resolved_documents(trace.spans)

    recorded = [span for span in trace.spans if span.kind in (Kind.CHAIN, Kind.AGENT) and _recorded(span)]
    chain = root if rag is not None else trace.outermost(recorded)
    answer = rag.answer if rag is not None else ""
    if not answer and chain is not None:
        answer = chain.output_text
    retrievers = {
        s.span_id for s in trace.spans if s.kind in (Kind.RETRIEVER, Kind.RERANKER) and documents[s.span_id]
    }
    fusers = retrievers & trace.ancestors(retrievers)
    leaves = [
        _Retrieval(span, span.input_text, documents[span.span_id])
        for span in trace.spans
        if span.span_id in retrievers - fusers and span.kind is Kind.RETRIEVER
    ]
    final = _final_ranking(trace, documents, fusers)
    generator = _generator(trace, answer, documents)
    outermost_llm = _outermost_llm(trace, generator)
    recorded_question = _recorded_question(rag, chain)
    question = recorded_question or _prompt_question(outermost_llm, generator, readers)
    pasted = (
        outside_question(
            checked(read_pasted(generator, question, recorded_question, readers), generator, readers),
            recorded_question,
        )
        if generator is not None
        else None
    )
    if (
        not recorded_question
        and pasted is not None
        and outermost_llm is generator
        and (pasted.version or not readers.rules)
    ):
        question = pasted.question
    generated = answer_of(generator.output_text) if generator is not None else ""
    if generator is not None and (
        not answer or (rag is None and not _said_by_a_model(trace, answer, generated))
    ):
        # A chain's answer no model wrote (a field picked from a structure, a status) is not judged: the
        # generating call's own answer is.
        answer = generated or ""
    queries = _ordered_queries(trace, leaves, question, generator)
    context = choose_context(trace, generator, final, _union_in_rank_order(leaves), documents, pasted)
    model, input_tokens, output_tokens = _usage(trace, generator)
    chunks = [str(chunk["text"]) for chunk in context.chunks]
    if rag is None and guard.holds_a_chunk(question, chunks):
        # A chain handed the whole prompt: the user's words are in it, as in an LLM's user message.
        question = read_prompt([Message(Role.USER, question)]).question or question
    speakers = [span for span in (chain, generator, outermost_llm) if span is not None]
    if generated is None and generator is not None:
        speakers.append(replace(generator, unread=generator.unread | {Unread.OUTPUT}))
    unscorable = _unscorable(question, answer, chunks, context, trace, speakers)
    if context.disagreement and unscorable in (
        Unscorable.SCORABLE,
        Unscorable.NO_CONTEXT,
        Unscorable.NO_QUESTION,
    ):
        # Two readings that disagree leave the question out too (when they ask differently): that is why.
        unscorable = Unscorable.READINGS_DISAGREE
    if root.status_code == FAILED_STATUS and unscorable in (Unscorable.NO_ANSWER, Unscorable.NO_CONTENT):
        # Nothing was answered because the request failed: saying so beats advice about content capture.
        unscorable = Unscorable.REQUEST_FAILED

    source = _source(trace, generator, chain, foreign)
    return AssembledRequest(
        trace_id=trace_id,
        span_id=root.span_id,
        timestamp=root.timestamp,
        service_name=root.service_name,
        pipeline=rag.pipeline if rag is not None else (chain or root).name,
        variant=rag.variant if rag is not None else "",
        question=question,
        answer=answer,
        context=json.dumps(context.chunks, ensure_ascii=False, separators=(",", ":"))
        if context.chunks
        else "",
        variations=_kept(rag.variations if rag else "", _variations_json(queries)),
        retrievals=_kept(rag.retrievals if rag else "", _retrievals_json(leaves, queries)),
        reference=rag.reference if rag is not None else "",
        session_id=_first(trace, root, "session_id"),
        user_id=_first(trace, root, "user_id"),
        duration_ms=root.duration_ns / 1e6,
        status_code=root.status_code,
        source=source,
        model=model,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        context_source=context.source if context.chunks else ContextSource.NONE,
        unscorable=unscorable,
        template_version=pasted.version if pasted is not None else "",
        unscorable_detail=context.disagreement if unscorable is Unscorable.READINGS_DISAGREE else "",
        pending=context.pending,
    )


def _recorded(span: Span) -> bool:
    """The span recorded a question or an answer (or tried to, in a shape that could not be read)."""
    return bool(span.input_text or span.output_text or span.unread)


def _recorded_question(rag: Any, chain: Span | None) -> str:
    """The question a ragpulse root or a chain span recorded as such."""
    if rag is not None and rag.question:
        return str(rag.question)
    if chain is not None and chain.input_text:
        return chain.input_text
    return ""


def _prompt_question(outermost_llm: Span | None, generator: Span | None, readers: Readers) -> str:
    """The question the rules read in the outermost LLM call's prompt (the generator's is read with its
    documents, by both readings)."""
    if outermost_llm is None or not readers.rules:
        return ""
    return read_prompt(outermost_llm.messages).question


def _said_by_a_model(trace: Trace, answer: str, generated: str | None) -> bool:
    """The chain's answer is what some LLM span wrote (give or take the edges a chain trims or adds), or no
    LLM span recorded an answer to compare it with."""
    outputs = [generated or "", *(span.output_text for span in trace.spans if span.kind is Kind.LLM)]
    said = [normalized(text) for text in outputs if text.strip()]
    return not said or any(_agree(normalized(answer), text) for text in said)


def _agree(first: str, second: str) -> bool:
    """One text holds the other, or most of the shorter one's words are in the longer one."""
    if first in second or second in first:
        return True
    words = [set(text.lower().split()) for text in (first, second)]
    shorter = min(words, key=len)
    return bool(shorter) and len(words[0] & words[1]) / len(shorter) >= 0.6


def _outermost_llm(trace: Trace, generator: Span | None) -> Span | None:
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
    outer = trace.outermost(span for span in trace.spans if span.span_id in fusers)
    return documents[outer.span_id] if outer is not None else []


def _generator(trace: Trace, answer: str, documents: dict[str, list[Document]]) -> Span | None:
    """The LLM span that wrote the answer: its output holds the answer, its prompt holds retrieved
    documents, and (among equals) it is the outermost and ended last, as a final answer does after query
    writers and checks."""
    llms = [span for span in trace.spans if span.kind is Kind.LLM]
    if not llms:
        return None
    texts = {d.key for found in documents.values() for d in found if d.key}
    wanted = normalized(answer)

    def rank(span: Span) -> tuple[bool, bool, int, datetime, str]:
        matches = bool(wanted) and wanted in normalized(span.output_text)
        prompt = span.prompt
        # Among equals, the outer of nested calls (a DSPy LM over the client call it makes).
        return (matches, any(text in prompt for text in texts), -trace.depth(span), span.end, span.span_id)

    return max(llms, key=rank)


def _ordered_queries(
    trace: Trace, leaves: list[_Retrieval], question: str, generator: Span | None
) -> list[str]:
    """The distinct queries searched: the question first when it was searched as such, then in the order
    the query-writing LLM wrote them (never the order in which parallel searches happened to start)."""
    written = normalized(
        "\n".join(s.output_text for s in trace.spans if s.kind is Kind.LLM and s is not generator)
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
    return _to_json(queries) if len(queries) > 1 else ""


def _retrievals_json(leaves: list[_Retrieval], queries: list[str]) -> str:
    if not leaves:
        return ""
    index = {query: position for position, query in enumerate(queries)}
    ordered = sorted(leaves, key=lambda leaf: (index[leaf.query], leaf.span.timestamp, leaf.span.span_id))
    return _to_json(
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


def _usage(trace: Trace, generator: Span | None) -> tuple[str, int, int]:
    """Model and tokens of the generating call: the generator's own, else those of the LLM call inside it
    that counted them (a DSPy module over the client call)."""
    if generator is None:
        return "", 0, 0
    inner = [
        span
        for span in trace.spans
        if span.kind is Kind.LLM and generator.span_id in trace.ancestors({span.span_id})
    ]
    counted = [generator, *sorted(inner, key=lambda s: (trace.depth(s), s.timestamp, s.span_id))]
    model = next((span.model for span in counted if span.model), "")
    tokens = next(
        ((s.input_tokens, s.output_tokens) for s in counted if s.input_tokens or s.output_tokens), (0, 0)
    )
    return model, tokens[0], tokens[1]


def _unscorable(
    question: str, answer: str, chunks: list[str], context: ChosenContext, trace: Trace, speakers: list[Span]
) -> Unscorable:
    """The first reason this request cannot be judged, or SCORABLE. ``speakers`` are the spans the question
    and answer were read from (or should have been): one that recorded a value it could not read makes a
    missing part unparseable rather than absent."""
    if guard.problem(question, answer, chunks):
        return Unscorable.UNPARSEABLE
    if not question and not answer and any(Unread.UPLOADED in span.unread for span in speakers):
        return Unscorable.CONTENT_UPLOADED
    garbled = any(span.unread - {Unread.DOCUMENTS, Unread.UPLOADED} for span in speakers)
    if not question and not answer:
        return Unscorable.UNPARSEABLE if garbled else Unscorable.NO_CONTENT
    if not answer or not question:
        if garbled:
            return Unscorable.UNPARSEABLE
        return Unscorable.NO_ANSWER if not answer else Unscorable.NO_QUESTION
    if not chunks:
        if any(Unread.DOCUMENTS in span.unread for span in trace.spans):
            return Unscorable.UNPARSEABLE
        if context.unavailable:
            return Unscorable.CONTEXT_UNAVAILABLE
        return Unscorable.CONTEXT_NOT_SEPARABLE if context.not_separable else Unscorable.NO_CONTEXT
    return Unscorable.SCORABLE


def _source(trace: Trace, generator: Span | None, chain: Span | None, foreign: list[Span]) -> Source:
    """The family of the span the answer came from: the generator's, else the chain's, else the first
    foreign span's."""
    for span in (generator, chain):
        if span is not None and span.source not in (None, Source.RAGPULSE):
            assert span.source is not None
            return span.source
    source = foreign[0].source
    return source if source is not None else Source.GENAI


def _kept(recorded: str, derived: str) -> str:
    """A ragpulse root's own value when it recorded one, else what the trace's other spans give."""
    return recorded if _json_list(recorded) else derived


def _first(trace: Trace, root: Span, field: str) -> str:
    value = str(getattr(root, field))
    if value:
        return value
    return next((str(getattr(span, field)) for span in trace.spans if getattr(span, field)), "")


def _json_list(text: str) -> list[Any]:
    parsed = parse_json(text)
    return parsed if isinstance(parsed, list) else []


def _to_json(value: Any) -> str:
    """Compact JSON, as ragpulse's decorators write their attributes."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
