"""Traffic for the demo: questions sent through the instrumented service, some of them made to go wrong.

What goes wrong is planned exactly and deterministically. Per variant, ``round(rate * n)`` of its ``n``
requests get a planted unsupported statement; with a :class:`Drift`, ``round(share * m)`` of the ``m``
requests it sends from the drift point on get degraded retrieval. Both are chosen by shuffles seeded with
``seed``, so two runs with the same arguments send the same traffic.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
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
# A user asks this many questions in a row of one variant: a conversation (requests sharing a session id).
TURNS_PER_CONVERSATION = 3


@dataclass(frozen=True)
class Drift:
    """From ``at`` (a share of the run, 0 to 1) on, ``degraded[variant]`` of a variant's requests get degraded
    retrieval; variants it does not name keep theirs."""

    at: float
    degraded: Mapping[str, float]

    def start_index(self, requests: int) -> int:
        return round(self.at * requests)


@dataclass(frozen=True)
class PlannedRequest:
    variant: str
    planted: bool
    degraded_retrieval: bool


@dataclass(frozen=True)
class RequestRecord:
    index: int
    variant: str
    question_id: str
    question: str
    answer: str
    planted: bool
    degraded_retrieval: bool
    trace_id: str
    error: str | None = None


@dataclass
class VariantTraffic:
    sent: int = 0
    planted: int = 0
    degraded: int = 0
    errors: int = 0


@dataclass
class TrafficSummary:
    model: str
    requests: int = 0
    errors: int = 0
    elapsed_s: float = 0.0
    drift_started_at: float | None = None
    """Epoch seconds just before the first request from the drift point on was sent (None: no drift)."""
    by_variant: dict[str, VariantTraffic] = field(default_factory=dict)
    records: list[RequestRecord] = field(default_factory=list)

    @property
    def planted(self) -> int:
        return sum(variant.planted for variant in self.by_variant.values())


def plan_traffic(
    requests: int,
    variants: Sequence[str],
    inject: Mapping[str, float],
    seed: int,
    drift: Drift | None = None,
) -> list[PlannedRequest]:
    """Per request, in order: its variant (they alternate), whether it is planted, whether degraded."""
    _check_rates("inject", inject, variants)
    if drift is not None:
        _check_rates("drift", drift.degraded, variants)
        if not 0.0 <= drift.at <= 1.0:
            raise ValueError(f"the drift point must lie in [0, 1], got {drift.at}")
    planted: set[int] = set()
    degraded: set[int] = set()
    rng = random.Random(seed)
    drift_start = drift.start_index(requests) if drift is not None else requests
    for slot, name in enumerate(variants):
        indices = list(range(slot, requests, len(variants)))
        planted |= _exact_share(indices, inject.get(name, 0.0), rng)
        if drift is not None:
            later = [index for index in indices if index >= drift_start]
            degraded |= _exact_share(later, drift.degraded.get(name, 0.0), rng)
    return [
        PlannedRequest(variants[index % len(variants)], index in planted, index in degraded)
        for index in range(requests)
    ]


def _check_rates(what: str, rates: Mapping[str, float], variants: Sequence[str]) -> None:
    for name, rate in rates.items():
        if name not in variants:
            raise ValueError(f"{what} names variant {name!r}, which sends no traffic ({', '.join(variants)})")
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"{what} rate for variant {name} must lie in [0, 1], got {rate}")


def _exact_share(indices: list[int], rate: float, rng: random.Random) -> set[int]:
    shuffled = list(indices)
    rng.shuffle(shuffled)
    return set(shuffled[: round(rate * len(shuffled))])


def flush_spans() -> None:
    provider = trace.get_tracer_provider()
    force_flush = getattr(provider, "force_flush", None)
    if callable(force_flush):
        force_flush()


def run_traffic(
    endpoint: str,
    requests: int,
    inject: Mapping[str, float],
    variants: Sequence[str],
    seed: int,
    on_request: Callable[[RequestRecord], None] | None = None,
    backend: Backend | None = None,
    drift: Drift | None = None,
    spread_s: float = 0.0,
) -> TrafficSummary:
    """Send ``requests`` questions, alternating ``variants``, to the OTLP/HTTP collector at ``endpoint``,
    spread evenly over at least ``spread_s`` seconds as a service's traffic arrives over time (request i
    starts no earlier than ``i * spread_s / requests`` after the first). Each variant's questions come in
    conversations of TURNS_PER_CONVERSATION (one session id each).

    Returns once every span has been handed to the exporter and flushed.
    """
    if not variants:
        raise ValueError("at least one variant is needed")
    plan = plan_traffic(requests, variants, inject, seed, drift)
    chosen_backend = backend or default_backend()
    services = {
        name: RagFusionService(variant_named(name), chosen_backend, default_index()) for name in variants
    }
    ragpulse.configure(service_name=SERVICE_NAME, endpoint=endpoint)
    questions = load_questions()
    rng = random.Random(seed)
    summary = TrafficSummary(model=chosen_backend.model)
    drift_start = drift.start_index(requests) if drift is not None else None
    started = time.monotonic()
    for index, planned in enumerate(plan):
        wait = started + index * spread_s / requests - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        if index == drift_start:
            summary.drift_started_at = time.time()
        question = rng.choice(questions)
        session = f"{planned.variant}-{seed}-{index // (TURNS_PER_CONVERSATION * len(variants))}"
        record = _send(services[planned.variant], index, question.id, question.text, planned, seed, session)
        tally = summary.by_variant.setdefault(planned.variant, VariantTraffic())
        tally.sent += 1
        tally.planted += record.planted
        tally.degraded += record.degraded_retrieval
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
    service: RagFusionService,
    index: int,
    question_id: str,
    question: str,
    planned: PlannedRequest,
    seed: int,
    session: str,
) -> RequestRecord:
    answer, error = "", None
    service.last_trace_id = ""
    try:
        answer = service.ask(
            question,
            inject_seed=seed * 1_000_003 + index if planned.planted else None,
            degraded_retrieval=planned.degraded_retrieval,
            session_id=session,
        )
    except Exception as exc:  # One failed request (a model timeout, say) must not stop the traffic.
        logger.warning("request %d failed: %s", index, exc)
        error = f"{type(exc).__name__}: {exc}"
    return RequestRecord(
        index=index,
        variant=service.variant.name,
        question_id=question_id,
        question=question,
        answer=answer,
        planted=planned.planted and error is None,
        degraded_retrieval=planned.degraded_retrieval and error is None,
        trace_id=service.last_trace_id,
        error=error,
    )
