"""A requests-per-minute limit shared by every thread of one judge client."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class TokenBucket:
    """Refills ``per_minute / 60`` tokens a second up to ``burst``; :meth:`acquire` blocks until one is free.

    A caller that must wait reserves its token first (the level may go negative), so waiting threads are
    served in arrival order and never wake up together to find the bucket empty again.
    """

    def __init__(
        self,
        per_minute: float,
        burst: float | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if per_minute <= 0:
            raise ValueError("per_minute must be positive")
        self._rate = per_minute / 60.0
        self._burst = burst if burst is not None else max(1.0, self._rate)
        self._level = self._burst
        self._clock = clock
        self._sleep = sleep
        self._updated = clock()
        self._lock = threading.Lock()

    def acquire(self) -> float:
        """Take one token; returns the seconds waited."""
        with self._lock:
            now = self._clock()
            self._level = min(self._burst, self._level + (now - self._updated) * self._rate)
            self._updated = now
            self._level -= 1.0
            wait = -self._level / self._rate if self._level < 0 else 0.0
        if wait > 0:
            self._sleep(wait)
        return wait
