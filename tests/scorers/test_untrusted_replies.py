"""Secrets and memory around alert destinations, score export and the holder note (issue 37, case 5)."""

from __future__ import annotations

import logging
import os
import threading
import time
import tracemalloc
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ragpulse_core.holder import claim, current_holder, holder_file
from ragpulse_core.secrets import MASK, SecretMask, shown_endpoint
from ragpulse_dashboards.alerts.delivery import Post, RetryPolicy, send
from ragpulse_scorers.export.sink import ScoreExport
from ragpulse_scorers.settings import ExportSettings

TOKEN = "sk-live-4f9a2c7e1b8d3f6a0c5e9b2d"
ONCE = RetryPolicy(attempts=1, backoff_s=0.01, backoff_max_s=0.01)


class Hostile(BaseHTTPRequestHandler):
    """Answers 500 with a body chosen by the test: an echo of the Authorization header, or a flood."""

    flood_bytes = 0

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path.startswith("/superscript"):
            self.send_response(429)
            self.send_header("Retry-After", "²")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(500)
        if self.path.startswith("/flood"):
            self.send_header("Content-Length", str(self.flood_bytes))
            self.end_headers()
            chunk = b"x" * (1 << 20)
            try:
                for _ in range(self.flood_bytes >> 20):
                    self.wfile.write(chunk)
            except OSError:
                return  # the client stopped reading: what the test wants
            return
        header = self.headers.get("Authorization", "")
        body = f"invalid credentials '{header[7:19]}...' ({header[-6:]})".encode()
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def hostile() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_receiver_echoing_part_of_the_token_gets_it_masked(
    hostile: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Only the whole header value was masked: 12 characters of the token reached the log and the pages."""
    header = f"Bearer {TOKEN}"
    post = Post(f"{hostile}/hook", {"a": 1}, 5.0, secrets=[header], headers={"Authorization": header})
    with httpx.Client() as client, caplog.at_level(logging.INFO):
        outcome = send(client, post, ONCE, time.monotonic() + 10)
    assert not outcome.delivered and outcome.status == 500
    assert TOKEN[:12] not in outcome.error and MASK in outcome.error
    assert all(TOKEN[:12] not in record.getMessage() for record in caplog.records)


def test_a_300_mb_error_answer_is_read_to_a_bound(hostile: str) -> None:
    """A receiver answering 500 with 300 MB took serve from 0.5 GB to 4.1 GB resident."""
    Hostile.flood_bytes = 300 << 20
    post = Post(f"{hostile}/flood", {"a": 1}, 20.0)
    tracemalloc.start()
    try:
        with httpx.Client() as client:
            outcome = send(client, post, ONCE, time.monotonic() + 30)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert outcome.status == 500 and outcome.error.startswith("answered 500: xxx")
    assert peak < 8 << 20


def test_a_retry_after_of_unicode_digits_is_an_answer_not_a_crash(hostile: str) -> None:
    """'²' passes str.isdigit() and float() refuses it: the notification was lost to an exception."""
    twice = RetryPolicy(attempts=2, backoff_s=0.01, backoff_max_s=0.01)
    with httpx.Client() as client:
        outcome = send(client, Post(f"{hostile}/superscript", {"a": 1}, 5.0), twice, time.monotonic() + 10)
    assert outcome.status == 429 and outcome.attempts == 2 and "answered 429" in outcome.error


def test_the_score_export_reads_a_flooding_answer_to_a_bound(hostile: str) -> None:
    Hostile.flood_bytes = 200 << 20
    export = ScoreExport(ExportSettings(otlp_endpoint=f"{hostile}/flood", timeout_s=20))
    exporter = export._exporter._inner  # the stock OTLP exporter, as configured for the endpoint
    tracemalloc.start()
    try:
        exporter.export([])  # an empty batch still posts, and gets the flood back
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        export.shutdown()
    assert peak < 8 << 20


def test_an_export_endpoint_with_credentials_is_never_logged_whole(caplog: pytest.LogCaptureFixture) -> None:
    """An export.otlp_endpoint holding a password or an api_key was printed in full."""
    endpoint = "http://scores:hunter2hunter2@127.0.0.1:9/v1/logs?api_key=0a1b2c3d4e5f6a7b"
    export = ScoreExport(ExportSettings(otlp_endpoint=endpoint, timeout_s=1, shutdown_timeout_s=1))
    with caplog.at_level(logging.DEBUG):
        export._exporter.export([])
        export.shutdown()
    logged = "\n".join(record.getMessage() + (record.exc_text or "") for record in caplog.records)
    assert "hunter2hunter2" not in logged and "0a1b2c3d4e5f6a7b" not in logged
    assert "127.0.0.1:9" in logged
    assert shown_endpoint(endpoint) == f"http://{MASK}@127.0.0.1:9/v1/logs?api_key={MASK}"


def test_a_planted_holder_note_is_not_trusted_with_the_token(tmp_path: Path) -> None:
    """A holder note planted beside the database made `ragpulse report` send the read token to its URL."""
    database = tmp_path / "db"
    note = claim(database, "ragpulse serve", "http://127.0.0.1:8080/", "generated-token")
    os.chmod(note, 0o600)
    holder = _as_another_live_process(note)
    trusted = current_holder(database)
    assert trusted is not None and trusted.page_url == "http://127.0.0.1:8080/" and trusted.page_token

    holder = holder.replace('"http://127.0.0.1:8080/"', '"https://attacker.example/"')
    note.write_text(holder)
    planted = current_holder(database)
    assert planted is not None and planted.page_url is None and planted.page_token is None

    note.write_text(holder.replace('"https://attacker.example/"', '"http://127.0.0.1:8080/"'))
    os.chown(note, 4242, -1)  # the tests run as root: a note another user owns
    foreign = current_holder(database)
    assert foreign is not None and foreign.page_url is None and foreign.page_token is None

    os.chown(note, os.geteuid(), -1)
    os.chmod(note, 0o666)
    writable = current_holder(database)
    assert writable is not None and writable.page_url is None


def _as_another_live_process(note: Path) -> str:
    """The note as if a live process other than this one wrote it (pid 1 is always alive)."""
    text = note.read_text().replace(f'"pid": {os.getpid()}', '"pid": 1')
    note.write_text(text)
    assert holder_file(note.with_name("db")) == note
    return text


@settings(max_examples=200, deadline=None)
@given(
    secret=st.text(st.characters(codec="ascii", categories=["L", "N"]), min_size=12, max_size=40),
    start=st.integers(0, 30),
    size=st.integers(8, 40),
    before=st.text(max_size=30),
    after=st.text(max_size=30),
)
def test_any_run_of_eight_characters_of_a_secret_is_masked(
    secret: str, start: int, size: int, before: str, after: str
) -> None:
    piece = secret[start : start + size]
    if len(piece) < 8:
        return
    for shown in (piece, piece.upper(), piece.lower()):
        masked = SecretMask([f"Bearer {secret}"])(f"{before}{shown}{after}")
        assert shown not in masked
