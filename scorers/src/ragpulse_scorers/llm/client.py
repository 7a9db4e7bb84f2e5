"""One judge call: prompt in, validated pydantic verdict out, through any OpenAI-compatible Chat Completions.

The client asks for JSON by schema (``response_format=json_schema``) and falls back to plain JSON mode, for
the rest of its life, on a server that rejects schemas. It retries 429, 5xx, timeouts and connection errors
itself (honouring ``Retry-After``), gives unparseable or invalid output one repair round, bounds concurrency
and requests per minute, keeps to the daily budget, and never pays twice for one judgment (see ``cache``).
"""

from __future__ import annotations

import json
import logging
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

import httpx
import openai
from pydantic import BaseModel, ValidationError

from ragpulse_scorers.llm.budget import DailyBudget
from ragpulse_scorers.llm.cache import CachedJudgment, JudgeCache, cache_key
from ragpulse_scorers.llm.errors import (
    JudgeConnectionFailed,
    JudgeOutputInvalid,
    JudgeTimeout,
    JudgeUnavailable,
)
from ragpulse_scorers.llm.pricing import cost_usd, price_for
from ragpulse_scorers.llm.ratelimit import TokenBucket

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ragpulse_core.store import Store

    from ragpulse_scorers.settings import JudgeSettings

logger = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

SEED = (
    20240711  # fixed with temperature 0, so a judge that honours seeds answers the same prompt the same way
)
MAX_RETRY_AFTER_S = 60.0  # a longer Retry-After is capped: the scheduler retries the request next tick anyway
BACKOFF_BASE_S = 1.0
BACKOFF_CAP_S = 30.0

