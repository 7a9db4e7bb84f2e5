"""One traced call: its span, its context, and how it ends (returned, raised, streamed, abandoned)."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import AsyncGeneratorType, GeneratorType, TracebackType
from typing import Any

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace import Span, Status, StatusCode, Tracer
from opentelemetry.util.types import AttributeValue

from ragpulse import semconv
from ragpulse.internal import report_internal_error
from ragpulse.request import RequestState, current_request
from ragpulse.results import stream_item_text
from ragpulse.settings import current_settings
from ragpulse.text import TextRecorder

Attributes = dict[str, AttributeValue]
STREAMING_RESPONSE_FIELD = "response_gen"
"""Where a LlamaIndex ``StreamingResponse`` (a generator) or ``AsyncStreamingResponse`` (an async generator)
streams its answer: the call ends when that stream does."""


class StepRecorder(ABC):
    """What one kind of step (rag, retrieve, ...) records when its call begins and ends."""

    span_name: str
    starts_request = False
    """True for the root: its call opens a new request state."""
    joins_text = False
    """True when a streamed result is text to join (an answer), False when it is a list of items."""
    consumed_kwargs: tuple[str, ...] = ()
    """Keyword arguments the step reads but the decorated function does not take: not passed on to it."""

    @abstractmethod
    def begin(self, call: Call, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Attributes:
        """Attributes known when the call starts; may keep per-call data in ``call.data``."""

    @abstractmethod
    def end(self, call: Call, result: Any) -> Attributes:
        """Attributes from the result (for a stream: the joined text or the list of items)."""

    def end_failed(self, call: Call) -> Attributes:
        """Attributes to record when the call raised; the root still records what its steps reported."""
        return {}

    def returned(self, call: Call, result: Any) -> Any:
        """What the traced function returns once its call has ended (not streamed): ``result`` by default."""
        return result


class Call:
    __slots__ = ("context", "data", "done", "recorder", "source", "span", "state", "texts")

    def __init__(self, recorder: StepRecorder, state: RequestState | None, texts: TextRecorder) -> None:
        self.recorder = recorder
        self.state = state
        self.texts = texts
        self.data: Any = None
        self.done = False
        self.span: Span = trace.INVALID_SPAN
        self.context: otel_context.Context | None = None
        self.source: Any = None
        """What a streamed result came in, for what else it holds: the object holding the stream (a
        LlamaIndex ``StreamingResponse`` or ``AsyncStreamingResponse``), else the list of streamed items
        (chunks reporting usage)."""

    def active(self, stream_end: type[BaseException] | tuple[()] = ()) -> Active:
        """``with call.active():`` runs a block with this call's span and request current (each step of a
        stream enters and leaves again); an exception from the block fails the call, except ``stream_end``,
        which the caller turns into the end of a stream."""
        return Active(self, stream_end)

    def complete(self, result: Any) -> Any:
        """End the call with its return value, or hand back a stream that ends it when the stream ends."""
        kind = type(result)
        if kind is GeneratorType or kind is SyncStream:
            return SyncStream(self, result)
        if kind is AsyncGeneratorType or kind is AsyncStream:
            return AsyncStream(self, result)
        if self.recorder.joins_text and kind is not str:
            answer_stream = getattr(result, STREAMING_RESPONSE_FIELD, None)
            wrapped: SyncStream | AsyncStream | None = None
            if type(answer_stream) is GeneratorType:
                wrapped = SyncStream(self, answer_stream)
            elif type(answer_stream) is AsyncGeneratorType:
                wrapped = AsyncStream(self, answer_stream)
            if wrapped is not None:
                self.source = result
                setattr(result, STREAMING_RESPONSE_FIELD, wrapped)
                return result
        self.finish(result)
        return self.recorder.returned(self, result)

    def finish(self, result: Any, *, streamed: bool = False, abandoned: bool = False) -> None:
        if self.done:
            return
        self.done = True
        try:
            if streamed:
                if self.source is None:
                    self.source = result
                result = _stream_value(result, self.recorder.joins_text)
            attributes = self.recorder.end(self, result)
            if abandoned:
                attributes[semconv.STREAM_ABANDONED] = True
            self._end_span(attributes)
        except Exception:
            report_internal_error(f"{self.recorder.span_name} end")
            self.span.end()

    def fail(self, error: BaseException) -> None:
        if self.done:
            return
        self.done = True
        try:
            self.span.record_exception(error)
            self.span.set_status(Status(StatusCode.ERROR, f"{type(error).__name__}: {error}"))
            self._end_span(self.recorder.end_failed(self))
        except Exception:
            report_internal_error(f"{self.recorder.span_name} error")
            self.span.end()

    def _end_span(self, attributes: Attributes) -> None:
        if self.texts.truncated:
            attributes[semconv.TRUNCATED] = json.dumps(self.texts.truncated)
        if attributes:
            self.span.set_attributes(attributes)
        self.span.end()


class Active:
    """The context manager :meth:`Call.active` returns (a class, not a generator: this runs on every call)."""

    __slots__ = ("_call", "_context_token", "_request_token", "_stream_end")

    def __init__(self, call: Call, stream_end: type[BaseException] | tuple[()]) -> None:
        self._call = call
        self._stream_end = stream_end

    def __enter__(self) -> None:
        self._context_token = otel_context.attach(self._call.context)  # type: ignore[arg-type]
        self._request_token = current_request.set(self._call.state)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        current_request.reset(self._request_token)
        otel_context.detach(self._context_token)
        if error is not None and not isinstance(error, self._stream_end):
            self._call.fail(error)


def _stream_value(items: list[Any], joins_text: bool) -> Any:
    """A stream's result: its text joined, or its items; a stream of lists (a runnable's output arriving in
    pieces, or a retriever's single list) is their concatenation."""
    if not joins_text:
        if items and all(type(item) is list for item in items):
            return [element for item in items for element in item]
        return items
    texts = [stream_item_text(item) for item in items]
    return "".join(text for text in texts if text is not None)


