"""What one client without the token can make the live page do: a few sign-in guesses, a few log lines.

Both are counted in fixed windows and in bounded tables, so neither a guessing loop nor a flood of
malformed requests costs memory, and the log says how much was left out.
"""

from __future__ import annotations

import logging
import math
import sys
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from aiohttp.http_exceptions import HttpProcessingError
from ragpulse_core.log_budget import LogBudget

# Clients remembered at once; the oldest window is forgotten first (it is the nearest to its end anyway).
MAX_CLIENTS = 10_000


class SignInLimit:
    """At most ``attempts`` wrong tokens per client per ``window_s``; past that the client waits."""

    def __init__(self, attempts: int, window_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._attempts = attempts
        self._window_s = window_s
        self._clock = clock
        self._failures: OrderedDict[str, tuple[float, int]] = OrderedDict()

    def retry_after(self, client: str) -> int | None:
        """Whole seconds until ``client`` may try again, or None when it may try now."""
        started, count = self._failures.get(client, (0.0, 0))
        left = started + self._window_s - self._clock()
        if count < self._attempts or left <= 0:
            return None
        return max(1, math.ceil(left))

    def failed(self, client: str) -> None:
        now = self._clock()
        started, count = self._failures.pop(client, (now, 0))
        if now - started >= self._window_s:
            started, count = now, 0
        self._failures[client] = (started, count + 1)
        while len(self._failures) > MAX_CLIENTS:
            self._failures.popitem(last=False)


class ConnectionLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """aiohttp's connection log for the page, where no line quotes a request.

    aiohttp logs a malformed request (raw bytes in the query, a control character in a header, a request line
    too long) with a traceback whose message quotes the request line or the header, which can hold the token;
    here it is one line naming the client and the kind of error, within a :class:`LogBudget`. Any other error
    keeps its traceback's frames but not its message, which may quote the request too.
    """

    def __init__(self, logger: logging.Logger, budget: LogBudget) -> None:
        super().__init__(logger, {})
        self._budget = budget

    def log(self, level: int, msg: object, *args: object, exc_info: Any = None, **kwargs: Any) -> None:
        error = sys.exc_info()[1] if exc_info is True else exc_info
        if not isinstance(error, BaseException):
            super().log(level, msg, *args, **kwargs)
            return
        if not self.isEnabledFor(level):
            return
        note = self._budget.admit()
        if note is None:
            return
        client = next((str(arg) for arg in args), "a client")
        if isinstance(error, HttpProcessingError):
            self.logger.log(
                min(level, logging.WARNING),
                "live page: answered %s to a malformed request from %s (%s)%s",
                error.code,
                client,
                type(error).__name__,
                note,
            )
            return
        frames = "".join(traceback.format_tb(error.__traceback__)).rstrip()
        self.logger.log(
            level, "live page: %s while answering %s%s\n%s", type(error).__name__, client, note, frames
        )
