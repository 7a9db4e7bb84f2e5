"""Traffic for the demo: questions sent through the instrumented service, a chosen share of them injected.

Which requests get an injected statement is exact and deterministic: per variant, ``round(rate * n)`` of its
requests, chosen by a shuffle seeded with ``seed``, so two runs with the same arguments send the same traffic.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import ragpulse
from opentelemetry import trace

from ragpulse_example.backends import Backend, default_backend
from ragpulse_example.bm25 import default_index
from ragpulse_example.questions import load_questions
from ragpulse_example.service import RagFusionService, variant_named

logger = logging.getLogger(__name__)

SERVICE_NAME = "ragpulse-example"
# Flushing every so often keeps the exporter's bounded queue from dropping spans during a fast burst.
FLUSH_EVERY = 100


@dataclass(frozen=True)
class RequestRecord:
    index: int
    variant: str
    question_id: str
    question: str
    answer: str
    injected: bool
    trace_id: str
    error: str | None = None


@dataclass
class VariantTraffic:
    sent: int = 0
    injected: int = 0
    errors: int = 0

    @property
    def injected_rate(self) -> float:
        return self.injected / self.sent if self.sent else 0.0


@dataclass
class TrafficSummary:
    model: str
    requests: int = 0
    errors: int = 0
    elapsed_s: float = 0.0
    by_variant: dict[str, VariantTraffic] = field(default_factory=dict)
    records: list[RequestRecord] = field(default_factory=list)

    @property
    def injected(self) -> int:
        return sum(variant.injected for variant in self.by_variant.values())


def plan_injections(requests: int, variants: Sequence[str], inject_rate: float, seed: int) -> list[bool]:
    """Per request, whether it is injected: exactly ``round(rate * n)`` of each variant's ``n`` requests."""
    if not 0.0 <= inject_rate <= 1.0:
        raise ValueError(f"inject rate must lie in [0, 1], got {inject_rate}")
    plan = [False] * requests
    rng = random.Random(seed)
    for slot in range(len(variants)):
        indices = list(range(slot, requests, len(variants)))
        rng.shuffle(indices)
        for index in indices[: round(inject_rate * len(indices))]:
            plan[index] = True
    return plan


def flush_spans() -> None:
    provider = trace.get_tracer_provider()
    force_flush = getattr(provider, "force_flush", None)
    if callable(force_flush):
        force_flush()


def run_traffic(
    endpoint: str,
    requests: int,
    inject_rate: float,
    variants: Sequence[str],
    seed: int,
    on_request: Callable[[RequestRecord], None] | None = None,
    backend: Backend | None = None,
) -> TrafficSummary:
    """Send ``requests`` questions, alternating ``variants``, to the OTLP/HTTP collector at ``endpoint``.

    Returns once every span has been handed to the exporter and flushed.
    """
    if not variants:
        raise ValueError("at least one variant is needed")
    chosen_backend = backend or default_backend()
    services = [RagFusionService(variant_named(name), chosen_backend, default_index()) for name in variants]
    ragpulse.configure(service_name=SERVICE_NAME, endpoint=endpoint)
    questions = load_questions()
    injections = plan_injections(requests, variants, inject_rate, seed)
    rng = random.Random(seed)
    summary = TrafficSummary(model=services[0].backend.model)
    started = time.monotonic()
    for index in range(requests):
        service = services[index % len(services)]
        question = rng.choice(questions)
        record = _send(service, index, question.id, question.text, injections[index], seed)
        tally = summary.by_variant.setdefault(service.variant.name, VariantTraffic())
        tally.sent += 1
        tally.injected += record.injected
        tally.errors += record.error is not None
        summary.records.append(record)
        if on_request is not None:
            on_request(record)
        if (index + 1) % FLUSH_EVERY == 0:
            flush_spans()
    flush_spans()
    summary.requests = requests
    summary.errors = sum(variant.errors for variant in summary.by_variant.values())
    summary.elapsed_s = time.monotonic() - started
    return summary


def _send(
    service: RagFusionService, index: int, question_id: str, question: str, injected: bool, seed: int
) -> RequestRecord:
    answer, error = "", None
    service.last_trace_id = ""
    try:
        answer = service.ask(question, inject_seed=seed * 1_000_003 + index if injected else None)
    except Exception as exc:  # One failed request (a model timeout, say) must not stop the traffic.
        logger.warning("request %d failed: %s", index, exc)
        error = f"{type(exc).__name__}: {exc}"
    return RequestRecord(
        index=index,
        variant=service.variant.name,
        question_id=question_id,
        question=question,
        answer=answer,
        injected=injected and error is None,
        trace_id=service.last_trace_id,
        error=error,
    )
