"""HTTP receivers on 127.0.0.1 standing in for Slack, PagerDuty and a webhook endpoint: each validates every
body against the destination's documented JSON Schema and answers 400 to an invalid one, as the real service
would, and otherwise answers a script of statuses (then success)."""

from __future__ import annotations

import json
import socket
import threading
import time
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema

SCHEMAS = Path(__file__).parent / "alert_schemas"
# Slack caps a message; PagerDuty refuses events over 512 KB.
MAX_BODY_BYTES = 512 * 1024

FORMATS = jsonschema.FormatChecker()


def _date_time(value: object) -> bool:
    # ISO 8601 with a time zone, as PagerDuty's timestamp and ragpulse's times are documented.
    return not isinstance(value, str) or datetime.fromisoformat(value).tzinfo is not None


def _uri(value: object) -> bool:
    if not isinstance(value, str):
        return True
    parts = urlsplit(value)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


FORMATS.checks("date-time", raises=ValueError)(_date_time)
FORMATS.checks("uri")(_uri)


def schema(name: str) -> dict[str, Any]:
    if name == "webhook":
        text = resources.files("ragpulse_dashboards.alerts").joinpath("webhook.schema.json").read_text()
        return dict(json.loads(text))
    return dict(json.loads((SCHEMAS / f"{name}.schema.json").read_text()))


def problems(document: Any, name: str) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema(name), format_checker=FORMATS)
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in validator.iter_errors(document)
    ]


class Receiver:
    """Records every request; answers 400 to a body its schema refuses, else the next scripted answer
    (status, headers), then ``ok`` once the script is spent."""

    def __init__(
        self, schema_name: str | None, script: list[tuple[int, dict[str, str]]] | None = None, ok: int = 200
    ) -> None:
        self.bodies: list[Any] = []
        self.invalid: list[list[str]] = []
        self.times: list[float] = []
        self.headers: list[dict[str, str]] = []
        self.paths: list[str] = []
        script = list(script or [])
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.times.append(time.monotonic())
                receiver.headers.append(dict(self.headers.items()))
                receiver.paths.append(self.path)
                body = json.loads(raw)
                receiver.bodies.append(body)
                found = problems(body, schema_name) if schema_name else []
                if len(raw) > MAX_BODY_BYTES:
                    found.append(f"body of {len(raw)} bytes")
                if found:
                    receiver.invalid.append(found)
                    self._answer(400, {}, "invalid_payload")
                elif script:
                    status, headers = script.pop(0)
                    self._answer(status, headers, "not now")
                else:
                    self._answer(ok, {}, "ok")

            def _answer(self, status: int, headers: dict[str, str], text: str) -> None:
                payload = text.encode()
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = (
            f"http://127.0.0.1:{self.server.server_port}/services/T0SECRET1/B0SECRET2/hooksecrettoken42"
        )
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/services/T0SECRET1/B0SECRET2/downsecrettoken42"


class Trickle:
    """A server that reads the request, then answers one byte every ``every_s`` seconds, for ever: each read
    is quick, so no per-read timeout ever fires."""

    def __init__(self, every_s: float = 0.2) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = (
            f"http://127.0.0.1:{self.listener.getsockname()[1]}/services/T0SECRET1/B0SECRET2/slowsecret42"
        )
        self.every_s = every_s
        self.closed = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._drip, args=(connection,), daemon=True).start()

    def _drip(self, connection: socket.socket) -> None:
        with connection:
            connection.recv(65536)
            answer = b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 100_000
            for index in range(len(answer)):
                if self.closed.wait(self.every_s):
                    return
                try:
                    connection.sendall(answer[index : index + 1])
                except OSError:
                    return

    def close(self) -> None:
        self.closed.set()
        self.listener.close()
