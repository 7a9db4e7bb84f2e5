"""Abuse an exporter would never send, and the settings an operator relies on: each gets a clear answer."""

from __future__ import annotations

import json
import logging
import socket
import threading
from pathlib import Path

import pytest
from conftest import StartCollector
from otlp_testing import make_request, make_span, post, span_count, wait_until
from ragpulse_collector.mapping import map_spans
from ragpulse_collector.server import CollectorServer
from ragpulse_collector.spool import Spool
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store


def test_json_nested_10000_deep_is_a_400(start_collector: StartCollector, store: Store) -> None:
    server = start_collector()
    deep = b'{"resourceSpans": ' + b"[" * 10_000 + b"]" * 10_000 + b"}"
    status, _, reply = post(server.url, deep, "application/json")
    assert status == 400 and b"nested too deeply" in reply
    assert post(server.url, make_request([make_span()]).SerializeToString())[0] == 200


def test_200_simultaneous_connections_all_get_answers(start_collector: StartCollector, store: Store) -> None:
    server = start_collector()
    bodies = [make_request([make_span()]).SerializeToString() for _ in range(200)]
    statuses: list[int] = []
    go = threading.Event()

    def send(body: bytes) -> None:
        go.wait()
        try:
            statuses.append(post(server.url, body)[0])
        except OSError as exc:
            statuses.append(-1)
            raise AssertionError(f"connection failed: {exc}") from exc

    senders = [threading.Thread(target=send, args=(body,)) for body in bodies]
    for sender in senders:
        sender.start()
    go.set()
    for sender in senders:
        sender.join()
    assert statuses == [200] * 200
    assert span_count(store) == (200, 200)


def _slow_post(server: CollectorServer, declared: int, sent: bytes) -> socket.socket:
    """A connection that declared a body of ``declared`` bytes and sent only ``sent`` so far."""
    host, port = server.url.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)), timeout=10)
    head = b"POST /v1/traces HTTP/1.1\r\nHost: c\r\nContent-Type: application/x-protobuf\r\n"
    connection.sendall(head + b"Content-Length: %d\r\n\r\n" % declared + sent)
    return connection


def test_slow_connections_do_not_starve_the_others(start_collector: StartCollector, store: Store) -> None:
    server = start_collector(max_concurrent_requests=8)
    slow = [_slow_post(server, 100, b"{") for _ in range(100)]
    try:
        assert post(server.url, make_request([make_span()]).SerializeToString())[0] == 200
    finally:
        for connection in slow:
            connection.close()


def test_bodies_over_the_buffer_budget_get_429_and_the_rest_is_served(
    start_collector: StartCollector, store: Store
) -> None:
    server = start_collector(max_buffered_bytes=64 * 1024)
    with _slow_post(server, 100_000, b"x" * 40_000):
        assert wait_until(lambda: "http_body_bytes_buffered 40000" in server.metrics.render())
        status, headers, _ = post(server.url, b"x" * 40_000)
        assert status == 429 and int(headers["Retry-After"]) >= 1
        assert post(server.url, make_request([make_span()]).SerializeToString())[0] == 200
    assert span_count(store) == (1, 1)


@pytest.mark.parametrize("header", ["Bearer s3cret", "bearer s3cret", "BEARER  s3cret"])
def test_the_bearer_scheme_is_case_insensitive(
    start_collector: StartCollector, store: Store, header: str
) -> None:
    server = start_collector(auth_token="s3cret")
    body = make_request([make_span()]).SerializeToString()
    assert post(server.url, body, headers={"Authorization": header})[0] == 200
    assert post(server.url, body, headers={"Authorization": "Basic s3cret"})[0] == 401


def test_the_token_comes_from_a_file_and_can_guard_metrics(
    start_collector: StartCollector, store: Store, tmp_path: Path
) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("from-a-file\n")
    server = start_collector(auth_token_file=token_file, metrics_require_auth=True)
    body = make_request([make_span()]).SerializeToString()
    assert post(server.url, body, headers={"Authorization": "Bearer from-a-file"})[0] == 200
    assert post(server.url, b"", path="/metrics", method="GET")[0] == 401
    status, _, metrics = post(
        server.url, b"", path="/metrics", method="GET", headers={"Authorization": "Bearer from-a-file"}
    )
    assert status == 200 and b"spans_written_total 1" in metrics
    assert post(server.url, b"", path="/healthz", method="GET")[0] == 200


def test_the_token_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGPULSE_COLLECTOR__AUTH_TOKEN", "from-env")
    settings = RagpulseSettings.load(None)
    assert settings.collector.auth_token is not None
    assert settings.collector.auth_token.get_secret_value() == "from-env"


