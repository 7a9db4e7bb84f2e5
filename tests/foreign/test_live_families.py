"""The families whose current releases install beside ragpulse's own pins, run live in this process: the real
instrumentation around the service from capture/apps, the loopback fake model, the stock OTLP/HTTP exporters
pointed at the test collector (all three signals where the family emits them), then one scheduler tick.
The request must be the one the service served, scored; the exporters must see every export accepted."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from openai import OpenAI
from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import SimpleLogRecordProcessor
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from ragpulse_collector.server import CollectorServer
from ragpulse_core.store import Store
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import RagRequest
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import run_tick
from ragpulse_scorers.settings import ScorersSettings

sys.path.insert(0, str(Path(__file__).parent / "capture"))
sys.path.insert(0, str(Path(__file__).parent / "capture" / "apps"))
from loopback import fake_model
from service import ARTICLES, QUESTIONS, ask, messages_for, search

RESOURCE = Resource.create({"service.name": "helpdesk"})


@dataclass
class Signals:
    """The stock OTLP/HTTP exporters, each remembering what the collector answered."""

    traces: TracerProvider
    logs: LoggerProvider
    metrics: MeterProvider
    results: list[str] = field(default_factory=list)

    def flush(self) -> None:
        for provider in (self.traces, self.logs, self.metrics):
            assert provider.force_flush()


def _recording(exporter: Any, results: list[str]) -> Any:
    export = exporter.export

    def recorded(batch: Sequence[Any], *args: Any, **kwargs: Any) -> Any:
        result = export(batch, *args, **kwargs)
        results.append(f"{type(exporter).__name__}: {result.name}")
        return result

    exporter.export = recorded
    return exporter


@pytest.fixture
def signals(collector: CollectorServer) -> Iterator[Signals]:
    results: list[str] = []
    traces = TracerProvider(resource=RESOURCE)
    exporter = OTLPSpanExporter(endpoint=f"{collector.url}/v1/traces")
    traces.add_span_processor(SimpleSpanProcessor(_recording(exporter, results)))
    logs = LoggerProvider(resource=RESOURCE)
    log_exporter = OTLPLogExporter(endpoint=f"{collector.url}/v1/logs")
    logs.add_log_record_processor(SimpleLogRecordProcessor(_recording(log_exporter, results)))
    metric_exporter = _recording(OTLPMetricExporter(endpoint=f"{collector.url}/v1/metrics"), results)
    metrics = MeterProvider([PeriodicExportingMetricReader(metric_exporter)], resource=RESOURCE)
    yield Signals(traces, logs, metrics, results)
    for provider in (traces, logs, metrics):
        provider.shutdown()


@pytest.fixture(scope="module")
def model_url() -> Iterator[str]:
    with fake_model() as url:
        yield url


@pytest.fixture
def client(model_url: str) -> OpenAI:
    return OpenAI(base_url=model_url, api_key="sk-loopback")


@dataclass(frozen=True)
class Served:
    question: str
    context: list[str]
    answer: str


def assembled_and_scored(signals: Signals, collector: CollectorServer, store: Store, chdb_dsn: str) -> Any:
    """Flush every signal, let the scheduler tick; return the one request and its row."""
    signals.flush()
    assert collector.flush()
    settings = ScorersSettings.load(
        store={"dsn": chdb_dsn},
        scorer={"settle_delay_s": 0},
        # One request per family: nothing to learn a template from, so read it now with the rules.
        assembly={"templates": {"wait_s": 0}},
    )
    report = run_tick(settings, store, [LexicalScorer()], now=datetime.now(UTC))
    rows = store.query_dicts(f"SELECT * FROM {store.table('ragpulse_requests')} FINAL")
    assert len(rows) == 1
    assert not [r for r in signals.results if not r.endswith("SUCCESS")], "an export was refused"
    assert report.count("lexical", Outcome.SCORED) == 1
    return RagRequest.from_row(rows[0]), rows[0]


def assert_request(
    request: RagRequest, row: dict[str, Any], served: Served, source: str, origin: str
) -> None:
    assert (request.question, [c.text for c in request.context], request.answer) == (
        served.question,
        served.context,
        served.answer,
    )
    assert (row["Source"], row["ContextSource"], row["Unscorable"]) == (source, origin, "")


def serve(client: OpenAI, question: str, shape: str, stream: bool = False) -> Served:
    articles = [article for article, _ in search(question)]
    return Served(
        question, [a.text for a in articles], ask(client, messages_for(shape, question, articles), stream)
    )


def test_openinference_openai_prompt_with_documents_in_the_system_message(
    signals: Signals, client: OpenAI, collector: CollectorServer, store: Store, chdb_dsn: str
) -> None:
    from openinference.instrumentation.openai import OpenAIInstrumentor

    instrumentor = OpenAIInstrumentor()
    instrumentor.instrument(tracer_provider=signals.traces)
    try:
        served = serve(client, QUESTIONS["trash"], "system-context")
    finally:
        instrumentor.uninstrument()

    request, row = assembled_and_scored(signals, collector, store, chdb_dsn)
    assert_request(request, row, served, "openinference", "prompt")


@pytest.mark.parametrize("capture", ["span_only", "event_only"])
def test_openai_v2_latest_semconv_with_util_genai_workflow_and_retrieval(
    capture: str,
    signals: Signals,
    client: OpenAI,
    collector: CollectorServer,
    store: Store,
    chdb_dsn: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor
    from opentelemetry.util.genai.handler import TelemetryHandler
    from opentelemetry.util.genai.types import InputMessage, OutputMessage, Text

    monkeypatch.setenv("OTEL_SEMCONV_STABILITY_OPT_IN", "gen_ai_latest_experimental")
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", capture)
    providers = {"tracer_provider": signals.traces, "logger_provider": signals.logs}
    providers |= {"meter_provider": signals.metrics}
    instrumentor = OpenAIInstrumentor()
    instrumentor.instrument(**providers)
    handler = TelemetryHandler(**providers)
    question = QUESTIONS["storage"]
    try:
        with handler.workflow("helpdesk-rag") as workflow:
            workflow.input_messages = [InputMessage(role="user", parts=[Text(content=question)])]
            with handler.retrieval(data_source_id="help-centre") as retrieval:
                hits = search(question)
                retrieval.query_text = question
                retrieval.documents = [{"id": a.id, "score": s, "content": a.text} for a, s in hits]
            served = serve(client, question, "user-numbered")
            workflow.output_messages = [
                OutputMessage(role="assistant", parts=[Text(content=served.answer)], finish_reason="stop")
            ]
    finally:
        instrumentor.uninstrument()

    request, row = assembled_and_scored(signals, collector, store, chdb_dsn)
    assert_request(request, row, served, "genai", "retriever" if capture == "span_only" else "prompt")


@contextmanager
def openai_methods_restored() -> Iterator[None]:
    """opentelemetry-instrumentation-openai 0.62.4's ``uninstrument()`` leaves its wrappers on the openai
    client's methods (bound to this test's providers); put the originals back for the tests after this one."""
    import openai.resources.chat.completions as chat
    import openai.resources.embeddings as embeddings
    import openai.resources.responses as responses

    classes = [chat.Completions, chat.AsyncCompletions, embeddings.Embeddings, embeddings.AsyncEmbeddings]
    classes += [responses.Responses, responses.AsyncResponses]
    saved = [(cls, name, value) for cls in classes for name, value in vars(cls).items() if callable(value)]
    try:
        yield
    finally:
        for cls, name, value in saved:
            setattr(cls, name, value)


def test_openllmetry_openai_instrumentor_with_numbered_documents_in_the_user_message(
    signals: Signals, client: OpenAI, collector: CollectorServer, store: Store, chdb_dsn: str
) -> None:
    from opentelemetry.instrumentation.openai import OpenAIInstrumentor

    instrumentor = OpenAIInstrumentor()
    with openai_methods_restored():
        instrumentor.instrument(tracer_provider=signals.traces, meter_provider=signals.metrics)
        try:
            served = serve(client, QUESTIONS["guests"], "user-numbered", stream=True)
        finally:
            instrumentor.uninstrument()

    request, row = assembled_and_scored(signals, collector, store, chdb_dsn)
    assert_request(request, row, served, "openllmetry", "prompt")


def haystack_rag(model_url: str, question: str) -> Served:
    """Haystack's RAG pipeline (as capture/apps/haystack_rag.py builds it) and what it served."""
    from haystack import Document
    from haystack.document_stores.in_memory import InMemoryDocumentStore

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPENAI_BASE_URL", model_url)
        patch.setenv("OPENAI_API_KEY", "sk-loopback")
        from haystack_rag import pipeline

        store = InMemoryDocumentStore()
        store.write_documents([Document(id=a.id, content=a.text, meta={"title": a.title}) for a in ARTICLES])
        rag = pipeline(store, stream=False)
        result = rag.run({"retriever": {"query": question}, "prompt_builder": {"question": question}})
    documents = store.bm25_retrieval(query=question, top_k=3)
    return Served(question, [d.content for d in documents], result["llm"]["replies"][0].text)


@pytest.mark.parametrize("tracer", ["openinference", "native"])
def test_a_haystack_pipeline(
    tracer: str,
    signals: Signals,
    model_url: str,
    collector: CollectorServer,
    store: Store,
    chdb_dsn: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from haystack import tracing

    if tracer == "native":
        from haystack_integrations.tracing.opentelemetry import OpenTelemetryTracer

        # Haystack reads HAYSTACK_CONTENT_TRACING_ENABLED once, when it is imported: set what it set.
        monkeypatch.setattr(tracing.tracer, "is_content_tracing_enabled", True)
        tracing.enable_tracing(OpenTelemetryTracer(signals.traces.get_tracer("helpdesk")))
        stop = tracing.disable_tracing
    else:
        from openinference.instrumentation.haystack import HaystackInstrumentor

        instrumentor = HaystackInstrumentor()
        instrumentor.instrument(tracer_provider=signals.traces)
        stop = instrumentor.uninstrument
    try:
        served = haystack_rag(model_url, QUESTIONS["versions"])
    finally:
        stop()

    request, row = assembled_and_scored(signals, collector, store, chdb_dsn)
    assert_request(
        request, row, served, "openinference" if tracer == "openinference" else "haystack", "retriever"
    )
