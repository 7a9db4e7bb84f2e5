"""One request across every part: decorators → stock OTLP exporter → collector → ClickHouse → scorer."""

from __future__ import annotations

import ragpulse
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace.export import SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse_collector.server import CollectorServer
from ragpulse_core.store import Store
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import RagRequest

PASSAGES = {
    "for": "The for statement iterates over the elements of a sequence. It runs the else clause at the end.",
    "while": "The while statement repeats a suite while an expression is true.",
    "break": "A break statement terminates the nearest enclosing loop and skips its else clause.",
}


@ragpulse.variations
def make_variations(question: str) -> list[str]:
    return [question, "for loop else clause", "loop else break"]


@ragpulse.retrieve
def search(query: str, *, query_index: int) -> list[dict[str, object]]:
    words = set(query.lower().split())
    scored = [(len(words & set(text.lower().split())), key) for key, text in PASSAGES.items()]
    return [
        {"id": key, "text": PASSAGES[key], "score": float(hits)}
        for hits, key in sorted(scored, reverse=True)
        if hits
    ]


@ragpulse.fuse
def fuse(rankings: list[list[dict[str, object]]]) -> list[ragpulse.FusedChunk]:
    return ragpulse.rrf(rankings, k=60, top_n=2)


@ragpulse.generate(model="extractive-test")
def generate(question: str, chunks: list[ragpulse.FusedChunk]) -> str:
    return f"{chunks[0].text} It was added in Python 9.7."


@ragpulse.rag(pipeline="fusion", variant="B")
def answer(question: str) -> str:
    ragpulse.set_reference("The else clause runs when the loop ends without break.")
    queries = make_variations(question)
    rankings = [search(query, query_index=index) for index, query in enumerate(queries)]
    return generate(question, fuse(rankings))


def test_a_decorated_request_is_stored_read_back_and_judged(
    store: Store, collector: CollectorServer, span_exporter: InMemorySpanExporter
) -> None:
    span_exporter.clear()
    answer("When does the else clause of a for loop run?")
    spans = span_exporter.get_finished_spans()
    assert sorted(span.name for span in spans) == [
        "fuse", "generate", "rag fusion", "retrieve", "retrieve", "retrieve", "variations",
    ]

    exporter = OTLPSpanExporter(endpoint=f"{collector.url}/v1/traces")
    assert exporter.export(spans) is SpanExportResult.SUCCESS
    assert collector.flush()

    rows = store.query_dicts(f"SELECT * FROM {store.table('ragpulse_requests')}")
    assert len(rows) == 1
    request = RagRequest.from_row(rows[0])
    assert (request.pipeline, request.variant) == ("fusion", "B")
    assert request.question == "When does the else clause of a for loop run?"
    assert request.reference == "The else clause runs when the loop ends without break."
    assert request.variations == [request.question, "for loop else clause", "loop else break"]
    assert [retrieval.query_index for retrieval in request.retrievals] == [0, 1, 2]
    assert [chunk.rank for chunk in request.context] == [1, 2]
    assert request.context[0].text in request.answer
    span_rows = store.query(
        f"SELECT count() FROM {store.table('otel_traces')} WHERE TraceId = {{t:String}}",
        {"t": request.trace_id},
    )
    assert span_rows == [(7,)]

    scores = {score.metric: score for score in LexicalScorer().score(request)}
    assert scores["hallucination"].value == 1.0
    unsupported = [s for s in scores["hallucination"].details["sentences"] if s["verdict"] != "supported"]
    assert [s["sentence"] for s in unsupported] == ["It was added in Python 9.7."]
