"""How many sampled candidates a scorer may judge in a tick: per-variant quota, per-tick limit, rate limit."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

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


class JudgeLimits(Protocol):
    """How much one scorer may judge: ``[scorer]`` for paid judges, ``[scorer.free]`` for free ones."""

    @property
    def per_tick_limit(self) -> int: ...

    @property
    def per_variant_quota(self) -> int: ...

    @property
    def max_per_minute(self) -> float: ...

    @property
    def concurrency(self) -> int: ...


@dataclass(frozen=True)
class Allotment(Generic[CandidateT]):
    chosen: list[CandidateT]
    throttled: list[tuple[CandidateT, str]]


class TickAllowance(Generic[CandidateT]):
    """What one scorer may still judge in a tick, across the batches of candidates it reads in turn."""

    def __init__(
        self,
        variant_of: Callable[[CandidateT], Hashable],
        *,
        per_variant_quota: int,
        per_tick_limit: int,
        budget: RequestBudget,
    ) -> None:
        self._variant_of = variant_of
        self._quota = per_variant_quota
        self._limit = per_tick_limit
        self._budget = budget
        self._per_variant: dict[Hashable, int] = {}
        self._chosen = 0

    def allot(self, candidates: Sequence[CandidateT]) -> Allotment[CandidateT]:
        """Choose candidates in the order given; the rest are throttled, each with the limit that stops it."""
        chosen: list[CandidateT] = []
        throttled: list[tuple[CandidateT, str]] = []
        per_variant = dict(self._per_variant)
        for candidate in candidates:
            variant = self._variant_of(candidate)
            if per_variant.get(variant, 0) >= self._quota:
                throttled.append((candidate, f"variant quota of {self._quota} per tick reached"))
            elif self._chosen + len(chosen) >= self._limit:
                throttled.append((candidate, f"per-tick limit of {self._limit} reached"))
            else:
                per_variant[variant] = per_variant.get(variant, 0) + 1
                chosen.append(candidate)
        granted = self._budget.take(len(chosen))
        throttled.extend((candidate, "rate limit (max_per_minute) reached") for candidate in chosen[granted:])
        for candidate in chosen[:granted]:
            variant = self._variant_of(candidate)
            self._per_variant[variant] = self._per_variant.get(variant, 0) + 1
        self._chosen += granted
        return Allotment(chosen[:granted], throttled)
