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

from ragpulse_collector.metrics import CollectorMetrics
from ragpulse_collector.tables import TableRows

logger = logging.getLogger(__name__)

DEAD_LETTER_TABLE = "ragpulse_dead_letters"
_COLUMNS = ("TargetTable", "Reason", "Payload")


class DeadLetters:
    def __init__(self, store: Store, metrics: CollectorMetrics) -> None:
        self._store = store
        self._metrics = metrics
        self._lock = threading.Lock()
        self._last_added: float | None = None

    def add(self, token: str, refused: TableRows, reason: str) -> None:
        """Keep ``refused`` with ``reason``; raises ``StoreUnavailable`` when even this cannot be written.

        ``token`` is the refused insert's, so writing the same dead letters again (a replayed batch) is a
        no-op.
        """
        layout = refused.layout
        rows = [[layout.table, reason, json.dumps(row, separators=(",", ":"))] for row in refused.rows()]
        self._store.insert(DEAD_LETTER_TABLE, rows, _COLUMNS, dedup_token=f"{token}-dead")
        what = layout.described
        logger.error("%d %s refused by the store, kept in %s: %s", len(rows), what, DEAD_LETTER_TABLE, reason)
        self._metrics.add_rows(layout, "dead_lettered_total", len(rows))
        with self._lock:
            self._last_added = time.monotonic()

    def seconds_since_last(self) -> float | None:
        """How long ago the last dead letter was added in this process, None if none was."""
        with self._lock:
            return None if self._last_added is None else time.monotonic() - self._last_added
