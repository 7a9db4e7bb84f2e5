"""The shipped LangChain and LlamaIndex RAG-Fusion apps, decorated with ragpulse or traced only by
OpenInference, exported by the stock OTLP exporter over HTTP or gRPC, end as scored requests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest
from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcExporter
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter as HttpExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter
from ragpulse_collector.server import CollectorServer
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store
from ragpulse_example.frameworks import langchain_app, llamaindex_app
from ragpulse_example.frameworks.corpus import QUESTIONS
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import RagRequest
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import run_tick
from ragpulse_scorers.settings import ScorersSettings

APPS: dict[str, Callable[..., str]] = {"langchain": langchain_app.run, "llamaindex": llamaindex_app.run}
QUESTION = QUESTIONS[0].text


@pytest.fixture
def receiver(store: Store) -> Iterator[CollectorServer]:
    """A collector listening for OTLP over HTTP and gRPC on free loopback ports."""
    settings = RagpulseSettings.load(None, collector={"host": "127.0.0.1", "port": 0, "grpc_port": 0})
    server = CollectorServer(settings, store)
    server.start()
    yield server
    server.stop()


def exporter_to(server: CollectorServer, transport: str) -> SpanExporter:
    if transport == "grpc":
        return GrpcExporter(endpoint=f"127.0.0.1:{server.grpc_port}", insecure=True)
    return HttpExporter(endpoint=f"{server.url}/v1/traces")


@pytest.mark.parametrize("transport", ["http", "grpc"])
@pytest.mark.parametrize("instrumentation", ["ragpulse", "openinference"])
@pytest.mark.parametrize("app", sorted(APPS))
def test_a_framework_app_ends_as_a_scored_request(
    store: Store, chdb_dsn: str, receiver: CollectorServer, app: str, instrumentation: str, transport: str
) -> None:
    provider = TracerProvider(resource=Resource.create({"service.name": f"{app}-fusion"}))
    provider.add_span_processor(BatchSpanProcessor(exporter_to(receiver, transport)))
    answer = APPS[app](QUESTION, provider, instrumentation=instrumentation)
    assert provider.force_flush() and receiver.flush()
    provider.shutdown()

    settings = ScorersSettings.load(store={"dsn": chdb_dsn}, scorer={"settle_delay_s": 0})
    report = run_tick(settings, store, [LexicalScorer()], now=datetime.now(UTC))

    rows = store.query_dicts(
        f"SELECT * FROM {store.table('ragpulse_requests')} FINAL ORDER BY Timestamp"
    )
    [row] = rows
    request = RagRequest.from_row(row)
    assert (request.question, request.answer) == (QUESTION, answer)
    assert row["Source"] == ("ragpulse" if instrumentation == "ragpulse" else "openinference")
    assert request.context and all(chunk.text for chunk in request.context)
    # Every query was searched: the variations, and the question itself where the app searched it.
    assert len(request.variations) >= 3
    assert len(request.retrievals) - len(request.variations) in (0, 1)
    assert all(retrieval.documents for retrieval in request.retrievals)
    assert sorted(r.query_index for r in request.retrievals) == list(range(len(request.retrievals)))
    assert report.count("lexical", Outcome.SCORED) == 1
