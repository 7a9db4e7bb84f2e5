"""One judge call: prompt in, validated pydantic verdict out, through any OpenAI-compatible Chat Completions.

The client finds out which structured-output format the endpoint accepts (:mod:`.formats`), shows the judge a
filled example of the answer (:mod:`.output`), reads the JSON however the reply wraps it (:mod:`.parsing`)
and asks again, at a nonzero temperature and with what was wrong, when an answer cannot be used. It retries
429, 5xx, timeouts and connection errors itself (honouring ``Retry-After``), bounds concurrency and requests
per minute, keeps to the daily budget, and never pays twice for one judgment (see ``cache``).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

import httpx
import openai

from ragpulse_scorers.llm.budget import DailyBudget
from ragpulse_scorers.llm.cache import CachedJudgment, JudgeCache, cache_key
from ragpulse_scorers.llm.errors import (
    JudgeConnectionFailed,
    JudgeOutputInvalid,
    JudgeRejected,
    JudgeTimeout,
    JudgeUnavailable,
    PromptTooLarge,
    SteeringInData,
)
from ragpulse_scorers.llm.formats import (
    OutputFormat,
    may_be_rejected_format,
    negotiation_for,
    response_format,
)
from ragpulse_scorers.llm.output import JudgeOutput, example_instruction
from ragpulse_scorers.llm.parsing import closed_prefix, describe, is_bare_json_object, parse_reply
from ragpulse_scorers.llm.pricing import cost_usd, price_for
from ragpulse_scorers.llm.prompting import copied_reasoning, output_field_names, steering_in
from ragpulse_scorers.llm.ratelimit import TokenBucket
from ragpulse_scorers.llm.words import WordChoice, word_probabilities

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ragpulse_core.store import Store

    from ragpulse_scorers.settings import JudgeSettings

logger = logging.getLogger(__name__)

T = TypeVar("T", bound=JudgeOutput)

SEED = 20240711  # with temperature 0, a judge that honours seeds answers the same prompt the same way
MAX_RETRY_AFTER_S = 60.0  # a longer Retry-After is capped: the scheduler retries the request next tick anyway
BACKOFF_BASE_S = 1.0
BACKOFF_CAP_S = 30.0
PROBE_READ_TIMEOUT_S = 30.0
TOP_LOGPROBS = 10  # alternatives of the first token read for a word answer (OpenAI allows up to 20)

_REPAIR = (
    "Your reply could not be used: {problem}\n"
    "Reply again with only the corrected JSON object, shaped like the example, every field filled in."
)


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
    reply: str = ""
    """The judge's answer as it came (a cached verdict: the validated JSON kept for it)."""


