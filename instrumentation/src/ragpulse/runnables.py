"""Decorating a runnable: an object called through ``invoke``/``ainvoke``/``stream``/``astream``/``batch``/
``abatch`` (a LangChain chain, retriever or model) rather than called itself.

The decorator returns a runnable whose calls are traced, one span per input. No framework is imported: when
the object's class derives from a class named ``Runnable`` that composes with ``|`` (LangChain's), the traced
object derives from that same class, so ``|`` composes, the framework's own ``batch``, ``map()`` and
``transform`` go through the traced ``invoke`` and ``stream``, and the framework's callbacks still see it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any, Final

from ragpulse.calls import StepRecorder, start_call

RUNNABLE_BASE_NAME: Final = "Runnable"
_FORWARDED_PROPERTIES: Final = ("InputType", "OutputType", "config_specs")
_FORWARDED_METHODS: Final = ("get_name", "get_input_schema", "get_output_schema", "get_graph")


def is_runnable(target: object) -> bool:
    """An object (not a function or class) with a callable ``invoke``."""
    return (
        not inspect.isroutine(target)
        and not inspect.isclass(target)
        and callable(getattr(target, "invoke", None))
    )


def traced_runnable(inner: Any, recorder: StepRecorder) -> Any:
    base = _framework_base(type(inner))
    traced_class: type[TracedRunnable] = TracedBatchRunnable if base is None else _traced_subclass(base)
    traced = object.__new__(traced_class)
    traced._ragpulse_inner = inner
    traced._ragpulse_recorder = recorder
    return traced


def _framework_base(kind: type) -> type | None:
    for klass in kind.__mro__:
        if klass.__name__ == RUNNABLE_BASE_NAME and hasattr(klass, "__or__") and hasattr(klass, "batch"):
            return klass
    return None


class TracedRunnable:
    """``invoke``, ``ainvoke``, ``stream`` and ``astream`` of the decorated runnable, each call one span; any
    other attribute is the decorated runnable's."""

    _ragpulse_inner: Any
    _ragpulse_recorder: StepRecorder

    def invoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        inner = self._ragpulse_inner
        call = start_call(self._ragpulse_recorder, (input,), {})
        if call is None:
            return inner.invoke(input, config, **kwargs)
        with call.active():
            result = inner.invoke(input, config, **kwargs)
        return call.complete(result)

    async def ainvoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        inner = self._ragpulse_inner
        call = start_call(self._ragpulse_recorder, (input,), {})
        if call is None:
            return await inner.ainvoke(input, config, **kwargs)
        with call.active():
            result = await inner.ainvoke(input, config, **kwargs)
        return call.complete(result)

    def stream(self, input: Any, config: Any = None, **kwargs: Any) -> Iterator[Any]:
        inner = self._ragpulse_inner

        def chunks() -> Iterator[Any]:
            # Created lazily so the inner stream starts inside the call's span, on the first step.
            yield from inner.stream(input, config, **kwargs)

        call = start_call(self._ragpulse_recorder, (input,), {})
        return chunks() if call is None else call.complete(chunks())

    def astream(self, input: Any, config: Any = None, **kwargs: Any) -> AsyncIterator[Any]:
        inner = self._ragpulse_inner

        async def chunks() -> AsyncIterator[Any]:
            async for chunk in inner.astream(input, config, **kwargs):
                yield chunk

        call = start_call(self._ragpulse_recorder, (input,), {})
        return chunks() if call is None else call.complete(chunks())

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_ragpulse"):
            raise AttributeError(name)
        return getattr(self._ragpulse_inner, name)

    def __repr__(self) -> str:
        return f"ragpulse.{self._ragpulse_recorder.span_name}({self._ragpulse_inner!r})"


class TracedBatchRunnable(TracedRunnable):
    """A traced runnable of no known framework: ``batch``/``abatch`` are the traced ``invoke``/``ainvoke``
    per input (a framework's own ``batch`` would bypass them)."""

    def batch(
        self, inputs: Sequence[Any], config: Any = None, *, return_exceptions: bool = False, **kwargs: Any
    ) -> list[Any]:
        results: list[Any] = []
        for item, item_config in zip(inputs, _configs(config, len(inputs)), strict=True):
            try:
                results.append(self.invoke(item, item_config, **kwargs))
            except Exception as error:
                if not return_exceptions:
                    raise
                results.append(error)
        return results

    async def abatch(
        self, inputs: Sequence[Any], config: Any = None, *, return_exceptions: bool = False, **kwargs: Any
    ) -> list[Any]:
        import asyncio  # here, not at the top: a service that only decorates need not load asyncio

        calls = (
            self.ainvoke(item, item_config, **kwargs)
            for item, item_config in zip(inputs, _configs(config, len(inputs)), strict=True)
        )
        return list(await asyncio.gather(*calls, return_exceptions=return_exceptions))


def _configs(config: Any, count: int) -> list[Any]:
    return list(config) if isinstance(config, list) else [config] * count


@functools.cache
def _traced_subclass(base: type) -> type[TracedRunnable]:
    """``TracedRunnable`` over the framework's base class; what describes the runnable (its name, schemas)
    is the decorated runnable's."""
    namespace: dict[str, Any] = {"__module__": __name__}
    for name in _FORWARDED_PROPERTIES:
        namespace[name] = property(functools.partial(_forwarded_attribute, name=name))
    for name in _FORWARDED_METHODS:
        namespace[name] = functools.partialmethod(_forwarded_call, name)
    return type(f"Traced{base.__name__}", (TracedRunnable, base), namespace)


def _forwarded_attribute(self: TracedRunnable, *, name: str) -> Any:
    return getattr(self._ragpulse_inner, name)


def _forwarded_call(self: TracedRunnable, name: str, /, *args: Any, **kwargs: Any) -> Any:
    return getattr(self._ragpulse_inner, name)(*args, **kwargs)
