"""The ids configure()'s provider gives: never repeated by an application that seeds ``random``."""

from __future__ import annotations

import os
import random

import pytest
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse.configure import build_tracer_provider


def ids_of_a_run(seed: int) -> set[tuple[int, int]]:
    """What a service that seeds ``random`` at start traces: a fresh provider, as after a restart."""
    random.seed(seed)
    provider = build_tracer_provider("seeded", "http://127.0.0.1:9", batch=False)
    exporter = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("test")
    for _ in range(3):
        with tracer.start_as_current_span("rag"), tracer.start_as_current_span("retrieve"):
            pass
    ids = {(span.context.trace_id, span.context.span_id) for span in exporter.get_finished_spans()}
    provider.shutdown()
    return ids


def test_a_service_that_seeds_random_does_not_repeat_the_ids_of_its_previous_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "none")
    first, second = ids_of_a_run(42), ids_of_a_run(42)
    assert len(first) == len(second) == 6
    assert not {trace for trace, _ in first} & {trace for trace, _ in second}
    assert not {span for _, span in first} & {span for _, span in second}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_worker_does_not_repeat_its_parents_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "none")
    provider = build_tracer_provider("forking", "http://127.0.0.1:9", batch=False)
    generator = provider.id_generator
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reader)
        os.write(writer, f"{generator.generate_trace_id():032x}".encode())
        os._exit(0)
    os.close(writer)
    child = os.read(reader, 64).decode()
    os.close(reader)
    os.waitpid(pid, 0)
    provider.shutdown()
    assert child and child != f"{generator.generate_trace_id():032x}"
