"""The assembly rules over generated span trees: LangChain, LlamaIndex and GenAI shapes, several LLM calls,
searches started in any order, spans delivered twice, in any order, or not at all."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from ragpulse_assembly.dialects import normalise
from ragpulse_assembly.model import TraceSpan, content_id
from ragpulse_assembly.names import Source
from ragpulse_assembly.rules import COLUMNS, AssembledRequest, assemble
from ragpulse_scorers.models import RagRequest
from span_trees import SHAPES, FusionRequest, ragpulse_root

START = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
WORDS = ["amber", "basalt", "cedar", "delta", "ember", "fjord", "granite", "harbor", "iris", "juniper"]
phrases = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)


@st.composite
def fusion_requests(draw: st.DrawFn, shape: str | None = None) -> FusionRequest:
    corpus = {f"doc-{i}": f"Passage {i} tells of {draw(phrases)}." for i in range(draw(st.integers(2, 8)))}
    question = f"What about {draw(phrases)}?"
    generated = [f"search {j} {draw(phrases)}" for j in range(draw(st.integers(0, 3)))]
    searched = draw(st.booleans()) or not generated
    queries = ([question] if searched else []) + generated
    ids = st.lists(st.sampled_from(sorted(corpus)), min_size=1, max_size=4, unique=True)
    rankings = {query: draw(ids) for query in queries}
    retrieved = sorted({i for ranking in rankings.values() for i in ranking})
    fused = draw(st.permutations(retrieved).flatmap(lambda p: st.integers(1, len(p)).map(lambda n: p[:n])))
    return FusionRequest(
        shape=shape or draw(st.sampled_from(SHAPES)),
        question=question,
        answer=f"It is {draw(phrases)}.",
        corpus=corpus,
        generated=generated,
        question_searched=searched,
        rankings=rankings,
        fused=list(fused),
        start_order=list(draw(st.permutations(queries))),
        extra_llm_calls=draw(st.integers(0, 2)),
        tokens=(draw(st.integers(0, 10_000)), draw(st.integers(0, 1000))),
    )


def assembled(spans: list[TraceSpan]) -> AssembledRequest:
    request = assemble("trace-1", spans)
    assert request is not None
    return request


def as_rag_request(request: AssembledRequest) -> RagRequest:
    return RagRequest.from_row(dict(zip(COLUMNS, request.row(sample_key=7), strict=True)))


def expected_id(request: FusionRequest, doc_id: str) -> str:
    """LangChain's retriever records no ids: a document is known by its text."""
    return content_id(request.corpus[doc_id]) if request.shape == "langchain" else doc_id


@given(fusion_requests())
def test_a_request_is_assembled_by_the_rules(request: FusionRequest) -> None:
    spans = request.spans(START)
    row = assembled(spans)
    result = as_rag_request(row)

    assert (result.question, result.answer) == (request.question, request.answer)
    assert [chunk.text for chunk in result.context] == [request.corpus[i] for i in request.fused]
    assert [chunk.id for chunk in result.context] == [expected_id(request, i) for i in request.fused]
    assert [chunk.rank for chunk in result.context] == list(range(1, len(request.fused) + 1))
    assert result.variations == (request.queries if len(request.queries) > 1 else [])
    assert [(r.query, r.query_index) for r in result.retrievals] == list(
        zip(request.queries, range(len(request.queries)), strict=True)
    )
    for retrieval in result.retrievals:
        ranking = request.rankings[retrieval.query]
        assert [d.id for d in retrieval.documents] == [expected_id(request, i) for i in ranking]
        assert [d.rank for d in retrieval.documents] == list(range(1, len(ranking) + 1))
    assert (row.input_tokens, row.output_tokens, row.model) == (*request.tokens, request.model)
    assert row.source is (Source.GENAI if request.shape == "genai" else Source.OPENINFERENCE)
    assert (row.span_id, row.timestamp) == (spans[0].span_id, spans[0].timestamp)  # the root span's


@given(fusion_requests(), st.data())
def test_arrival_order_and_duplicate_deliveries_change_nothing(
    request: FusionRequest, data: st.DataObject
) -> None:
    spans = request.spans(START)
    duplicates = data.draw(st.lists(st.sampled_from(spans), max_size=len(spans)))
    delivered = data.draw(st.permutations(spans + duplicates))

    assert assembled(list(delivered)) == assembled(spans)


