"""Trace and span ids that no seeding of the application's ``random`` can repeat.

OpenTelemetry's default ``RandomIdGenerator`` draws from the global ``random`` module, so a service that calls
``random.seed(…)`` at start (many do, for reproducible sampling or tests) restarts with the same ids as its
previous run, and its new requests look like the old ones. These ids come from a private generator seeded
from the operating system's entropy: as cheap per id as the default (one ``getrandbits``), and re-seeded in a
forked child, which would otherwise repeat its parent's sequence (pre-fork servers such as gunicorn).
"""

from __future__ import annotations

import os
import random

from opentelemetry.sdk.trace.id_generator import IdGenerator
from opentelemetry.trace import INVALID_SPAN_ID, INVALID_TRACE_ID

_SEED_BYTES = 32


class EntropyIdGenerator(IdGenerator):
    """Ids from a ``random.Random`` of its own, seeded from ``os.urandom`` and again after every fork."""

    def __init__(self) -> None:
        self._random = random.Random(os.urandom(_SEED_BYTES))
        self._bits = self._random.getrandbits  # bound once: ids are drawn on every span's start
        os.register_at_fork(after_in_child=self._reseed)

    def _reseed(self) -> None:
        self._random.seed(os.urandom(_SEED_BYTES))

    def generate_span_id(self) -> int:
        span_id = self._bits(64)
        while span_id == INVALID_SPAN_ID:
            span_id = self._bits(64)
        return span_id

    def generate_trace_id(self) -> int:
        trace_id = self._bits(128)
        while trace_id == INVALID_TRACE_ID:
            trace_id = self._bits(128)
        return trace_id
