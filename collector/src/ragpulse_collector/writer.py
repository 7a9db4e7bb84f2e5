"""One writer thread between the HTTP handlers and the store.

Handlers map spans and :meth:`BatchWriter.submit` them; the writer merges what is queued into one batch and
inserts it column-oriented, or spools it while the store is unreachable. A handler's :class:`Ticket` resolves
only once its spans are written or durably spooled, which is when the sender gets its 200.

A batch is cut at ``batch_max_spans``, after ``batch_max_wait_ms``, or as soon as no request arrived for
``batch_idle_ms``: senders block until acknowledged, so a quiet queue means every active sender is waiting
and lingering longer would only add latency.
"""

from __future__ import annotations

import enum
import logging
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass, field

from ragpulse_core.settings import CollectorSettings
from ragpulse_core.store import Store, StoreUnavailable

from ragpulse_collector.mapping import INSERT_COLUMN_TYPES, TABLE, SpanColumns
from ragpulse_collector.metrics import CollectorMetrics
from ragpulse_collector.spool import Spool, SpoolFull

logger = logging.getLogger(__name__)


class QueueFull(Exception):
    """The write queue has no room for the request's spans (429)."""


class WriteFailed(Exception):
    """The spans were neither written nor spooled (503)."""


class Outcome(enum.Enum):
    WRITTEN = "written"
    SPOOLED = "spooled"


class Ticket:
    """Resolves when a submitted request's spans are written or spooled, or cannot be."""

    def __init__(self) -> None:
        self._done = threading.Event()
        self._outcome: Outcome | None = None
        self._error: WriteFailed | None = None

    def resolve(self, outcome: Outcome | None, error: WriteFailed | None) -> None:
        self._outcome, self._error = outcome, error
        self._done.set()

    def wait(self, timeout: float) -> Outcome:
        if not self._done.wait(timeout):
            raise WriteFailed(f"not written within {timeout:g} s")
        if self._error is not None:
            raise self._error
        assert self._outcome is not None
        return self._outcome


@dataclass
class _Pending:
    spans: SpanColumns
    ticket: Ticket
    arrived: float = field(default_factory=time.monotonic)


