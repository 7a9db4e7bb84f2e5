"""The process's score export, if one is running: what the score writer hands written rows to.

Kept apart from the OTel SDK so that writing scores imports nothing of it when nothing is exported.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Protocol


class ScoreSink(Protocol):
    def publish(self, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Take written score rows; must not block or raise."""


_installed: ScoreSink | None = None
_lock = threading.Lock()


def install(sink: ScoreSink) -> None:
    global _installed
    with _lock:
        _installed = sink


def uninstall(sink: ScoreSink) -> None:
    """Remove ``sink`` if it is the one installed (another may have replaced it)."""
    global _installed
    with _lock:
        if _installed is sink:
            _installed = None


def publish(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    sink = _installed
    if sink is not None and rows:
        sink.publish(columns, rows)
