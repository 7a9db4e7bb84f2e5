"""A sender at the wrong path, method or gRPC service is told the right one, in the status line (which stock
exporters log), the body, or the gRPC status message."""

from __future__ import annotations

import http.client
import logging
from urllib.parse import urlsplit

import grpc
import pytest
from conftest import StartCollector
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from otlp_testing import make_request, make_span, post, span_count
from ragpulse_collector import hints
from ragpulse_core.store import Store

ENV_MIX_UP = "OTEL_EXPORTER_OTLP_ENDPOINT takes the base URL"


@pytest.mark.parametrize(
    ("path", "meant"),
    [
        ("/traces", "Did you mean /v1/traces?"),
        ("/v1/trace", "Did you mean /v1/traces?"),
        ("/V1/Logs/", "Did you mean /v1/logs?"),
        ("/logs", "Did you mean /v1/logs?"),
        ("/v1/metric", "Did you mean /v1/metrics?"),
        ("/api/v2/spans", "Did you mean /v1/traces?"),
        ("/health", "Did you mean /healthz?"),
        ("/v1", "Did you mean /v1/traces or /v1/logs or /v1/metrics?"),
        ("/otlp/v1/traces", "This collector serves it at the root. Drop /otlp from the endpoint."),
    ],
)
def test_a_near_miss_path_names_the_one_meant(path: str, meant: str) -> None:
    answer = hints.unknown_path(path)
    assert meant in answer.text
    assert answer.text.startswith(f"404: no such path {path}.")
    assert hints.SERVED in answer.text


@pytest.mark.parametrize(
    ("path", "variable"),
    [
        ("/v1/traces/v1/traces", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
        ("/v1/traces/v1/logs", "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"),
        ("/v1/traces/v1/metrics", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"),
    ],
)
def test_a_signal_path_in_the_base_endpoint_is_explained_with_both_variables(
    path: str, variable: str
) -> None:
    answer = hints.unknown_path(path)
    assert ENV_MIX_UP in answer.reason and variable in answer.reason
    assert f"{variable} takes the full URL" in answer.text


def test_a_path_like_nothing_served_lists_what_is() -> None:
    answer = hints.unknown_path("/zzz")
    assert answer.reason == "Not Found"
    assert answer.text == f"404: no such path /zzz. This collector serves {hints.SERVED}.\n"


def _status_line(url: str, method: str, path: str) -> tuple[int, str, dict[str, str], bytes]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    try:
        connection.request(method, path)
        response = connection.getresponse()
        return response.status, response.reason, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_wrong_paths_and_methods_over_http_say_what_is_served(
    start_collector: StartCollector, store: Store
) -> None:
    server = start_collector()
    status, reason, _, body = _status_line(server.url, "POST", "/traces")
    assert (status, reason) == (404, "Not Found. Did you mean /v1/traces?")
    assert b"POST /v1/traces, POST /v1/logs, POST /v1/metrics" in body

    status, reason, headers, body = _status_line(server.url, "GET", "/v1/traces")
    assert (status, headers["Allow"]) == (405, "POST")
    assert reason == "Method Not Allowed. /v1/traces takes POST"
    assert (
        body
        == b"405: /v1/traces takes POST, not GET. OTLP exporters POST traces here; there is no page to GET.\n"
    )

    status, _, _, body = _status_line(server.url, "POST", "/healthz")
    assert status == 405 and body.startswith(b"405: /healthz takes GET, not POST.")
    metrics = post(server.url, b"", path="/metrics", method="GET")[2].decode()
    assert 'ragpulse_collector_http_responses_total{code="404"} 1' in metrics
    assert 'ragpulse_collector_http_responses_total{code="405"} 2' in metrics


def test_a_path_carrying_a_line_break_cannot_reach_the_status_line(start_collector: StartCollector) -> None:
    server = start_collector()
    status, reason, headers, body = _status_line(server.url, "POST", "/otlp%0d%0aX-Injected:%20yes/v1/traces")
    assert status == 404 and "X-Injected" not in headers
    assert "\r" not in reason and "\n" not in reason
    assert b"Drop /otlp\r\nx-injected: yes from the endpoint." in body


def test_stock_exporter_pointed_at_a_signal_path_as_base_logs_which_variable_to_fix(
    start_collector: StartCollector,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = start_collector()
    # The usual mistake: the full traces URL in the variable that takes the base.
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", f"{server.url}/v1/traces")
    provider = TracerProvider(resource=Resource.create({"service.name": "misconfigured"}))
    provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter()))
    with caplog.at_level(logging.ERROR, logger="opentelemetry"):
        with provider.get_tracer("app").start_as_current_span("lost"):
            pass
        provider.shutdown()
    logged = " ".join(record.getMessage() for record in caplog.records)
    assert "404" in logged and ENV_MIX_UP in logged and "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" in logged
    assert span_count(store) == (0, 0)


def test_unknown_grpc_methods_are_unimplemented_and_name_the_served_ones(
    start_collector: StartCollector,
) -> None:
    server = start_collector(grpc_port=0)
    profiles = "/opentelemetry.proto.collector.profiles.v1development.ProfilesService/Export"
    typo = "/opentelemetry.proto.collector.trace.v1.TraceService/Exprot"
    with grpc.insecure_channel(f"127.0.0.1:{server.grpc_port}") as channel:
        with pytest.raises(grpc.RpcError) as unknown_service:
            channel.unary_unary(profiles)(make_request([make_span()]).SerializeToString(), timeout=30)
        with pytest.raises(grpc.RpcError) as misspelt:
            channel.unary_unary(typo)(b"", timeout=30)
        # A stream that never sends a message is answered all the same.
        stream = channel.stream_stream("/some.Other/Watch")(iter(()), timeout=30)
        with pytest.raises(grpc.RpcError) as streaming:
            next(stream)
    assert unknown_service.value.code() is grpc.StatusCode.UNIMPLEMENTED
    details = unknown_service.value.details() or ""
    assert profiles in details and "opentelemetry.proto.collector.logs.v1.LogsService/Export" in details
    assert "Did you mean /opentelemetry.proto.collector.trace.v1.TraceService/Export?" in (
        misspelt.value.details() or ""
    )
    assert streaming.value.code() is grpc.StatusCode.UNIMPLEMENTED