_REPAIR = (
    "Your reply could not be used: {problem}\n"
    "Reply again with only the corrected JSON object: no prose, no markdown fences."
)
_CODE_FENCE = re.compile(r"^\s*```[A-Za-z]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


@dataclass(frozen=True)
class JudgeCall(Generic[T]):
    """A verdict and what it cost; a cached verdict costs nothing now (``cached=True``, zero tokens, cost)."""

    output: T
    model: str
    input_tokens: int
    output_tokens: int
    cost_usd: float
    latency_ms: float
    cached: bool


@dataclass(frozen=True)
class _Reply:
    content: str
    input_tokens: int
    output_tokens: int


class JudgeClient:
    """Thread-safe; share one per endpoint (see :func:`shared_client`) so its limits and budget are global."""

    def __init__(
        self,
        settings: JudgeSettings,
        store: Store | None = None,
        http_client: httpx.Client | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self.model = settings.model
        self._sleep = sleep
        self._openai = openai.OpenAI(
            base_url=settings.base_url,
            # Self-hosted servers (vLLM, Ollama, llama.cpp) need no key; the openai package insists on one.
            api_key=settings.api_key.get_secret_value() if settings.api_key else "no-key",
            # openai>=3 runs on httpx2 and still accepts a classic httpx client (and its MockTransport).
            http_client=cast(Any, http_client),
            max_retries=0,
            timeout=settings.timeout_s,
        )
        self._slots = threading.BoundedSemaphore(settings.concurrency)
        self._rate = TokenBucket(settings.requests_per_minute, sleep=sleep)
        self._budget = DailyBudget(settings.daily_budget_usd, settings.daily_budget_tokens, store)
        self._cache = JudgeCache(store)
        self._price = price_for(settings.model, settings.prices)
        self._use_json_schema = True

    def judge(
        self,
        system: str,
        user: str,
        output_model: type[T],
        prompt_version: str,
        validate: Callable[[T], None] | None = None,
    ) -> JudgeCall[T]:
        """Judge once. ``validate`` raises ``JudgeRejected`` (or ``ValueError``) for a verdict that names
        things not in the input; that counts as invalid output. Raises a ``JudgeError`` subclass on failure.
        """
        schema = output_model.model_json_schema()
        key = cache_key(self.model, prompt_version, system, user, schema)
        hit = self._cache.get(key)
        if hit is not None:
            try:
                output = _accept(hit.response, output_model, validate)
            except ValueError as exc:
                logger.info("cached judgment %s no longer validates (%s); judging again", key[:12], exc)
            else:
                return JudgeCall(output, self.model, 0, 0, 0.0, 0.0, cached=True)

        with self._slots:
            self._budget.check()  # after waiting for a slot, so calls that were queued see the latest spend
            started = time.monotonic()
            output, input_tokens, output_tokens = self._judge_uncached(
                system, user, output_model, schema, prompt_version, validate
            )
            latency_ms = (time.monotonic() - started) * 1000
        self._cache.put(
            key,
            self.model,
            prompt_version,
            CachedJudgment(output.model_dump_json(), input_tokens, output_tokens),
        )
        return JudgeCall(
            output=output,
            model=self.model,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cost_usd=cost_usd(self._price, input_tokens, output_tokens),
            latency_ms=latency_ms,
            cached=False,
        )

    def _judge_uncached(
        self,
        system: str,
        user: str,
        output_model: type[T],
        schema: dict[str, Any],
        prompt_version: str,
        validate: Callable[[T], None] | None,
    ) -> tuple[T, int, int]:
        messages = [{"role": "user", "content": user}]
        first = self._complete(system, messages, output_model.__name__, schema, prompt_version)
        try:
            return _accept(first.content, output_model, validate), first.input_tokens, first.output_tokens
        except ValueError as exc:
            problem = _describe(exc)
        logger.info("judge output invalid (%s); asking for a repair", problem)
        messages += [
            {"role": "assistant", "content": first.content},
            {"role": "user", "content": _REPAIR.format(problem=problem)},
        ]
        second = self._complete(system, messages, output_model.__name__, schema, prompt_version)
        input_tokens = first.input_tokens + second.input_tokens
        output_tokens = first.output_tokens + second.output_tokens
        try:
            return _accept(second.content, output_model, validate), input_tokens, output_tokens
        except ValueError as exc:
            raise JudgeOutputInvalid(
                f"{output_model.__name__} invalid after one repair: {_describe(exc)}"
            ) from exc

    def _complete(
        self,
        system: str,
        messages: list[dict[str, str]],
        schema_name: str,
        schema: dict[str, Any],
        prompt_version: str,
    ) -> _Reply:
        """One chat completion with retries; records what it cost against the budget."""
        attempt = 0
        while True:
            self._rate.acquire()
            use_json_schema = self._use_json_schema
            request: list[dict[str, str]] = [
                {"role": "system", "content": system if use_json_schema else _with_schema(system, schema)},
                *messages,
            ]
            try:
                response = self._openai.chat.completions.create(
                    model=self.model,
                    messages=cast(Any, request),
                    temperature=0,
                    seed=SEED,
                    response_format=cast(Any, _response_format(schema_name, schema, use_json_schema)),
                )
            except openai.APITimeoutError as exc:
                failure: Exception = exc
                delay = _backoff(attempt)
            except openai.APIStatusError as exc:
                if use_json_schema and exc.status_code in (400, 422) and _mentions_schema(exc):
                    logger.warning(
                        "judge endpoint rejects json_schema output (%s); using JSON mode", exc.message
                    )
                    self._use_json_schema = False
                    continue
                if not _retryable(exc.status_code):
                    raise JudgeUnavailable(
                        f"judge endpoint refused the call: HTTP {exc.status_code}: {exc.message}",
                        exc.status_code,
                    ) from exc
                failure = exc
                delay = _retry_after(exc.response.headers) or _backoff(attempt)
            except openai.APIConnectionError as exc:
                failure = exc
                delay = _backoff(attempt)
            else:
                reply = _reply(response, request)
                self._budget.record(
                    self.model,
                    prompt_version,
                    reply.input_tokens,
                    reply.output_tokens,
                    cost_usd(self._price, reply.input_tokens, reply.output_tokens),
                )
                return reply
            if attempt >= self.settings.max_retries:
                raise _exhausted(failure, attempt + 1) from failure
            attempt += 1
            # DEBUG: the scheduler reports what retries could not fix, in one line per tick.
            logger.debug("judge call failed (%s); retry %d in %.1fs", failure, attempt, delay)
            self._sleep(delay)


def _accept(content: str, output_model: type[T], validate: Callable[[T], None] | None) -> T:
    """Parse and validate; any problem is a ``ValueError`` (pydantic's ``ValidationError`` is one)."""
    match = _CODE_FENCE.match(content)
    text = (match.group(1) if match else content).strip()
    if not text:
        raise ValueError("the reply was empty")
    output = output_model.model_validate_json(text)
    if validate is not None:
        validate(output)
    return output


def _describe(exc: ValueError) -> str:
    if isinstance(exc, ValidationError):
        problems = [f"{'.'.join(map(str, e['loc'])) or 'reply'}: {e['msg']}" for e in exc.errors()[:5]]
        return "; ".join(problems)
    return str(exc)


def _with_schema(system: str, schema: dict[str, Any]) -> str:
    return f"{system}\n\nReply with one JSON object that follows this JSON schema:\n{json.dumps(schema)}"


def _response_format(name: str, schema: dict[str, Any], use_json_schema: bool) -> dict[str, Any]:
    if not use_json_schema:
        return {"type": "json_object"}
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": False}}


def _mentions_schema(exc: openai.APIStatusError) -> bool:
    text = f"{exc.message} {json.dumps(exc.body, default=str)}".lower()
    return "response_format" in text or "json_schema" in text


def _retryable(status_code: int) -> bool:
    return status_code in (408, 409, 429) or status_code >= 500


def _backoff(attempt: int) -> float:
    # Jitter keeps several scorer workers that failed together from retrying together.
    return min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2.0**attempt) * random.uniform(0.5, 1.0)


def _retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds from ``retry-after-ms`` or ``Retry-After`` (seconds or HTTP date), capped; None if absent."""
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) * scale
        except ValueError:
            try:
                seconds = (parsedate_to_datetime(value) - datetime.now(UTC)).total_seconds()
            except (TypeError, ValueError):
                continue
        return min(max(seconds, 0.0), MAX_RETRY_AFTER_S)
    return None


def _exhausted(failure: Exception, attempts: int) -> JudgeTimeout | JudgeUnavailable:
    if isinstance(failure, openai.APITimeoutError):
        return JudgeTimeout(f"judge timed out {attempts} times")
    if isinstance(failure, openai.APIConnectionError):
        return JudgeConnectionFailed(f"judge unreachable after {attempts} attempts, last: {failure}")
    status = failure.status_code if isinstance(failure, openai.APIStatusError) else None
    return JudgeUnavailable(f"judge failed {attempts} times, last: {failure}", status)


def _reply(response: Any, request: list[dict[str, str]]) -> _Reply:
    content = response.choices[0].message.content if response.choices else None
    content = content or ""
    usage = response.usage
    if usage is not None:
        return _Reply(content, int(usage.prompt_tokens or 0), int(usage.completion_tokens or 0))
    # Some self-hosted servers omit usage; ~4 characters a token keeps a token budget meaningful.
    prompt_chars = sum(len(message["content"]) for message in request)
    return _Reply(content, max(1, prompt_chars // 4), max(1, len(content) // 4))


_shared: dict[tuple[str, str, str], JudgeClient] = {}
_shared_lock = threading.Lock()


def shared_client(settings: JudgeSettings, store: Store | None = None) -> JudgeClient:
    """The process's client for these settings and store, so every scorer judging through one endpoint shares
    its concurrency bound, requests-per-minute limit, budget and memory cache."""
    secret = settings.api_key.get_secret_value() if settings.api_key else ""
    key = (settings.model_dump_json(), secret, f"{store.dsn}#{store.database}" if store else "")
    with _shared_lock:
        client = _shared.get(key)
        if client is None:
            client = _shared[key] = JudgeClient(settings, store)
        return client