@dataclass(frozen=True)
class _Reply:
    content: str
    input_tokens: int
    output_tokens: int
    truncated: bool
    first_token_logprobs: tuple[tuple[str, float], ...] = ()
    """The first answer token's most likely alternatives, when log-probabilities were asked for and given."""


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
            timeout=openai.Timeout(settings.timeout_s, connect=settings.connect_timeout_s),
        )
        self._slots = threading.BoundedSemaphore(settings.concurrency)
        self._rate = TokenBucket(settings.requests_per_minute, sleep=sleep)
        self._budget = DailyBudget(settings.daily_budget_usd, settings.daily_budget_tokens, store)
        self._cache = JudgeCache(store)
        self._price = price_for(settings.model, settings.prices, warn=not settings.local)
        self.formats = negotiation_for(settings.base_url, settings.model)
        self.logprobs_refused = False
        """The endpoint answered a request for log-probabilities with HTTP 400/422: later word answers ask
        for none (and are taken at their word)."""

    @property
    def endpoint(self) -> str:
        return self.settings.base_url or "the OpenAI API"

    def check_reachable(self) -> None:
        """Raise :class:`JudgeConnectionFailed` within the connect timeout when nothing answers at the
        endpoint; any HTTP answer, an error status included, counts as reachable, and so does a server that
        took the connection but is too busy to answer yet (a local model server generates one answer at a
        time, and lists its models only after it)."""
        try:
            self._openai.models.list(
                timeout=openai.Timeout(PROBE_READ_TIMEOUT_S, connect=self.settings.connect_timeout_s)
            )
        except openai.APIStatusError:
            return
        except openai.APIConnectionError as exc:  # a timeout is one too
            # By name: openai may raise from its own vendored copy of httpx rather than from httpx.
            if type(exc.__cause__).__name__ == "ReadTimeout":
                logger.info(
                    "judge %s busy: no answer to a probe within %gs", self.endpoint, PROBE_READ_TIMEOUT_S
                )
                return
            raise JudgeConnectionFailed(f"no judge answers at {self.endpoint}: {_cause(exc)}") from exc

    def judge(
        self,
        system: str,
        user: str,
        output_model: type[T],
        prompt_version: str,
        validate: Callable[[T], None] | None = None,
        max_output_tokens: int | None = None,
        schema: dict[str, Any] | None = None,
    ) -> JudgeCall[T]:
        """Judge once. ``validate`` raises ``JudgeRejected`` (or ``ValueError``) for a verdict that names
        things not in the input; that counts as invalid output. ``max_output_tokens`` caps this call's answer
        below ``judge.max_output_tokens`` (a judge that knows how short its answer is stops a model that pads
        it). ``schema``, narrower than ``output_model``'s own (a list of a known length), is what a server
        that constrains decoding holds the answer to; the prompt is the same either way. Raises a
        ``JudgeError`` subclass on failure.
        """
        schema = schema or output_model.model_json_schema()
        self._refuse_unsendable(system, user, output_field_names(schema))
        validate = _judged_not_copied(user, validate)
        system = f"{system}\n\n{example_instruction(output_model)}"
        key = cache_key(self.model, prompt_version, system, user, schema)
        hit = self._cache.get(key)
        if hit is not None:
            try:
                output = _accept(hit.response, output_model, validate)
            except ValueError as exc:
                logger.info("cached judgment %s no longer validates (%s); judging again", key[:12], exc)
            else:
                return JudgeCall(output, self.model, 0, 0, 0.0, 0.0, cached=True, reply=hit.response)

        with self._slots:
            self._budget.check()  # after waiting for a slot, so calls that were queued see the latest spend
            started = time.monotonic()
            call = _Call(
                system, output_model.__name__, schema, prompt_version, self._output_cap(max_output_tokens)
            )
            output, input_tokens, output_tokens, reply = self._judge_uncached(
                call, user, output_model, validate
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
            reply=reply,
        )

    def choose(
        self, system: str, user: str, words: tuple[str, ...], prompt_version: str
    ) -> JudgeCall[WordChoice]:
        """How likely the judge is to answer each of ``words`` (one-token answers such as yes/no): a small
        model's probability ranks answers better than the word it happens to write. Read from the first
        token's log-probabilities; a server that gives none yields the word it answered, with certainty. An
        answer that starts with none of the words raises ``JudgeOutputInvalid``.
        """
        self._refuse_unsendable(system, user, ())
        key = cache_key(self.model, prompt_version, system, user, {"words": list(words)})
        hit = self._cache.get(key)
        if hit is not None:
            try:
                output = WordChoice.model_validate_json(hit.response)
            except ValueError as exc:
                logger.info("cached judgment %s no longer validates (%s); judging again", key[:12], exc)
            else:
                return JudgeCall(output, self.model, 0, 0, 0.0, 0.0, cached=True, reply=hit.response)
        with self._slots:
            self._budget.check()
            started = time.monotonic()
            call = _Call(system, WordChoice.__name__, {}, prompt_version, 1, top_logprobs=TOP_LOGPROBS)
            reply = self._complete(call, [{"role": "user", "content": user}], 0.0, SEED)
            latency_ms = (time.monotonic() - started) * 1000
        probabilities = word_probabilities(reply.content, reply.first_token_logprobs, words)
        if probabilities is None:
            raise JudgeOutputInvalid(
                f"the judge answered {_first_line(reply.content, 60)!r}, none of {', '.join(words)}",
                reply.content,
            )
        output = WordChoice(probabilities=probabilities)
        self._cache.put(
            key,
            self.model,
            prompt_version,
            CachedJudgment(output.model_dump_json(), reply.input_tokens, reply.output_tokens),
        )
        return JudgeCall(
            output=output,
            model=self.model,
            input_tokens=reply.input_tokens,
            output_tokens=reply.output_tokens,
            cost_usd=cost_usd(self._price, reply.input_tokens, reply.output_tokens),
            latency_ms=latency_ms,
            cached=False,
            reply=reply.content,
        )

    def _refuse_unsendable(self, system: str, user: str, field_names: Collection[str]) -> None:
        size = len(system) + len(user)
        if size > self.settings.max_prompt_chars:
            raise PromptTooLarge(
                f"not sent to the judge: the prompt is {size:,} characters, over judge.max_prompt_chars"
                f" ({self.settings.max_prompt_chars:,})"
            )
        steering = steering_in(user, field_names)
        if steering:
            raise SteeringInData(f"not sent to the judge: the request holds {steering}")

    def _output_cap(self, wanted: int | None) -> int | None:
        caps = [cap for cap in (wanted, self.settings.max_output_tokens) if cap is not None]
        return min(caps) if caps else None

    def _judge_uncached(
        self, call: _Call, user: str, output_model: type[T], validate: Callable[[T], None] | None
    ) -> tuple[T, int, int, str]:
        """The first answer at temperature 0, then up to ``repairs`` rounds that show the judge its last
        answer and what was wrong with it, at ``repair_temperature`` (at 0 it would say the same again)."""
        question = {"role": "user", "content": user}
        reply = self._complete(call, [question], 0.0, SEED)
        input_tokens, output_tokens = reply.input_tokens, reply.output_tokens
        repairs = 0
        while True:
            try:
                output = _accept(reply.content, output_model, validate)
                return output, input_tokens, output_tokens, reply.content
            except ValueError as exc:
                problem = describe(exc)
            if reply.truncated and (kept := _salvaged(reply.content, output_model, validate)) is not None:
                return kept, input_tokens, output_tokens, reply.content
            if reply.truncated:
                problem += " (the reply was cut off at the length limit: keep explanations short)"
            if repairs == self.settings.repairs:
                plural = "" if repairs == 1 else "s"
                raise JudgeOutputInvalid(
                    f"{output_model.__name__} invalid after {repairs} repair{plural}: {problem}",
                    reply.content,
                )
            repairs += 1
            logger.info("judge output invalid (%s); asking for repair %d", problem, repairs)
            conversation = [
                question,
                {"role": "assistant", "content": reply.content},
                {"role": "user", "content": _REPAIR.format(problem=problem)},
            ]
            reply = self._complete(call, conversation, self.settings.repair_temperature, SEED + repairs)
            input_tokens += reply.input_tokens
            output_tokens += reply.output_tokens

    def _complete(self, call: _Call, messages: list[dict[str, str]], temperature: float, seed: int) -> _Reply:
        """One chat completion with retries; records what it cost against the budget."""
        attempt = 0
        while True:
            try:
                return self._negotiated(call, messages, temperature, seed)
            except openai.APITimeoutError as exc:
                failure: Exception = exc
                delay = _backoff(attempt)
            except openai.APIStatusError as exc:
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
            if attempt >= self.settings.max_retries:
                raise _exhausted(failure, attempt + 1, self.endpoint) from failure
            attempt += 1
            # DEBUG: the scheduler reports what retries could not fix, in one line per tick.
            logger.debug("judge call failed (%s); retry %d in %.1fs", failure, attempt, delay)
            self._sleep(delay)

    def _negotiated(
        self, call: _Call, messages: list[dict[str, str]], temperature: float, seed: int
    ) -> _Reply:
        """One answer in the best format the endpoint has not ruled out, moving down the formats when the
        server refuses one; raises the openai error when every format failed alike (the server is failing)."""
        if call.top_logprobs is not None:
            # A one-word answer read from its log-probabilities: plain text, outside the JSON negotiation.
            request = [{"role": "system", "content": call.system}, *messages]
            self._rate.acquire()
            try:
                response = self._create(call, request, OutputFormat.PLAIN, temperature, seed)
            except openai.APIStatusError as exc:
                if self.logprobs_refused or exc.status_code not in (400, 422):
                    raise
                self.logprobs_refused = True
                logger.warning(
                    "judge %s refused log-probabilities (HTTP %d: %s); one-word answers are taken as said",
                    self.endpoint,
                    exc.status_code,
                    _first_line(exc.message),
                )
                response = self._create(call, request, OutputFormat.PLAIN, temperature, seed)
            reply = _reply(response, request)
            self._record(call, reply)
            return reply
        first = self.formats.current
        while True:
            output_format = self.formats.current
            request = [{"role": "system", "content": call.system}, *messages]
            self._rate.acquire()
            try:
                response = self._create(call, request, output_format, temperature, seed)
            except openai.APIStatusError as exc:
                if (
                    output_format is not OutputFormat.PLAIN
                    and may_be_rejected_format(exc.status_code)
                    and not self.formats.confirmed(output_format)
                ):
                    why = f"refused (HTTP {exc.status_code}: {_first_line(exc.message)})"
                    self.formats.move_past(output_format, why)
                    continue
                if output_format is not first:
                    self.formats.restore(first)
                raise
            reply = _reply(response, request)
            self._record(call, reply)
            if output_format is OutputFormat.PLAIN or reply.truncated or is_bare_json_object(reply.content):
                self.formats.worked(output_format)
            else:
                self.formats.move_past(output_format, "ignored (the reply was not a bare JSON object)")
            return reply

    def _record(self, call: _Call, reply: _Reply) -> None:
        self._budget.record(
            self.model,
            call.prompt_version,
            reply.input_tokens,
            reply.output_tokens,
            cost_usd(self._price, reply.input_tokens, reply.output_tokens),
        )

    def _create(
        self,
        call: _Call,
        request: list[dict[str, str]],
        output_format: OutputFormat,
        temperature: float,
        seed: int,
    ) -> Any:
        options: dict[str, Any] = {}
        wanted = response_format(output_format, call.schema_name, call.schema)
        if wanted is not None:
            options["response_format"] = wanted
        if call.max_output_tokens is not None:
            options["max_tokens"] = call.max_output_tokens
        if call.top_logprobs is not None and not self.logprobs_refused:
            options |= {"logprobs": True, "top_logprobs": call.top_logprobs}
        return self._openai.chat.completions.create(
            model=self.model,
            messages=cast(Any, request),
            temperature=temperature,
            seed=seed,
            **options,
        )


