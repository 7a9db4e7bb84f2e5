"""An OpenAI-compatible chat-completions server on a loopback port, whose replies a test writes.

Unlike ``judge_testing`` (httpx's MockTransport inside the client), this is a real HTTP server: a config's
``[judge] base_url`` points at it and every ragpulse process (a CLI run included) talks to it as it would
to vLLM or Ollama. Each reply comes from ``answer(system, user)``; every request is kept for assertions.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Answer = Callable[[str, str], str]


@dataclass
class FakeJudge:
    url: str
    calls: list[dict[str, Any]] = field(default_factory=list)

    def prompts(self) -> list[str]:
        """The user message of each call, in order."""
        return [next(m["content"] for m in call["messages"] if m["role"] == "user") for call in self.calls]


@contextmanager
def fake_judge(answer: Answer) -> Iterator[FakeJudge]:
    judge = FakeJudge("")
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self._send({"object": "list", "data": [{"id": "fake-judge", "object": "model"}]})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            with lock:
                judge.calls.append(body)
            messages = body["messages"]
            system = "\n".join(m["content"] for m in messages if m["role"] == "system")
            user = next(m["content"] for m in messages if m["role"] == "user")
            content = answer(system, user)
            self._send(
                {
                    "id": "chatcmpl-fake",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body.get("model", "fake-judge"),
                    "choices": [
                        {"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}
                    ],
                    "usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150},
                }
            )  # fmt: skip

        def _send(self, document: dict[str, Any]) -> None:
            payload = json.dumps(document).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    judge.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield judge
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
