"""How many sampled candidates a scorer may judge in a tick: per-variant quota, per-tick limit, rate limit."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

CandidateT = TypeVar("CandidateT")


class RequestBudget:
    """A token bucket of requests per minute, kept across ticks by the scheduler.

    It holds at most one minute of requests, so a worker that was idle cannot burst past ``per_minute``.
    """

    def __init__(self, per_minute: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        if per_minute <= 0:
            raise ValueError("per_minute must be positive")
        self._per_second = per_minute / 60.0
        self._capacity = per_minute
        self._tokens = per_minute
        self._clock = clock
        self._updated = clock()

    def take(self, wanted: int) -> int:
        """Take up to ``wanted`` whole requests; returns how many were granted."""
        now = self._clock()
        self._tokens = min(self._capacity, self._tokens + (now - self._updated) * self._per_second)
        self._updated = now
        granted = min(wanted, int(self._tokens))
        self._tokens -= granted
        return granted


@dataclass(frozen=True)
class Allotment(Generic[CandidateT]):
    chosen: list[CandidateT]
    throttled: list[tuple[CandidateT, str]]


def allot(
    candidates: Sequence[CandidateT],
    variant_of: Callable[[CandidateT], Hashable],
    *,
    per_variant_quota: int,
    per_tick_limit: int,
    budget: RequestBudget,
) -> Allotment[CandidateT]:
    """Choose candidates in the order given; the rest are throttled, each with the limit that stopped it."""
    chosen: list[CandidateT] = []
    throttled: list[tuple[CandidateT, str]] = []
    per_variant: dict[Hashable, int] = {}
    for candidate in candidates:
        variant = variant_of(candidate)
        if per_variant.get(variant, 0) >= per_variant_quota:
            throttled.append((candidate, f"variant quota of {per_variant_quota} per tick reached"))
        elif len(chosen) >= per_tick_limit:
            throttled.append((candidate, f"per-tick limit of {per_tick_limit} reached"))
        else:
            per_variant[variant] = per_variant.get(variant, 0) + 1
            chosen.append(candidate)
    granted = budget.take(len(chosen))
    throttled.extend((candidate, "rate limit (max_per_minute) reached") for candidate in chosen[granted:])
    return Allotment(chosen[:granted], throttled)