@dataclass(frozen=True)
class _Call:
    """What stays the same across one judgment's attempts and repairs."""

    system: str
    schema_name: str
    schema: dict[str, Any]
    prompt_version: str
    max_output_tokens: int | None
    top_logprobs: int | None = None


def _judged_not_copied(user: str, validate: Callable[[T], None] | None) -> Callable[[T], None]:
    """``validate``, after refusing an answer whose reasoning is copied from the request (a verdict planted in
    the answer or a document, echoed by the judge)."""

    def check(output: T) -> None:
        copied = copied_reasoning(user, output.model_dump())
        if copied:
            raise JudgeRejected(
                f"{copied} is copied word for word from the text being judged; write your own reasoning"
            )
        if validate is not None:
            validate(output)

    return check


def _accept(content: str, output_model: type[T], validate: Callable[[T], None] | None) -> T:
    """Parse and validate; any problem is a ``ValueError`` (pydantic's ``ValidationError`` is one)."""
    output = parse_reply(content, output_model)
    if validate is not None:
        validate(output)
    return output


def _salvaged(content: str, output_model: type[T], validate: Callable[[T], None] | None) -> T | None:
    """The complete items of a reply cut off at the length limit, when they make a valid answer: a small
    model may go on listing (sub-questions, say) until the limit, and what it gave before is still usable."""
    closed = closed_prefix(content)
    if closed is None:
        return None
    try:
        output = _accept(closed, output_model, validate)
    except ValueError:
        return None
    logger.info("judge reply cut off at the length limit; its complete items are used")
    return output


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


