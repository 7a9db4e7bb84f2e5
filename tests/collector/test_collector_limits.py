"""Bodies are never read past the limit, and what a request would cost is refused before the work.

One ``ragpulse collector`` subprocess serves the module, so its peak resident memory (VmHWM) can be read
before and after each abuse: reading a 512 MiB stream or expanding a 1 MiB resource attribute onto 1000
rows would raise it by gigabytes, while the ceiling asserted here is a few tens of megabytes.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from collector_process import peak_rss_bytes, start_collector_process, unused_port, wait_listening
from otlp_testing import make_request, make_span, post

MiB = 1024 * 1024
STREAM_BYTES = 512 * MiB
RSS_CEILING = 64 * MiB


@pytest.fixture(scope="module")
def collector(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, subprocess.Popen[bytes]]]:
    workdir: Path = tmp_path_factory.mktemp("limits")
    port = unused_port()
    process = start_collector_process(f"chdb://{workdir / 'chdb'}", port, workdir)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_listening(url, process)
        # Warm up the paths the tests take, so first-use allocations are not counted against them.
        assert post(url, make_request([make_span() for _ in range(50)]).SerializeToString())[0] == 200
        yield url, port, process
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)


def _exchange(port: int, head: bytes, blocks: Iterable[bytes] = ()) -> tuple[bytes, int]:
    """Send ``head`` then ``blocks`` until the server hangs up; (everything it answered, body bytes sent)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    answer = bytearray()

    def read() -> None:
        try:
            while chunk := sock.recv(65536):
                answer.extend(chunk)
        except OSError:
            pass

    reader = threading.Thread(target=read)
    reader.start()
    sent = 0
    try:
        sock.sendall(head)
        for block in blocks:
            sock.sendall(block)
            sent += len(block)
    except OSError:
        pass
    finally:
        # No shutdown(SHUT_WR): the server is the one to hang up, and a FIN into a closed socket would be
        # answered with a reset that discards the answer before it is read.
        reader.join(30)
        sock.close()
    return bytes(answer), sent


def _stream(total: int) -> Iterator[bytes]:
    block = b"\0" * MiB
    for _ in range(total // MiB):
        yield block


def _chunks(total: int) -> Iterator[bytes]:
    block = b"%x\r\n" % MiB + b"\0" * MiB + b"\r\n"
    for _ in range(total // MiB):
        yield block


def _status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.") else 0


def _head(method: str, path: str, *headers: str) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: collector", "Content-Type: application/x-protobuf", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _assert_stream_left_unread(
    collector: tuple[str, int, subprocess.Popen[bytes]], head: bytes, blocks: Iterable[bytes], expected: int
) -> None:
    """The answer is ``expected``, the server hung up before the 512 MiB were sent, and its memory held."""
    _, port, process = collector
    before = peak_rss_bytes(process.pid)
    answer, sent = _exchange(port, head, blocks)
    assert _status(answer) == expected
    assert sent < STREAM_BYTES
    assert peak_rss_bytes(process.pid) - before < RSS_CEILING


def test_a_negative_chunk_size_is_refused_without_reading_the_stream(
    collector: tuple[str, int, subprocess.Popen[bytes]],
) -> None:
    head = _head("POST", "/v1/traces", "Transfer-Encoding: chunked") + b"-1\r\n"
    _assert_stream_left_unread(collector, head, _stream(STREAM_BYTES), 400)


@pytest.mark.parametrize(
    ("method", "path", "expected"),
    [
        ("POST", "/v1/traces", 413),
        ("POST", "/v1/logs", 413),
        ("POST", "/v1/profiles", 404),
        ("PUT", "/v1/traces", 405),
        ("GET", "/healthz", 200),
    ],
)
def test_a_512_mib_chunked_body_is_never_read_past_the_limit(
    collector: tuple[str, int, subprocess.Popen[bytes]], method: str, path: str, expected: int
) -> None:
    head = _head(method, path, "Transfer-Encoding: chunked")
    _assert_stream_left_unread(collector, head, _chunks(STREAM_BYTES), expected)


def test_a_declared_length_over_the_limit_is_refused_before_the_body(
    collector: tuple[str, int, subprocess.Popen[bytes]],
) -> None:
    head = _head("POST", "/v1/traces", f"Content-Length: {STREAM_BYTES}")
    _assert_stream_left_unread(collector, head, _stream(STREAM_BYTES), 413)


@pytest.mark.parametrize("length", ["-5", "abc", "1e3", "5, 6"])
def test_a_negative_or_malformed_content_length_is_a_400_and_the_body_no_second_request(
    collector: tuple[str, int, subprocess.Popen[bytes]], length: str
) -> None:
    _, port, _ = collector
    smuggled = b"GET /metrics HTTP/1.1\r\nHost: collector\r\n\r\n"
    answer, _ = _exchange(port, _head("POST", "/v1/traces", f"Content-Length: {length}") + smuggled)
    assert _status(answer) == 400
    assert answer.count(b"HTTP/1.") == 1


def test_a_huge_resource_attribute_repeated_on_1000_spans_is_refused_before_mapping(
    collector: tuple[str, int, subprocess.Popen[bytes]],
) -> None:
    url, _, process = collector
    body = make_request([make_span() for _ in range(1000)], resource={"blob": "x" * MiB}).SerializeToString()
    before = peak_rss_bytes(process.pid)
    status, _, reply = post(url, body)
    assert status == 413 and b"expand" in reply
    assert peak_rss_bytes(process.pid) - before < RSS_CEILING
    assert post(url, make_request([make_span()]).SerializeToString())[0] == 200
