"""configure(): the OTLP/HTTP provider and its environment, against a loopback receiver (no network)."""

from __future__ import annotations

import gzip
import os
import socket
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import ragpulse
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from ragpulse.configure import build_tracer_provider
from ragpulse.exporters import traces_url
from ragpulse.settings import current_settings


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    request: ExportTraceServiceRequest


@dataclass
class Receiver:
    url: str
    received: list[Received] = field(default_factory=list)

    def resource(self) -> dict[str, str]:
        resource = self.received[0].request.resource_spans[0].resource
        return {attribute.key: attribute.value.string_value for attribute in resource.attributes}

    def span_names(self) -> list[str]:
        return [
            span.name
            for received in self.received
            for resource_spans in received.request.resource_spans
            for scope_spans in resource_spans.scope_spans
            for span in scope_spans.spans
        ]


@pytest.fixture
def receiver(monkeypatch: pytest.MonkeyPatch) -> Iterator[Receiver]:
    """An OTLP/HTTP receiver on loopback that records what exporters send."""
    for name in list(os.environ):
        if name.startswith("OTEL_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    received: list[Received] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            if self.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, request))
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Receiver(f"http://127.0.0.1:{server.server_address[1]}", received)
    server.shutdown()
    server.server_close()


def export_one_span(provider_args: dict[str, object]) -> None:
    provider = build_tracer_provider(**provider_args)  # type: ignore[arg-type]
    provider.get_tracer("test").start_span("probe").end()
    provider.shutdown()


def test_environment_sets_endpoint_headers_and_resource(
    receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url)
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20t0ken,x-team=search")
    monkeypatch.setenv("OTEL_SERVICE_NAME", "rag-api")
    monkeypatch.setenv("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=staging")
    export_one_span({})
    [received] = receiver.received
    assert received.path == "/v1/traces"
    assert received.headers["authorization"] == "Bearer t0ken"
    assert received.headers["x-team"] == "search"
    assert received.headers["content-type"] == "application/x-protobuf"
    assert receiver.resource()["service.name"] == "rag-api"
    assert receiver.resource()["deployment.environment"] == "staging"
    assert receiver.span_names() == ["probe"]


def test_arguments_win_over_the_environment(receiver: Receiver, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9")
    monkeypatch.setenv("OTEL_SERVICE_NAME", "from-env")
    export_one_span({"service_name": "from-arg", "endpoint": receiver.url + "/", "headers": {"x-key": "k"}})
    assert receiver.resource()["service.name"] == "from-arg"
    assert receiver.received[0].headers["x-key"] == "k"


def test_traces_endpoint_variable_is_used_as_is(receiver: Receiver, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", receiver.url + "/custom/path")
    export_one_span({"batch": False})
    assert receiver.received[0].path == "/custom/path"


def test_traces_url_appends_the_path_once() -> None:
    assert traces_url("http://h:4318") == "http://h:4318/v1/traces"
    assert traces_url("http://h:4318/v1/traces") == "http://h:4318/v1/traces"


def test_configure_leaves_an_existing_provider_alone_but_applies_settings(spans: object) -> None:
    assert ragpulse.configure(service_name="x", capture_content=False, max_text_chars=500) is None
    assert (current_settings().capture_content, current_settings().max_text_chars) == (False, 500)


def test_configure_in_a_fresh_process_installs_the_exporting_provider(receiver: Receiver) -> None:
    script = textwrap.dedent(
        """
        import ragpulse
        from opentelemetry import trace

        provider = ragpulse.configure(service_name="fresh", batch=False)
        assert provider is not None and trace.get_tracer_provider() is provider
        assert ragpulse.configure() is None

        @ragpulse.rag(pipeline="fresh")
        def answer(question):
            return "ok"

        answer("q")
        provider.shutdown()
        """
    )
    environment = {**os.environ, "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url}
    subprocess.run([sys.executable, "-c", script], env=environment, check=True, timeout=60)
    assert receiver.span_names() == ["rag fresh"]
    assert receiver.resource()["service.name"] == "fresh"


def test_sdk_disabled_installs_nothing(receiver: Receiver) -> None:
    script = "import ragpulse\nfrom opentelemetry import trace\nassert ragpulse.configure() is None\n"
    script += "assert type(trace.get_tracer_provider()).__name__ == 'ProxyTracerProvider'\n"
    environment = {**os.environ, "OTEL_SDK_DISABLED": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url}
    subprocess.run([sys.executable, "-c", script], env=environment, check=True, timeout=60)
    assert receiver.received == []


def test_a_synchronous_export_to_a_dead_collector_does_not_hold_up_the_decorated_call() -> None:
    """``batch=False`` exports on the caller's thread; with nothing listening, the call must still return
    promptly (the exporter's default deadline made each span wait ~6 s, a request of 4 spans ~25 s)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead_port = probe.getsockname()[1]
    script = textwrap.dedent(
        f"""
        import time, ragpulse

        ragpulse.configure(service_name="dead", endpoint="http://127.0.0.1:{dead_port}", batch=False)

        @ragpulse.retrieve
        def search(query):
            return [{{"id": "a", "text": "alpha"}}]

        @ragpulse.generate
        def write(question, chunks):
            return "alpha"

        @ragpulse.rag
        def answer(question):
            return write(question, search(question) + search(question + "?"))

        started = time.monotonic()
        result = answer("q")
        print(result, time.monotonic() - started)
        """
    )
    environment = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    completed = subprocess.run(
        [sys.executable, "-c", script],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    result, seconds = completed.stdout.split()
    assert result == "alpha"
    assert float(seconds) < 5.0, completed.stderr
