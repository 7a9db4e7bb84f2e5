"""Renders shared by every reader of the same view, and reused for a short while.

Five hundred engineers reloading at once cost one render per view, not five hundred: a view being rendered
is awaited by everyone who asks for it, and a finished one is served again for ``ttl_s``. Every render runs
on one reader thread, since embedded chDB handles are per thread and a page costs a dozen queries; a failed
render is shared by those who waited for it and not kept, so the next reload tries again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass
class _Entry(Generic[T]):
    result: asyncio.Future[T]
    started: float


class SharedRenders(Generic[T]):
    """Results by key, computed on ``reader`` (one thread); use from one event loop only."""

    def __init__(self, reader: ThreadPoolExecutor, ttl_s: float, timeout_s: float) -> None:
        self._reader = reader
        self._ttl_s = ttl_s
        self._timeout_s = timeout_s
        self._entries: dict[Hashable, _Entry[T]] = {}

    async def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The result for ``key``: the one being computed, a fresh one, or a new one.

        Raises TimeoutError after ``timeout_s`` (the render goes on, and later readers get it).
        """
        now = time.monotonic()
        entry = self._entries.get(key)
        if entry is None or not self._usable(entry, now):
            self._forget_stale(now)
            entry = _Entry(asyncio.wrap_future(self._reader.submit(compute)), now)
            self._entries[key] = entry
        async with asyncio.timeout(self._timeout_s):
            return await asyncio.shield(entry.result)

    def _usable(self, entry: _Entry[T], now: float) -> bool:
        """Still rendering, or rendered without error less than ``ttl_s`` ago (the data's age)."""
        result = entry.result
        if not result.done():
            return True
        return not result.cancelled() and result.exception() is None and now - entry.started < self._ttl_s

    def _forget_stale(self, now: float) -> None:
        """Drop finished entries past their time, so the table holds only views read recently."""
        for key in [key for key, entry in self._entries.items() if not self._usable(entry, now)]:
            del self._entries[key]
