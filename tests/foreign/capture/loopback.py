"""The two loopback servers a capture run needs, on the standard library only (the capture script runs under
any Python 3.11, before any family's venv exists).

``FakeModel`` answers OpenAI chat completions, streamed or not, with a reply made from the prompt: the
sentence of the pasted documents that shares the most words with the question, so every answer is grounded
in the context and the same prompt always gets the same answer. DSPy's ChatAdapter asks for
``[[ ## field ## ]]`` sections; those are answered in that format.

``OtlpSink`` is an OTLP/HTTP endpoint that keeps every request body (un-gzipped), per signal, in arrival
order, and answers 200 with an empty export response as a collector would.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SIGNALS = ("traces", "logs", "metrics")
_WORD = re.compile(r"[a-z0-9]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_FIELD = re.compile(r"\[\[ ## (\w+) ## \]\]")
_STOP_WORDS = frozenset(
    re.findall(r"\w+", "a an and are as at be by can do does for from how i in is it of on or the to")
    + re.findall(r"\w+", "what when where which who why with you your my me")
)
_MARKUP = re.compile(r"</?doc[^>]*>|^\s*(\[\d+\]|document \d+:|---)\s*|[«»]", re.IGNORECASE | re.MULTILINE)


def _words(text: str) -> set[str]:
    return {word for word in _WORD.findall(text.lower()) if word not in _STOP_WORDS}


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def _question(messages: list[dict[str, Any]]) -> str:
    users = [_text(m.get("content")) for m in messages if m.get("role") == "user"]
    last = users[-1] if users else ""
    for marker in ("[[ ## question ## ]]", "Question:"):
        if marker in last:
            return last.rsplit(marker, 1)[1].strip().split("\n\n")[0].strip()
    lines = [line.strip() for line in last.splitlines() if line.strip()]
    asked = [line for line in lines if line.endswith("?")]
    return (asked or lines or [""])[-1]


def _output_fields(messages: list[dict[str, Any]]) -> list[str]:
    """The fields DSPy's ChatAdapter asks for, in order ('Your output fields are:' in its system prompt)."""
    system = "\n".join(_text(m.get("content")) for m in messages if m.get("role") == "system")
    if "[[ ## completed ## ]]" not in system or "Your output fields are:" not in system:
        return []
    listed = system.split("Your output fields are:", 1)[1].split("All interactions", 1)[0]
    return re.findall(r"^\s*\d+\.\s*`(\w+)`", listed, re.MULTILINE)


def reply(messages: list[dict[str, Any]]) -> str:
    """The answer to a chat prompt: the best-supported sentence of its documents, in the format asked for; to
    a request for a search query, the question's key words."""
    question = _question(messages)
    asked = _words(question)
    if any("search query" in _text(m.get("content")) for m in messages if m.get("role") == "system"):
        return " ".join(word for word in _WORD.findall(question.lower()) if word in asked)
    sentences = []
    for message in messages:
        text = _text(message.get("content"))
        if message.get("role") == "system" and "[[ ## completed ## ]]" in text:
            continue  # DSPy's format instructions
        text = _FIELD.sub("\n", text.replace(question, " "))
        for line in _MARKUP.sub("", text).splitlines():
            sentences.extend(
                s.strip() for s in _SENTENCE_END.split(line.strip()) if s.endswith((".", "!", "?"))
            )
    # A word shared by fewer sentences says more about which one answers.
    spread = Counter(word for sentence in sentences for word in _words(sentence))
    best, best_weight = "I could not find that in the documents.", 0.0
    for sentence in sentences:
        weight = sum(1 / spread[word] for word in asked & _words(sentence))
        if weight > best_weight:
            best, best_weight = sentence, weight
    fields = _output_fields(messages)
    if not fields:
        return best
    sections = [
        f"[[ ## {name} ## ]]\n{'The documents say so.' if name == 'reasoning' else best}" for name in fields
    ]
    return "\n\n".join([*sections, "[[ ## completed ## ]]"])


def _usage(messages: list[dict[str, Any]], answer: str) -> dict[str, int]:
    prompt = sum(len(_text(m.get("content")).split()) for m in messages)
    completion = len(answer.split())
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def completion(request: dict[str, Any]) -> dict[str, Any]:
    messages = request.get("messages", [])
    answer = reply(messages)
    return {
        "id": f"chatcmpl-{hashlib.sha1(answer.encode()).hexdigest()[:12]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "fake-model"),
        "system_fingerprint": "fp_loopback",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}
        ],
        "usage": _usage(messages, answer),
    }


def completion_chunks(request: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The same answer as :func:`completion`, a few words per chunk, then usage when the caller asked."""
    whole = completion(request)
    answer = whole["choices"][0]["message"]["content"]
    base = {k: whole[k] for k in ("id", "created", "model", "system_fingerprint")} | {
        "object": "chat.completion.chunk"
    }
    pieces = re.findall(r"\S+\s*", answer)
    yield base | {
        "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]
    }
    for start in range(0, len(pieces), 3):
        delta = {"content": "".join(pieces[start : start + 3])}
        yield base | {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    yield base | {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    if (request.get("stream_options") or {}).get("include_usage"):
        yield base | {"choices": [], "usage": whole["usage"]}


class _ModelHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the capture script reports what matters."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        request = json.loads(self.rfile.read(length) or b"{}")
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        if request.get("stream"):
            self._stream(request)
        else:
            self._json(200, completion(request))

    def _json(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _stream(self, request: dict[str, Any]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for chunk in completion_chunks(request):
            self._chunk(f"data: {json.dumps(chunk)}\n\n".encode())
        self._chunk(b"data: [DONE]\n\n")
        self._chunk(b"")

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")


@dataclass(frozen=True)
class Payload:
    signal: str
    body: bytes


class OtlpSink:
    """Keeps OTLP/HTTP bodies in arrival order until :meth:`take` hands them over."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._payloads: list[Payload] = []
        self.refused: list[str] = []

    def add(self, path: str, body: bytes, encoding: str) -> bool:
        signal = path.rstrip("/").rsplit("/", 1)[-1]
        if signal not in SIGNALS or not path.startswith("/v1/"):
            self.refused.append(path)
            return False
        with self._lock:
            self._payloads.append(Payload(signal, gzip.decompress(body) if encoding == "gzip" else body))
        return True

    def take(self) -> list[Payload]:
        with self._lock:
            payloads, self._payloads = self._payloads, []
        return payloads


def _sink_handler(sink: OtlpSink) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet."""

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if not sink.add(self.path, body, self.headers.get("Content-Encoding", "")):
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", "0")
            self.end_headers()

    return Handler


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """A threaded HTTP server on a free loopback port for the block; yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def fake_model() -> Iterator[str]:
    """The fake OpenAI-compatible model; yields its ``/v1`` base URL."""
    with serving(_ModelHandler) as url:
        yield f"{url}/v1"


@contextmanager
def otlp_sink() -> Iterator[tuple[str, OtlpSink]]:
    """The capture endpoint; yields its base URL (exporters append ``/v1/<signal>``) and the sink."""
    sink = OtlpSink()
    with serving(_sink_handler(sink)) as url:
        yield url, sink
