"""A scripted OpenAI-compatible server behind ``httpx.MockTransport``, for judge tests (no network)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import httpx
from pydantic import SecretStr
from ragpulse_scorers.settings import JudgeSettings, PriceSettings

Reply = httpx.Response | Callable[[httpx.Request], httpx.Response]
# What a judge played by a test function returns for a request body: the message content (a string or a
# JSON-able object) or a whole response (an HTTP error, say).
Answer = str | dict[str, Any] | httpx.Response

MODEL = "judge-test-model"
# $1 per million input tokens and $2 per million output tokens: easy to check by hand.
PRICES = {MODEL: PriceSettings(input_per_million=1.0, output_per_million=2.0)}


def judge_settings(**overrides: Any) -> JudgeSettings:
    """Settings for a fake endpoint: a rate limit high enough never to sleep, two retries, known prices."""
    values: dict[str, Any] = {
        "base_url": "http://judge.test/v1",
        "api_key": SecretStr("test-key"),
        "model": MODEL,
        "requests_per_minute": 60_000,
        "max_retries": 2,
        "prices": PRICES,
    }
    return JudgeSettings(**(values | overrides))


def completion(
    content: str | dict[str, Any], prompt_tokens: int = 100, completion_tokens: int = 20
) -> httpx.Response:
    text = content if isinstance(content, str) else json.dumps(content)
    return httpx.Response(
        200,
        json={
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": 0,
            "model": MODEL,
            "choices": [
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        },
    )


def word_completion(answer: str, alternatives: dict[str, float]) -> httpx.Response:
    """A one-token answer with its first token's top alternatives (token: log-probability), as OpenAI and
    llama.cpp give them when asked for ``logprobs``."""
    response = completion(answer, completion_tokens=1)
    body = json.loads(response.content)
    top = [{"token": token, "logprob": logprob, "bytes": None} for token, logprob in alternatives.items()]
    first = {"token": answer, "logprob": max(alternatives.values(), default=0.0), "top_logprobs": top}
    body["choices"][0]["logprobs"] = {"content": [first]}
    return httpx.Response(200, json=body)


def error(status: int, message: str = "failure", headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(
        status, json={"error": {"message": message, "type": "test", "code": None}}, headers=headers
    )


def answering(
    reply: Callable[[dict[str, Any]], Answer], prompt_tokens: int = 100, completion_tokens: int = 20
) -> Callable[[httpx.Request], httpx.Response]:
    """A ``FakeOpenAI`` reply made from each request body, for a judge whose answer depends on the prompt."""

    def respond(request: httpx.Request) -> httpx.Response:
        out = reply(json.loads(request.content))
        return out if isinstance(out, httpx.Response) else completion(out, prompt_tokens, completion_tokens)

    return respond


def timeout(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadTimeout("the judge took too long", request=request)


class FakeOpenAI:
    """Answers with the scripted replies in order, the last one repeating; records each request body."""

    def __init__(self, *replies: Reply) -> None:
        if not replies:
            raise ValueError("script at least one reply")
        self._replies = list(replies)
        self._lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.method == "GET" and request.url.path.endswith("/models"):
            # The reachability probe of a command a person waits on; not one of the scripted judge calls.
            return httpx.Response(200, json={"object": "list", "data": [{"id": MODEL, "object": "model"}]})
        with self._lock:
            self.requests.append(json.loads(request.content))
            reply = self._replies.pop(0) if len(self._replies) > 1 else self._replies[0]
        return reply(request) if callable(reply) else reply

    def http_client(self) -> httpx.Client:
        return httpx.Client(transport=httpx.MockTransport(self))

    def schema_names(self) -> list[str]:
        """The structured-output schema each request asked for, in order: which judge step was called."""
        return [schema_name(body) for body in self.requests]

    def messages(self, index: int = -1) -> list[dict[str, str]]:
        messages: list[dict[str, str]] = self.requests[index]["messages"]
        return messages


def schema_name(body: dict[str, Any]) -> str:
    """The answer model a request asks for, in the json_schema format or in json_object's (llama.cpp's)
    schema; "" when it asks for no format."""
    wanted = body.get("response_format") or {}
    if wanted.get("type") == "json_schema":
        return str(wanted["json_schema"]["name"])
    return str(wanted.get("schema", {}).get("title", ""))