class BatchWriter:
    def __init__(
        self, store: Store, settings: CollectorSettings, spool: Spool | None, metrics: CollectorMetrics
    ) -> None:
        self._store = store
        self._settings = settings
        self._spool = spool
        self._metrics = metrics
        self._queue: deque[_Pending] = deque()
        self._queued_spans = 0
        self._in_flight_spans = 0
        self._last_arrival = 0.0
        self._next_store_attempt = 0.0
        self._store_reachable = True
        self._stopping = False
        self._condition = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="ragpulse-writer", daemon=True)

    @property
    def queued_spans(self) -> int:
        with self._condition:
            return self._queued_spans + self._in_flight_spans

    @property
    def store_reachable(self) -> bool:
        return self._store_reachable

    def start(self) -> None:
        self._thread.start()

    def submit(self, spans: SpanColumns) -> Ticket:
        """Queue spans for writing; raises :class:`QueueFull` or, when stopping, :class:`WriteFailed`."""
        ticket = Ticket()
        count = len(spans)
        with self._condition:
            if self._stopping:
                raise WriteFailed("collector is stopping")
            # A request bigger than the whole queue is still taken when the queue is empty, or it never would.
            if self._queued_spans and self._queued_spans + count > self._settings.queue_max_spans:
                raise QueueFull(f"write queue holds {self._queued_spans} spans")
            self._queue.append(_Pending(spans, ticket))
            self._queued_spans += count
            self._last_arrival = time.monotonic()
            self._condition.notify_all()
        return ticket

    def flush(self, timeout: float) -> bool:
        """Wait until everything submitted so far is written or spooled."""
        deadline = time.monotonic() + timeout
        with self._condition:
            while self._queued_spans or self._in_flight_spans or self._queue:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._condition.wait(remaining)
        return True

    def stop(self, timeout: float) -> None:
        """Write what is queued, then stop; spooled batches stay on disk for the next start."""
        with self._condition:
            self._stopping = True
            self._condition.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._condition:
                while not self._queue and not self._stopping and not self._replay_due():
                    self._condition.wait(self._seconds_until_replay())
                if self._stopping and not self._queue:
                    return
            if self._replay_due():
                self._replay_spool()
            pending = self._take_batch()
            if pending:
                self._write(pending)

    def _replay_due(self) -> bool:
        return (
            self._spool is not None and len(self._spool) > 0 and time.monotonic() >= self._next_store_attempt
        )

    def _seconds_until_replay(self) -> float | None:
        if self._spool is None or len(self._spool) == 0:
            return None
        return max(0.0, self._next_store_attempt - time.monotonic())

    def _take_batch(self) -> list[_Pending]:
        settings = self._settings
        max_wait = settings.batch_max_wait_ms / 1000
        idle = settings.batch_idle_ms / 1000
        with self._condition:
            while self._queue and not self._stopping:
                now = time.monotonic()
                waited = now - self._queue[0].arrived
                quiet = now - self._last_arrival
                if self._queued_spans >= settings.batch_max_spans or waited >= max_wait or quiet >= idle:
                    break
                self._condition.wait(min(max_wait - waited, idle - quiet))
            taken: list[_Pending] = []
            total = 0
            while self._queue and (
                not taken or total + len(self._queue[0].spans) <= settings.batch_max_spans
            ):
                item = self._queue.popleft()
                taken.append(item)
                total += len(item.spans)
            self._queued_spans -= total
            self._in_flight_spans += total
            return taken

    def _write(self, pending: list[_Pending]) -> None:
        spans = pending[0].spans
        if len(pending) > 1:
            spans = SpanColumns()
            for item in pending:
                spans.extend(item.spans)
        count = len(spans)
        outcome: Outcome | None = None
        error: WriteFailed | None = None
        try:
            outcome = self._write_or_spool(uuid.uuid4().hex, spans)
        except WriteFailed as exc:
            error = exc
        for item in pending:
            item.ticket.resolve(outcome, error)
        with self._condition:
            self._in_flight_spans -= count
            self._condition.notify_all()

    def _write_or_spool(self, token: str, spans: SpanColumns) -> Outcome:
        if self._spool is not None and len(self._spool) > 0:
            # Batches queue behind the spool until it drains, so the store sees them in arrival order.
            try:
                return self._to_spool(token, spans)
            except WriteFailed:
                if time.monotonic() < self._next_store_attempt:
                    raise
        try:
            self._insert(token, spans)
        except StoreUnavailable as exc:
            self._store_down(exc)
            return self._to_spool(token, spans)
        self._metrics.add("spans_written_total", len(spans))
        return Outcome.WRITTEN

    def _to_spool(self, token: str, spans: SpanColumns) -> Outcome:
        if self._spool is None:
            raise WriteFailed("the store is unavailable and no spool directory is configured")
        try:
            self._spool.append(token, spans)
        except (SpoolFull, OSError) as exc:
            raise WriteFailed(f"the store is unavailable and the spool cannot take more: {exc}") from exc
        self._metrics.add("spans_spooled_total", len(spans))
        return Outcome.SPOOLED

    def _insert(self, token: str, spans: SpanColumns) -> None:
        self._store.insert_columns(TABLE, spans.columns, INSERT_COLUMN_TYPES, dedup_token=token)
        self._store_reachable = True
        self._metrics.add("batches_written_total")

    def _store_down(self, exc: StoreUnavailable) -> None:
        if self._store_reachable:
            logger.error("store unavailable, spooling batches: %s", exc)
        self._store_reachable = False
        self._metrics.add("write_errors_total")
        self._next_store_attempt = time.monotonic() + self._settings.store_retry_ms / 1000

    def _replay_spool(self) -> None:
        assert self._spool is not None
        while (batch := self._spool.oldest()) is not None:
            try:
                self._insert(batch.token, batch.spans)
            except StoreUnavailable as exc:
                self._store_down(exc)
                return
            self._spool.remove(batch)
            self._metrics.add("spans_replayed_total", len(batch.spans))
            self._metrics.add("spans_written_total", len(batch.spans))
        logger.info("spool replayed; writing directly again")
