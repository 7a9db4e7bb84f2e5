"""The rows a collector wrote lately, by identity, so a re-sent span is not stored twice.

A retried export whose body is the original's is recognised by its request digest. A re-send that holds a
subset or a superset of what was acknowledged (an exporter retrying after a partial failure with what it
still holds, a persisted queue re-exported after an app restart, a proxy that re-batches) has another digest:
each of its rows is checked here instead. Keys are Python hashes of a row's identity columns (the process's
own salt, so only keys made by this process are compared); two generations of ``generation`` keys each bound
the memory, the older dropped whole when the newer fills.
"""

from __future__ import annotations

from collections.abc import Iterable


class RecentRows:
    def __init__(self, generation: int) -> None:
        self._generation = generation
        self._newer: set[int] = set()
        self._older: set[int] = set()

    def __contains__(self, key: int) -> bool:
        return key in self._newer or key in self._older

    def __len__(self) -> int:
        return len(self._newer) + len(self._older)

    def add(self, keys: Iterable[int]) -> None:
        for key in keys:
            self._newer.add(key)
            if len(self._newer) >= self._generation:
                self._older, self._newer = self._newer, set()