def test_stray_files_in_the_spool_directory_do_not_stop_start_up(
    start_collector: StartCollector, store: Store, tmp_path: Path
) -> None:
    spool_dir = tmp_path / "spool"
    Spool(spool_dir, 1 << 20).append("t1", map_spans(make_request([make_span()])).rows)
    (spool_dir / "README.txt").write_text("left by an operator")
    (spool_dir / "backup.batch").write_text("not a sequence number")
    (spool_dir / "old.tmp").mkdir()
    server = start_collector(spool_dir=spool_dir)
    assert wait_until(lambda: len(server.spool or []) == 0)
    assert span_count(store) == (1, 1)
    assert (spool_dir / "README.txt").exists() and (spool_dir / "backup.batch").exists()
    status, _, health = post(server.url, b"", path="/healthz", method="GET")
    assert status == 200 and json.loads(health)["spool_batches"] == 0


MALFORMED = [
    b"POST /v1/traces HTTP/1.1\r\nHost: c\r\nContent-Length: -5\r\n\r\n",
    b"POST /v1/traces?token=SECRET" + b"x" * 9000 + b" HTTP/1.1\r\nHost: c\r\n\r\n",
    "POST /v1/traces?token=SECRET\u00e9 HTTP/1.1\r\nHost: c\r\n\r\n".encode(),
    b"POST /v1/traces HTTP/1.1\r\nHost: c\r\nAuthorization: Bearer SECRET\x01\r\nContent-Length: x\r\n\r\n",
]


@pytest.mark.parametrize(
    "request_bytes", MALFORMED, ids=["negative-length", "long-line", "raw-utf8", "control"]
)
def test_a_malformed_request_is_logged_in_one_line_without_its_query_or_headers(
    start_collector: StartCollector, caplog: pytest.LogCaptureFixture, request_bytes: bytes
) -> None:
    server = start_collector()
    host, port = server.url.removeprefix("http://").split(":")
    caplog.set_level(logging.DEBUG)
    for _ in range(3):
        with socket.create_connection((host, int(port)), timeout=10) as connection:
            connection.sendall(request_bytes)
            assert connection.recv(65536).split(b" ", 2)[1] in (b"400", b"431")
    assert wait_until(lambda: len([r for r in caplog.records if "malformed" in r.getMessage()]) == 3)
    logged = [r for r in caplog.records if r.name.startswith(("ragpulse", "aiohttp"))]
    assert all(r.levelno < logging.WARNING and r.exc_info is None for r in logged)
    assert not any("SECRET" in r.getMessage() or "\n" in r.getMessage() for r in logged)


def test_a_flood_of_malformed_requests_costs_a_few_log_lines(
    start_collector: StartCollector, caplog: pytest.LogCaptureFixture
) -> None:
    """300 malformed request lines wrote 300 log lines; the live page already kept a budget."""
    server = start_collector()
    host, port = server.url.removeprefix("http://").split(":")
    caplog.set_level(logging.DEBUG)
    for index in range(300):
        with socket.create_connection((host, int(port)), timeout=10) as connection:
            connection.sendall(MALFORMED[index % len(MALFORMED)])
            assert connection.recv(65536).split(b" ", 2)[1] in (b"400", b"431")
    logged = [r for r in caplog.records if r.name.startswith(("ragpulse", "aiohttp"))]
    assert 1 <= len([r for r in logged if "malformed" in r.getMessage()]) <= 5
    assert len(logged) <= 10


@pytest.mark.parametrize(
    "body",
    [
        b'{"resourceSpans": [], "x": ' + b"9" * 5000 + b"}",
        b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "'
        + b"ab" * 16
        + b'", "spanId": "'
        + b"cd" * 8
        + b'", "name": "n", "attributes": [{"key": "k", "value": {"intValue": "'
        + b"9" * 5000
        + b'"}}]}]}]}]}',
        b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "'
        + b"ab" * 16
        + b'", "spanId": "'
        + b"cd" * 8
        + b'", "name": "n", "startTimeUnixNano": '
        + b"1" * 4400
        + b"}]}]}]}",
    ],
    ids=["huge-int", "huge-int-value", "huge-time"],
)
def test_a_number_longer_than_python_converts_costs_only_its_request(
    start_collector: StartCollector, body: bytes
) -> None:
    server = start_collector()
    status, _, _ = post(server.url, body, "application/json")
    assert status in (200, 400)
    assert post(server.url, make_request([make_span()]).SerializeToString())[0] == 200
