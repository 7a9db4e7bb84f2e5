"""A judge's HTTP calls are not logged one line each at INFO: the openai client (on httpx2) and httpx write
"HTTP Request: POST ..." for every call, which buried serve's own lines. ``-v`` shows them again."""

from __future__ import annotations

import http.server
import logging
import threading
from collections.abc import Iterator

import httpx
import pytest
from openai import OpenAI
from ragpulse_core import cli


class _Completions(http.server.BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint's answer to one chat completion."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        body = (
            b'{"id":"c","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,'
            b'"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],'
            b'"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}'
        )
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def endpoint() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Completions)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(autouse=True)
def _restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in cli.HTTP_CLIENT_LOGGERS}
    yield
    root.handlers[:], root.level = handlers, level
    for name, saved in levels.items():
        logging.getLogger(name).setLevel(saved)


def _calls_logged(endpoint: str, verbose: int, capsys: pytest.CaptureFixture[str]) -> str:
    logging.getLogger().handlers.clear()
    for name in cli.HTTP_CLIENT_LOGGERS:
        logging.getLogger(name).setLevel(logging.NOTSET)
    cli._configure_logging(verbose)
    client = OpenAI(base_url=f"{endpoint}/v1", api_key="k", max_retries=0)
    client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    httpx.post(f"{endpoint}/hook", content=b"{}")
    captured = capsys.readouterr()
    return captured.out + captured.err


def test_judge_and_webhook_calls_are_not_logged_at_the_default_level(
    endpoint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "HTTP Request" not in _calls_logged(endpoint, 0, capsys)


def test_verbose_shows_every_call(endpoint: str, capsys: pytest.CaptureFixture[str]) -> None:
    said = _calls_logged(endpoint, 1, capsys)
    assert "chat/completions" in said and "/hook" in said
