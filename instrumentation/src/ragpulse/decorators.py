"""The public decorators: each usable bare or with keyword options, on any kind of function."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, overload

from ragpulse import semconv
from ragpulse.calls import StepRecorder, start_call
from ragpulse.guarding import Guard
from ragpulse.runnables import is_runnable, traced_runnable
from ragpulse.steps import (
    FuseRecorder,
    GenerateRecorder,
    RagRecorder,
    RetrieveRecorder,
    VariationsRecorder,
)

F = TypeVar("F", bound=Callable[..., Any])


def instrument(function: F, recorder: StepRecorder) -> F:
    """Wrap ``function`` so each call is one span: a function (sync, coroutine, generator or async
    generator) gets a function, a runnable (``invoke``/``stream``/...) a runnable."""
    if is_runnable(function):
        return traced_runnable(function, recorder)  # type: ignore[no-any-return]
    target = _without_keywords(function, recorder.consumed_kwargs) if recorder.consumed_kwargs else function

    if inspect.isgeneratorfunction(function) or inspect.isasyncgenfunction(function):

        @functools.wraps(function)
        def stream_wrapper(*args: Any, **kwargs: Any) -> Any:
            stream = target(*args, **kwargs)
            call = start_call(recorder, args, kwargs)
            return stream if call is None else call.complete(stream)

        return stream_wrapper  # type: ignore[return-value]

    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
            call = start_call(recorder, args, kwargs)
            if call is None:
                return await target(*args, **kwargs)
            with call.active():
                result = await target(*args, **kwargs)
            return call.complete(result)

        return async_wrapper  # type: ignore[return-value]

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        call = start_call(recorder, args, kwargs)
        if call is None:
            return target(*args, **kwargs)
        with call.active():
            result = target(*args, **kwargs)
        return call.complete(result)

    return wrapper  # type: ignore[return-value]


def _without_keywords(function: Callable[..., Any], names: tuple[str, ...]) -> Callable[..., Any]:
    def call_without(*args: Any, **kwargs: Any) -> Any:
        return function(*args, **{key: value for key, value in kwargs.items() if key not in names})

    return call_without


@overload
def rag(function: F, /) -> F: ...
@overload
def rag(
    *,
    pipeline: str | None = None,
    variant: str | None = None,
    question_arg: str | None = None,
    name: str | None = None,
    guard: bool | Guard = False,
) -> Callable[[F], F]: ...
def rag(
    function: F | None = None,
    /,
    *,
    pipeline: str | None = None,
    variant: str | None = None,
    question_arg: str | None = None,
    name: str | None = None,
    guard: bool | Guard = False,
) -> F | Callable[[F], F]:
    """The root span ``rag <pipeline>`` of one RAG request.

    The question is the argument named ``question_arg`` (else the first argument that carries one: a
    string, a ``QueryBundle``, a dict's ``question``/``query``/``input``); the answer is the returned string,
    a returned dict's or object's ``answer``/``text``/``output``/``content``/``result``/``response`` (also
    a message's content), or a streamed answer joined when its stream ends (a LlamaIndex
    ``StreamingResponse`` or ``AsyncStreamingResponse`` included). When no ``generate`` step reported the
    context, a returned ``Response``'s ``source_nodes`` or a dict's ``context``/``source_documents`` is the
    context.

    Decorating a runnable (a LangChain chain or retriever) returns a runnable: ``invoke``, ``ainvoke``,
    ``stream``, ``astream``, ``batch`` and ``abatch`` are traced, one span per input, and ``|`` composes.

    ``guard=True`` (or a :class:`~ragpulse.Guard` naming the judge, the time bound and an
    ``on_verdict`` handler) judges the answer against its context with the free judge when the call returns,
    in this process, and records the verdict on the span (``ragpulse.guard.*``); see ``docs/guard.md``.
    """
    guard_options = Guard() if guard is True else guard or None

    def decorate(target: F) -> F:
        options = {"pipeline": pipeline, "variant": variant, "question_arg": question_arg, "name": name}
        return instrument(target, RagRecorder(target, **options, guard=guard_options))

    return decorate if function is None else decorate(function)


@overload
def variations(function: F, /) -> F: ...
@overload
def variations(*, name: str | None = None) -> Callable[[F], F]: ...
def variations(function: F | None = None, /, *, name: str | None = None) -> F | Callable[[F], F]:
    """A step returning the query variations (a list of strings), recorded on the root as well."""

    def decorate(target: F) -> F:
        return instrument(target, VariationsRecorder(target, name=name))

    return decorate if function is None else decorate(function)


@overload
def retrieve(function: F, /) -> F: ...
@overload
def retrieve(*, name: str | None = None, capture_text: bool = False) -> Callable[[F], F]: ...
def retrieve(
    function: F | None = None, /, *, name: str | None = None, capture_text: bool = False
) -> F | Callable[[F], F]:
    """A retrieval ``(query, ...) -> chunks``: the ranking is recorded as ids and scores.

    ``capture_text=True`` also records each chunk's text on this span (when content capture is on). The
    query index is the ``query_index`` argument when the caller passes one (the decorator consumes it when
    the function does not take it), else the query's position among the request's queries: the question
    0, then the variations in order, so concurrent retrievals keep their query's index whichever starts
    first.
    """

    def decorate(target: F) -> F:
        return instrument(target, RetrieveRecorder(target, name=name, capture_text=capture_text))

    return decorate if function is None else decorate(function)


@overload
def fuse(function: F, /) -> F: ...
@overload
def fuse(
    *, name: str | None = None, method: str = semconv.FUSION_METHOD_RRF, k: int | None = None
) -> Callable[[F], F]: ...
def fuse(
    function: F | None = None,
    /,
    *,
    name: str | None = None,
    method: str = semconv.FUSION_METHOD_RRF,
    k: int | None = None,
) -> F | Callable[[F], F]:
    """A fusion ``(rankings, ...) -> chunks``: input rankings and the fused ranking as ids and scores.

    ``k`` is recorded from the option, else from the function's ``k`` argument or its default.
    """

    def decorate(target: F) -> F:
        return instrument(target, FuseRecorder(target, name=name, method=method, k=k))

    return decorate if function is None else decorate(function)


@overload
def generate(function: F, /) -> F: ...
@overload
def generate(*, name: str | None = None, model: str | None = None) -> Callable[[F], F]: ...
def generate(
    function: F | None = None, /, *, name: str | None = None, model: str | None = None
) -> F | Callable[[F], F]:
    """The answer generation ``(question, chunks, ...) -> str`` (or a stream of str).

    The chunks argument (named ``chunks``/``context``/``documents``/``docs``, else the first list, else a
    dict argument's ``context``/``source_documents``) becomes the root's ``ragpulse.context``. The model is
    the option, else the function's ``model`` argument, else the one the response names (a LangChain
    message's ``response_metadata``); token usage comes from the response (``usage``, ``usage_metadata``),
    summed over a stream's chunks.
    """

    def decorate(target: F) -> F:
        return instrument(target, GenerateRecorder(target, name=name, model=model))

    return decorate if function is None else decorate(function)
