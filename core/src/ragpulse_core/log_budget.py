"""A budget of log lines per window for traffic nobody vouches for (unauthenticated or malformed requests,
refused items): a flood costs a few lines a minute and a count, never a log that grows with the flood.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Final

LOG_WINDOW_S: Final = 60.0
LOG_LINES_PER_WINDOW: Final = 5


class LogBudget:
    """At most ``lines`` log lines per ``window_s``; the first line of the next window counts the rest."""

    def __init__(
        self,
        lines: int = LOG_LINES_PER_WINDOW,
        window_s: float = LOG_WINDOW_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._lines = lines
        self._window_s = window_s
        self._clock = clock
        self._started = -math.inf
        self._used = 0
        self._left_out = 0
        self._lock = threading.Lock()
        self.left_out_total = 0
        """Lines left out since the budget was made."""

    def admit(self) -> str | None:
        """None when the line must be left out; else a note on lines left out before it ("" when none)."""
        with self._lock:
            return self._admit()

    def _admit(self) -> str | None:
        now = self._clock()
        if now - self._started >= self._window_s:
            note = (
                f" ({self._left_out} more like it in the previous minutes were not logged)"
                if self._left_out
                else ""
            )
            self._started, self._used, self._left_out = now, 0, 0
        else:
            note = ""
        if self._used >= self._lines:
            self._left_out += 1
            self.left_out_total += 1
            return None
        self._used += 1
        return note
