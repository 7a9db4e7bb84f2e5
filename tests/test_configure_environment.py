"""``ragpulse.configure()`` driven by the standard ``OTEL_*`` variables alone, against the real collector over
both transports (OTLP/HTTP and ``--grpc-port``): protocol (and its per-signal variant), endpoint (a base URL,
or the traces endpoint used as is), headers (the collector's bearer token), compression, timeout, service
name and resource attributes, the exporter choice, and ``OTEL_SDK_DISABLED``.

Each case runs in a fresh Python process, as an application would: OpenTelemetry sets its provider once."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from ragpulse_collector.server import CollectorServer
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store

TOKEN = "s3cret-token"
APPLICATION = """
import sys
import ragpulse

provider = ragpulse.configure(batch=sys.argv[2] == "sync-off")
print("provider:", provider is not None, flush=True)

@ragpulse.rag(pipeline="env")
def answer(question):
    return "Paris."

answer(sys.argv[1])
if provider is not None:
    provider.shutdown()
"""


@dataclass
class Collector:
    http: str
    grpc: str
    store: Store

    def rows(self, question: str) -> list[tuple[str, str, str]]:
        return [
            (str(service), str(environment), str(name))
            for service, environment, name in self.store.query(
                "SELECT ServiceName, ResourceAttributes['deployment.environment'], SpanName"
                f" FROM {self.store.table('otel_traces')} WHERE SpanAttributes['input.value'] = {{q:String}}",
                {"q": question},
            )
        ]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def collector(store: Store) -> Iterator[Collector]:
    """The real collector over the session's store, on HTTP and gRPC, requiring a bearer token."""
    settings = RagpulseSettings.load(
        None, collector={"host": "127.0.0.1", "port": 0, "grpc_port": _free_port(), "auth_token": TOKEN}
    )
    server = CollectorServer(settings, store)
    server.start()
    try:
        yield Collector(server.url, f"http://127.0.0.1:{server.grpc_port}", store)
    finally:
        server.stop()


@pytest.fixture
def black_hole() -> Iterator[str]:
    """A port that accepts connections and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"


def run_application(
    variables: dict[str, str], *, batch: bool = False, timeout_s: float = 90
) -> tuple[str, subprocess.CompletedProcess[str]]:
    """Run the application with only these ``OTEL_*`` variables; returns its unique question and result."""
    question = f"Where is the Eiffel Tower? {uuid.uuid4().hex}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "RAGPULSE_"))}
    env.update(NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost", **variables)
    done = subprocess.run(
        [sys.executable, "-c", APPLICATION, question, "sync-off" if batch else "sync"],
        env=env, capture_output=True, text=True, timeout=timeout_s, check=False,
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    return question, done


def closed_port_url() -> str:
    return f"http://127.0.0.1:{_free_port()}"


TRANSPORTS = ["http/protobuf", "grpc"]


@pytest.mark.parametrize("protocol", TRANSPORTS)
def test_protocol_endpoint_headers_compression_and_resource_reach_the_collector(
    collector: Collector, protocol: str
) -> None:
    question, done = run_application(
        {
            "OTEL_EXPORTER_OTLP_PROTOCOL": protocol,
            "OTEL_EXPORTER_OTLP_ENDPOINT": collector.grpc if protocol == "grpc" else collector.http,
            "OTEL_EXPORTER_OTLP_HEADERS": f"authorization=Bearer%20{TOKEN}",
            "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
            "OTEL_SERVICE_NAME": f"support-bot-{protocol}",
            "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=staging",
        }
    )
    assert done.returncode == 0, done.stderr
    assert collector.rows(question) == [(f"support-bot-{protocol}", "staging", "rag env")]


@pytest.mark.parametrize("protocol", TRANSPORTS)
def test_the_per_signal_variables_win_over_the_general_ones(collector: Collector, protocol: str) -> None:
    """The traces protocol and endpoint win; the traces endpoint is used as is (no path appended)."""
    traces_endpoint = collector.grpc if protocol == "grpc" else f"{collector.http}/v1/traces"
    question, done = run_application(
        {
            "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc" if protocol != "grpc" else "http/protobuf",
            "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": protocol,
            "OTEL_EXPORTER_OTLP_ENDPOINT": closed_port_url(),
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": traces_endpoint,
            "OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20wrong",
            "OTEL_EXPORTER_OTLP_TRACES_HEADERS": f"authorization=Bearer%20{TOKEN}",
        }
    )
    assert done.returncode == 0, done.stderr
    assert [name for _, _, name in collector.rows(question)] == ["rag env"]


@pytest.mark.parametrize("protocol", TRANSPORTS)
def test_without_the_token_header_the_collector_writes_nothing(collector: Collector, protocol: str) -> None:
    question, done = run_application(
        {
            "OTEL_EXPORTER_OTLP_PROTOCOL": protocol,
            "OTEL_EXPORTER_OTLP_ENDPOINT": collector.grpc if protocol == "grpc" else collector.http,
            "OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20wrong",
        }
    )
    assert done.returncode == 0, done.stderr
    assert collector.rows(question) == []


def test_http_json_is_sent_as_protobuf_with_a_warning(collector: Collector) -> None:
    question, done = run_application(
        {
            "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
            "OTEL_EXPORTER_OTLP_ENDPOINT": collector.http,
            "OTEL_EXPORTER_OTLP_HEADERS": f"authorization=Bearer%20{TOKEN}",
        }
    )
    assert done.returncode == 0
    assert "has no http/json; sending http/protobuf" in done.stderr
    assert len(collector.rows(question)) == 1


@pytest.mark.parametrize("protocol", TRANSPORTS)
def test_the_timeout_variable_bounds_an_export_to_a_collector_that_never_answers(
    black_hole: str, protocol: str
) -> None:
    """With OTEL_EXPORTER_OTLP_TIMEOUT=1 the batch exporter gives up after about a second (by default after
    10 s); the bound leaves room for start-up on a loaded machine."""
    started = time.monotonic()
    _, done = run_application(
        {
            "OTEL_EXPORTER_OTLP_PROTOCOL": protocol,
            "OTEL_EXPORTER_OTLP_ENDPOINT": black_hole,
            "OTEL_EXPORTER_OTLP_TIMEOUT": "1",
        },
        batch=True,
    )
    assert done.returncode == 0
    assert time.monotonic() - started < 9


def test_sdk_disabled_installs_nothing_and_sends_nothing(collector: Collector) -> None:
    question, done = run_application(
        {"OTEL_SDK_DISABLED": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": collector.http}
    )
    assert done.stdout.startswith("provider: False")
    assert collector.rows(question) == []


def test_the_console_exporter_prints_spans_and_none_exports_nothing(collector: Collector) -> None:
    question, done = run_application({"OTEL_TRACES_EXPORTER": "console"})
    assert '"name": "rag env"' in done.stdout
    question, done = run_application(
        {"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": collector.http}
    )
    assert done.returncode == 0 and done.stdout.startswith("provider: True")
    assert collector.rows(question) == []


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"OTEL_EXPORTER_OTLP_PROTOCOL": "udp"}, "OTLP protocol 'udp' is not one of grpc, http/protobuf"),
        ({"OTEL_TRACES_EXPORTER": "zipkin"}, "OTEL_TRACES_EXPORTER='zipkin': configure() knows otlp"),
    ],
)
def test_a_value_configure_cannot_honour_is_named(variables: dict[str, str], message: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")} | variables
    done = subprocess.run(
        [sys.executable, "-c", "import ragpulse; ragpulse.configure()"],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode != 0
    assert message in done.stderr
