"""Where rows the database refused go: ``ragpulse_dead_letters``, with the reason and the row as JSON.

A refused row is evidence to keep, not a reason to stall: the writer sets it aside here and writes the rest
of its batch. The table only holds strings, so the database has nothing in it to refuse.
"""

from __future__ import annotations

import json
import logging
import threading
import time

from ragpulse_core.store import Store

from ragpulse_collector.mapping import TABLE, SpanColumns
from ragpulse_collector.metrics import CollectorMetrics

logger = logging.getLogger(__name__)

DEAD_LETTER_TABLE = "ragpulse_dead_letters"
_COLUMNS = ("TargetTable", "Reason", "Payload")


class DeadLetters:
    def __init__(self, store: Store, metrics: CollectorMetrics) -> None:
        self._store = store
        self._metrics = metrics
        self._lock = threading.Lock()
        self._last_added: float | None = None

    def add(self, token: str, spans: SpanColumns, reason: str) -> None:
        """Keep ``spans`` with ``reason``; raises ``StoreUnavailable`` when even this cannot be written.

        ``token`` is the refused insert's, so writing the same dead letters again (a replayed batch) is a
        no-op.
        """
        rows = [[TABLE, reason, json.dumps(row, separators=(",", ":"))] for row in spans.rows()]
        self._store.insert(DEAD_LETTER_TABLE, rows, _COLUMNS, dedup_token=f"{token}-dead")
        logger.error("%d span(s) refused by the store, kept in %s: %s", len(rows), DEAD_LETTER_TABLE, reason)
        self._metrics.add("spans_dead_lettered_total", len(rows))
        with self._lock:
            self._last_added = time.monotonic()

    def seconds_since_last(self) -> float | None:
        """How long ago the last dead letter was added in this process, None if none was."""
        with self._lock:
            return None if self._last_added is None else time.monotonic() - self._last_added
