"""Where a framework app's spans go: ragpulse's decorators, or an OpenInference instrumentor for one call."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

import ragpulse
from opentelemetry import trace


def ragpulse_to(provider: trace.TracerProvider | None) -> AbstractContextManager[None]:
    """The decorated steps record to ``provider``, or to the global provider when None."""
    return nullcontext() if provider is None else ragpulse.use_tracer_provider(provider)


@contextmanager
def openinference_to(instrumentor: Any, provider: trace.TracerProvider | None) -> Iterator[None]:
    """``instrumentor`` (an OpenInference instrumentor) traces the block into ``provider`` (else the global
    one), and is removed after it so the next call can pick another provider."""
    instrumentor.instrument(tracer_provider=provider or trace.get_tracer_provider())
    try:
        yield
    finally:
        instrumentor.uninstrument()
