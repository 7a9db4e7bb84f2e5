"""LangChain and LlamaIndex RAG-Fusion apps traced only by OpenInference's instrumentors, exported by the
stock OTLP/HTTP exporter to the collector, assembled by a scheduler tick and scored lexically."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from openinference.instrumentation.langchain import LangChainInstrumentor
from openinference.instrumentation.llama_index import LlamaIndexInstrumentor
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.instrumentation.instrumentor import BaseInstrumentor
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from ragpulse_collector.server import CollectorServer
from ragpulse_core.store import Store
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import RagRequest
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import run_tick
from ragpulse_scorers.settings import ScorersSettings

sys.path.insert(0, str(Path(__file__).parent / "scorers"))
from framework_apps import QUERIES, QUESTION, LangChainFusion, llama_index_fusion

ANSWER = "The Eiffel Tower is 330 metres tall."


@pytest.fixture
def provider(collector: CollectorServer) -> Iterator[TracerProvider]:
    """The service's own tracer provider: the stock OTLP/HTTP exporter, pointed at the collector."""
    provider = TracerProvider(resource=Resource.create({"service.name": "fusion-app"}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=f"{collector.url}/v1/traces")))
    yield provider
    provider.shutdown()


@contextmanager
def traced_by(instrumentor: BaseInstrumentor, provider: TracerProvider) -> Iterator[None]:
    """The app traced by one OpenInference instrumentor on its provider, for the block only."""
    instrumentor.instrument(tracer_provider=provider)
    try:
        yield
    finally:
        instrumentor.uninstrument()


def land(provider: TracerProvider, collector: CollectorServer, store: Store) -> int:
    assert provider.force_flush()
    assert collector.flush()
    return int(store.query(f"SELECT count() FROM {store.table('otel_traces')}")[0][0])


def tick(store: Store, chdb_dsn: str) -> Any:
    settings = ScorersSettings.load(store={"dsn": chdb_dsn}, scorer={"settle_delay_s": 0})
    return run_tick(settings, store, [LexicalScorer()], now=datetime.now(UTC))


def requests(store: Store) -> list[dict[str, Any]]:
    return store.query_dicts(f"SELECT * FROM {store.table('ragpulse_requests')} FINAL ORDER BY Timestamp")


def test_a_langchain_fusion_app_traced_by_openinference_becomes_a_scored_request(
    store: Store, chdb_dsn: str, collector: CollectorServer, provider: TracerProvider
) -> None:
    app = LangChainFusion(answer=ANSWER)
    with traced_by(LangChainInstrumentor(), provider):
        assert app.chain().invoke({"question": QUESTION}) == ANSWER
    spans = land(provider, collector, store)

    report = tick(store, chdb_dsn)

    [row] = requests(store)
    request = RagRequest.from_row(row)
    assert (row["Source"], request.question, request.answer) == ("openinference", QUESTION, ANSWER)
    [fused] = app.fused
    assert [chunk.text for chunk in request.context] == fused
    assert [chunk.rank for chunk in request.context] == [1, 2, 3]
    assert request.variations == QUERIES
    assert [(r.query, r.query_index) for r in request.retrievals] == [(q, i) for i, q in enumerate(QUERIES)]
    assert all(len(r.documents) == 3 for r in request.retrievals)
    context_ids = {chunk.id for chunk in request.context}
    assert context_ids <= {d.id for r in request.retrievals for d in r.documents}
    assert (row["InputTokens"], row["OutputTokens"]) == app.usage
    assert report.assembled == 1
    assert report.count("lexical", Outcome.SCORED) == 1
    print(f"langchain: {spans} spans landed, {report.assembled} assembled, 1 scored")


def test_a_llama_index_fusion_app_traced_by_openinference_becomes_a_scored_request(
    store: Store, chdb_dsn: str, collector: CollectorServer, provider: TracerProvider
) -> None:
    with traced_by(LlamaIndexInstrumentor(), provider):
        engine = llama_index_fusion(ANSWER)  # building the index is traced too: not a request
        response = engine.query(QUESTION)
    spans = land(provider, collector, store)
    traces = store.query(f"SELECT uniqExact(TraceId) FROM {store.table('otel_traces')}")[0][0]

    report = tick(store, chdb_dsn)

    [row] = requests(store)
    request = RagRequest.from_row(row)
    assert (row["Source"], request.question, request.answer) == ("openinference", QUESTION, str(response))
    assert [chunk.text for chunk in request.context] == [n.node.get_content() for n in response.source_nodes]
    assert [chunk.id for chunk in request.context] == [n.node.node_id for n in response.source_nodes]
    assert request.variations == [QUESTION, *QUERIES]
    assert [r.query_index for r in request.retrievals] == [0, 1, 2, 3]
    assert row["Model"] == "unknown"  # what MockLLM reports as its model name
    assert report.count("lexical", Outcome.SCORED) == 1
    assert traces > 1
    print(f"llama-index: {spans} spans in {traces} traces landed, {report.assembled} assembled, 1 scored")


def test_assembling_again_changes_nothing(
    store: Store, chdb_dsn: str, collector: CollectorServer, provider: TracerProvider
) -> None:
    chain = LangChainFusion(answer=ANSWER).chain()
    with traced_by(LangChainInstrumentor(), provider):
        for _ in range(2):
            chain.invoke({"question": QUESTION})
    land(provider, collector, store)

    first = tick(store, chdb_dsn)
    second = tick(store, chdb_dsn)

    assert (first.assembled, second.assembled) == (2, 0)
    rows = store.query(f"SELECT count(), uniqExact(TraceId) FROM {store.table('ragpulse_requests')}")
    assert rows == [(2, 2)]
