"""A circuit breaker per scorer, kept across ticks: a dead judge is probed once per tick, not stormed.

Closed, the scorer is called freely and unreachable-judge failures (:class:`JudgeUnreachable`) in a row are
counted; ``failures_to_open`` of them open the circuit, and the tick stops calling the scorer and defers the
rest of its candidates. At the start of its next turn an open circuit lets exactly one judgment through
alone, the probe: any answer from the judge (even a bad one) closes the circuit; another unreachable failure
keeps it open and defers the tick's candidates again. A new process starts open, so a restarted worker also
probes first instead of sending a round of calls into an endpoint the last run found dead.
"""

from __future__ import annotations

import threading


class JudgeCircuit:
    def __init__(self, failures_to_open: int) -> None:
        if failures_to_open < 1:
            raise ValueError("failures_to_open must be at least 1")
        self._failures_to_open = failures_to_open
        self._lock = threading.Lock()
        self._closed = False
        self._failures = 0
        self.last_failure = ""

    @property
    def closed(self) -> bool:
        """False: the next judgment is a probe, judged alone; nothing else may call the judge until it is."""
        return self._closed

    @property
    def failures(self) -> int:
        """Unreachable-judge failures in a row."""
        return self._failures

    def reached(self) -> None:
        """The judge answered (whatever it said): it is reachable."""
        with self._lock:
            self._closed = True
            self._failures = 0

    def unreachable(self, reason: str) -> bool:
        """Count a failure to reach the judge; True when the circuit is now open."""
        with self._lock:
            self._failures += 1
            self.last_failure = reason
            if self._failures >= self._failures_to_open:
                self._closed = False
            return not self._closed