_tracer_cache: tuple[trace.TracerProvider, Tracer] | None = None
_provider_in_use: ContextVar[trace.TracerProvider | None] = ContextVar("ragpulse_provider", default=None)


@contextmanager
def use_tracer_provider(provider: trace.TracerProvider) -> Iterator[None]:
    """Record the requests that start inside this block with ``provider`` instead of the global one (for an
    application or a test that keeps several providers; OpenTelemetry sets the global one only once)."""
    token = _provider_in_use.set(provider)
    try:
        yield
    finally:
        _provider_in_use.reset(token)


def _tracer() -> Tracer:
    """The tracer of the provider in use as it is now, so a provider set after import is used."""
    global _tracer_cache
    provider = _provider_in_use.get() or trace.get_tracer_provider()
    cached = _tracer_cache
    if cached is not None and cached[0] is provider:
        return cached[1]
    tracer = provider.get_tracer(semconv.INSTRUMENTATION_NAME)
    _tracer_cache = (provider, tracer)
    return tracer


def start_call(recorder: StepRecorder, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Call | None:
    """Start the span of one call; None (and the call runs untraced) when ragpulse itself fails."""
    try:
        texts = TextRecorder(current_settings())
        if recorder.starts_request:
            call = Call(recorder, RequestState(span=trace.INVALID_SPAN, texts=texts), texts)
        else:
            call = Call(recorder, current_request.get(), texts)
        attributes = recorder.begin(call, args, kwargs)
        span = _tracer().start_span(recorder.span_name, attributes=attributes)
        call.span = span
        call.context = trace.set_span_in_context(span)
        if call.state is not None and recorder.starts_request:
            call.state.span = span
        return call
    except Exception:
        report_internal_error(f"{recorder.span_name} start")
        return None


class SyncStream:
    """Wraps a generator: every step runs inside the call's context; the span ends with the stream."""

    __slots__ = ("_call", "_inner", "_items")

    def __init__(self, call: Call, inner: GeneratorType[Any, Any, Any] | SyncStream) -> None:
        self._call = call
        self._inner = inner
        self._items: list[Any] = []

    def __iter__(self) -> SyncStream:
        return self

    def __next__(self) -> Any:
        return self._step(self._inner.send, None)

    def send(self, value: Any) -> Any:
        return self._step(self._inner.send, value)

    def throw(self, *error: Any) -> Any:
        return self._step(self._inner.throw, *error)

    def close(self) -> None:
        with self._call.active():
            self._inner.close()
        self._call.finish(self._items, streamed=True, abandoned=True)

    def _step(self, method: Callable[..., Any], *args: Any) -> Any:
        try:
            with self._call.active(StopIteration):
                item = method(*args)
        except StopIteration:
            self._call.finish(self._items, streamed=True)
            raise
        self._items.append(item)
        return item

    def __del__(self) -> None:
        _end_abandoned(self._call, self._items)


class AsyncStream:
    """Wraps an async generator the way :class:`SyncStream` wraps a generator."""

    __slots__ = ("_call", "_inner", "_items")

    def __init__(self, call: Call, inner: AsyncGeneratorType[Any, Any] | AsyncStream) -> None:
        self._call = call
        self._inner = inner
        self._items: list[Any] = []

    def __aiter__(self) -> AsyncStream:
        return self

    async def __anext__(self) -> Any:
        return await self._step(self._inner.asend, None)

    async def asend(self, value: Any) -> Any:
        return await self._step(self._inner.asend, value)

    async def athrow(self, *error: Any) -> Any:
        return await self._step(self._inner.athrow, *error)

    async def aclose(self) -> None:
        with self._call.active():
            await self._inner.aclose()
        self._call.finish(self._items, streamed=True, abandoned=True)

    async def _step(self, method: Callable[..., Any], *args: Any) -> Any:
        try:
            with self._call.active(StopAsyncIteration):
                item = await method(*args)
        except StopAsyncIteration:
            self._call.finish(self._items, streamed=True)
            raise
        self._items.append(item)
        return item

    def __del__(self) -> None:
        _end_abandoned(self._call, self._items)


def _end_abandoned(call: Call, items: list[Any]) -> None:
    """A stream dropped before its end (``break``, garbage collection) still ends its span."""
    if not call.done:
        call.finish(items, streamed=True, abandoned=True)