@given(fusion_requests(), st.data())
def test_missing_spans_cost_only_what_they_carried(request: FusionRequest, data: st.DataObject) -> None:
    spans = request.spans(START)
    kept = data.draw(st.lists(st.sampled_from(spans), unique_by=lambda s: s.span_id))

    row = assemble("trace-1", kept)

    kinds = {normalise(span).kind.value for span in kept}
    if row is None:
        assert not kinds & {"RETRIEVER", "RERANKER", "LLM"}
        return
    result = as_rag_request(row)
    corpus_texts = set(request.corpus.values())
    assert all(chunk.text in corpus_texts for chunk in result.context)
    assert len({chunk.id for chunk in result.context}) == len(result.context)
    # Without its searches, the fusion retriever (called with the question) is the ranking left.
    assert all(r.query in (*request.queries, request.question) for r in result.retrievals)
    if result.variations:
        assert all(r.query_index < len(result.variations) for r in result.retrievals)
    assert result.answer in ("", request.answer, "yes", "\n".join(request.generated))


@given(fusion_requests(shape="langchain"))
def test_the_generating_llm_is_the_one_that_answered_not_the_last_or_the_widest(
    request: FusionRequest,
) -> None:
    request = replace(request, extra_llm_calls=2)
    spans = request.spans(START)
    # A check after the answer that read every retrieved document: neither the last call nor the widest
    # prompt makes an LLM span the generator; producing the answer does.
    late = max(spans, key=lambda span: span.timestamp)
    check = next(span for span in spans if span.name == "CheckLLM")
    spans.append(replace(check, span_id="f" * 16, timestamp=late.timestamp))

    result = as_rag_request(assembled(spans))

    assert [chunk.text for chunk in result.context] == [request.corpus[i] for i in request.fused]


@given(fusion_requests(shape="langchain"))
def test_a_ragpulse_root_without_context_takes_it_from_its_openinference_children(
    request: FusionRequest,
) -> None:
    spans = request.spans(START)
    recorded = {"input.value": request.question, "ragpulse.reference": "known answer"}
    rag_root = ragpulse_root(spans[0], recorded)

    row = assembled([rag_root, *spans[1:]])

    assert (row.pipeline, row.variant, row.reference, row.question) == (
        "lcel",
        "B",
        "known answer",
        request.question,
    )
    assert row.answer == request.answer  # the root recorded none: the generating LLM's output
    assert [c["text"] for c in json.loads(row.context)] == [request.corpus[i] for i in request.fused]
    assert row.source is Source.OPENINFERENCE


def test_a_ragpulse_root_that_recorded_its_context_is_left_to_the_view() -> None:
    spans = FusionRequest(
        shape="langchain",
        question="Q?",
        answer="A.",
        corpus={"d": "Passage d."},
        generated=[],
        question_searched=True,
        rankings={"Q?": ["d"]},
        fused=["d"],
    ).spans(START)
    context = json.dumps([{"id": "d", "text": "Passage d.", "rank": 1}])
    rag_root = replace(spans[0], attributes={"ragpulse.kind": "rag", "ragpulse.context": context})

    assert assemble("trace-1", [rag_root, *spans[1:]]) is None


def test_indexing_and_embedding_traces_are_not_requests() -> None:
    def span(span_id: str, parent: str, name: str, attributes: dict[str, Any]) -> TraceSpan:
        return TraceSpan(
            span_id,
            parent,
            name,
            "svc",
            "openinference.instrumentation.llama_index",
            START,
            1000,
            "Ok",
            attributes,
        )

    indexing = [
        span("1", "", "SentenceSplitter.__call__", {"openinference.span.kind": "CHAIN", "input.value": "{}"}),
        span("2", "1", "MockEmbedding.get_text_embedding_batch", {"openinference.span.kind": "EMBEDDING"}),
        span("3", "", "embeddings text-embedding-3", {"gen_ai.operation.name": "embeddings"}),
    ]

    assert assemble("trace-1", indexing) is None


def test_spans_whose_parents_form_a_cycle_still_assemble() -> None:
    def span(span_id: str, parent: str, attributes: dict[str, Any]) -> TraceSpan:
        return TraceSpan(span_id, parent, span_id, "svc", "openinference", START, 1000, "Ok", attributes)

    looped = [
        span("a", "b", {"openinference.span.kind": "CHAIN", "input.value": "Q?", "output.value": "A."}),
        span("b", "a", {"openinference.span.kind": "LLM", "llm.prompts": '["Q?"]', "output.value": "A."}),
    ]

    row = assembled(looped)

    assert (row.question, row.answer) == ("Q?", "A.")