def _exhausted(failure: Exception, attempts: int, endpoint: str) -> JudgeTimeout | JudgeUnavailable:
    if isinstance(failure, openai.APITimeoutError):
        return JudgeTimeout(f"judge timed out {attempts} times")
    if isinstance(failure, openai.APIConnectionError):
        return JudgeConnectionFailed(
            f"judge at {endpoint} unreachable after {attempts} attempts, last: {_cause(failure)}"
        )
    status = failure.status_code if isinstance(failure, openai.APIStatusError) else None
    return JudgeUnavailable(f"judge failed {attempts} times, last: {failure}", status)


def _first_line(text: str, limit: int = 200) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _cause(failure: Exception) -> str:
    """The innermost reason of a connection failure ("[Errno 111] Connection refused"), not the wrapper's."""
    reason: BaseException = failure
    while reason.__cause__ is not None:
        reason = reason.__cause__
    return str(reason) or type(reason).__name__


def _reply(response: Any, request: list[dict[str, str]]) -> _Reply:
    choice = response.choices[0] if response.choices else None
    content = (choice.message.content if choice is not None else None) or ""
    truncated = choice is not None and choice.finish_reason == "length"
    alternatives = _first_token_alternatives(choice)
    usage = response.usage
    if usage is not None:
        return _Reply(
            content, int(usage.prompt_tokens or 0), int(usage.completion_tokens or 0), truncated, alternatives
        )
    # Some self-hosted servers omit usage; ~4 characters a token keeps a token budget meaningful.
    prompt_chars = sum(len(message["content"]) for message in request)
    return _Reply(content, max(1, prompt_chars // 4), max(1, len(content) // 4), truncated, alternatives)


def _first_token_alternatives(choice: Any) -> tuple[tuple[str, float], ...]:
    """``(token, logprob)`` of the first answer token's top alternatives; empty when the server gave none or
    gave something else (a server's extension fields are not trusted to be well formed)."""
    logprobs = getattr(choice, "logprobs", None)
    content = getattr(logprobs, "content", None)
    if not content:
        return ()
    alternatives = getattr(content[0], "top_logprobs", None) or []
    found = []
    for alternative in list(alternatives)[:TOP_LOGPROBS]:
        token, logprob = getattr(alternative, "token", None), getattr(alternative, "logprob", None)
        if isinstance(token, str) and isinstance(logprob, int | float):
            found.append((token, float(logprob)))
    return tuple(found)


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
