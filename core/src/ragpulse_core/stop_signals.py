"""SIGTERM and Ctrl-C for a long-running command: recorded from its first line, acted on by its main thread.

The handler only records the signal. Setting a ``threading.Event`` from a handler can deadlock (the handler
runs on the main thread, which may be holding that Event's lock), and raising from it can interrupt start-up
between starting a thread and registering its stop, leaving a thread that keeps the process alive. A signal
during start-up therefore lets start-up finish (seconds) and then stops cleanly. A second signal quits at
once: what the collector acknowledged is already written, and a scoring tick cut short loses nothing.
"""

from __future__ import annotations

import os
import signal
import time
from types import FrameType, TracebackType
from typing import Any

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
POLL_S = 0.1


class StopSignals:
    """``with StopSignals() as signals: ...; signals.wait()``: blocks until SIGTERM or Ctrl-C."""

    def __init__(self) -> None:
        self.received: int | None = None
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> StopSignals:
        for signum in STOP_SIGNALS:
            self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)

    @property
    def requested(self) -> bool:
        return self.received is not None

    def wait(self) -> None:
        """Return once a stop signal arrived (at once when one arrived during start-up)."""
        while self.received is None:
            time.sleep(POLL_S)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.received is not None:
            os.write(2, b"second stop signal: quitting now\n")
            os._exit(128 + signum)
        self.received = signum
