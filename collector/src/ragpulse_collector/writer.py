"""One writer thread between the receivers and the store.

Receivers map spans or log records and :meth:`BatchWriter.submit` them; the writer merges what is queued for
one table into one batch and inserts it column-oriented, or spools it while the store is unreachable. A
request's :class:`Ticket` resolves only once its rows are written or durably spooled, which is when the
sender gets its success.

A batch is cut at ``batch_max_spans`` rows, after ``batch_max_wait_ms``, or as soon as no request arrived for
``batch_idle_ms`` and none is being decoded: senders block until acknowledged, so a quiet queue with nothing
on its way means every active sender is waiting and lingering longer would only add latency. A request being
decoded joins the batch instead of waiting for the next one: in chDB each insert costs tens of milliseconds
of CPU whatever its size (the materialized views on the span table are planned for every insert), so a few
large inserts take far less CPU than many small ones.

What the answers mean:

- A request that timed out while still queued is withdrawn (:meth:`BatchWriter.withdraw`), so its 503 means
  "not written"; one already in an insert waits for that insert's outcome.
- Each request is known by a digest of its rows' identity columns. A retry that arrives while the
  original is queued or being written shares the original's ticket; a retry of one written recently is
  acknowledged without writing it again. The batch's dedup token derives from its requests' digests, so a
  replayed batch (the spool's) is a no-op in ClickHouse.
- Across a crash, the :class:`WriteJournal` tells which requests were stored and which were under way: a
  retry of a stored one is acknowledged without writing; a retry of one under way has its rows looked up in
  the table and only the missing ones written (one insert per request instead would cost about 8x the
  insert time in chDB, measured with 512-span requests).
- A re-send that holds a subset or a superset of stored requests' rows has another digest: each row's
  identity is checked against the rows written or spooled lately (:class:`RecentRows`, filled from the
  table and the spool at start, so this holds across a restart) and against the rest of its batch, and only
  new rows are written.
- The store refusing data (:class:`StoreRefused`) is not the store being down: the refused insert is split
  in halves until the refused rows are found; those go to the dead letters and the rest is written.
- Writes failing for want of disk space (the spool's or the database's), or for want of a store and a
  spool, are remembered until a write succeeds or, with nothing to write, until a probe finds that one
  could (the store answers, the spool's disk takes a probe file of the failed batch's size, the database's
  disk has that much free), so ``/healthz`` recovers without waiting for new traffic
  (:meth:`BatchWriter.troubles`).
"""

from __future__ import annotations

import contextlib
import enum
import errno
import gc
import hashlib
import logging
import re
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ragpulse_core.settings import CollectorSettings
from ragpulse_core.store import Store, StoreRefused, StoreUnavailable

from ragpulse_collector.deadletters import DeadLetters
from ragpulse_collector.journal import WriteJournal
from ragpulse_collector.memory import return_free_memory
from ragpulse_collector.metrics import CollectorMetrics
from ragpulse_collector.recent import RecentRows
from ragpulse_collector.spool import Spool, SpoolFull
from ragpulse_collector.tables import LAYOUTS, Layout, TableRows, identity_key

logger = logging.getLogger(__name__)

# ClickHouse's default max_partitions_per_insert_block; both tables are partitioned by day.
MAX_PARTITIONS_PER_INSERT = 100
# Inserts one refused batch may spend finding its refused rows; past that, a refused half is set aside
# whole, so a batch of many bad rows cannot keep the writer bisecting for hours.
MAX_BISECT_INSERTS = 256
# Digests of recently written requests, to acknowledge a retry without writing it twice (~10 MB).
RECENT_DIGESTS = 100_000
# Identities of recently written rows, to write a re-sent span once (two generations: ~40 MB at most).
RECENT_ROWS = 250_000
# How far back, by their own time, the rows read at start to fill the recent rows go.
RECENT_ROWS_LOOKBACK_S = 3600
# A file write that failed for want of room: a full disk, a quota, or a file-size limit (RLIMIT_FSIZE).
NO_ROOM_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
# ClickHouse out of disk space: NOT_ENOUGH_SPACE (243), or a part write failing with ENOSPC or a size limit.
_STORE_OUT_OF_SPACE = re.compile(
    r"Code: 243\.|NOT_ENOUGH_SPACE|No space left on device|Disk quota exceeded|File too large", re.IGNORECASE
)
_REASON_CHARS = 300
# A batch this large (as stored) is collected right after its insert, not left to the gc thresholds.
COLLECT_AFTER_BYTES = 8 * 1024 * 1024
# Rows as stored written since the last time free memory went back to the system, to do it again.
TRIM_AFTER_BYTES = 64 * 1024 * 1024
# How often a writer whose last write failed, with nothing to write, checks whether writes could succeed.
RECOVERY_PROBE_S = 1.0
# A probe of the spool's disk writes at most this much, however big the batch that did not fit.
MAX_PROBE_BYTES = 8 * 1024 * 1024


class QueueFull(Exception):
    """The write queue has no room for the request's rows (429)."""


class WriteFailed(Exception):
    """The rows were neither written nor spooled (503)."""


class Outcome(enum.Enum):
    WRITTEN = "written"
    SPOOLED = "spooled"


class Ticket:
    """Resolves when a submitted request's rows are written or spooled, or cannot be."""

    def __init__(self) -> None:
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []
        self._outcome: Outcome | None = None
        self._error: WriteFailed | None = None

    @classmethod
    def resolved(cls, outcome: Outcome) -> Ticket:
        ticket = cls()
        ticket.resolve(outcome, None)
        return ticket

    def resolve(self, outcome: Outcome | None, error: WriteFailed | None) -> None:
        with self._lock:
            self._outcome, self._error = outcome, error
            self._done.set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            # A waiter's failure must not stop the writer thread that resolves every other ticket.
            try:
                callback()
            except Exception:
                logger.exception("a ticket callback failed")

    def add_done_callback(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (from the writer's thread) once resolved, or now if it already is."""
        with self._lock:
            if not self._done.is_set():
                self._callbacks.append(callback)
                return
        callback()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def done_within(self, timeout: float) -> bool:
        return self._done.wait(timeout)

    def result(self) -> Outcome:
        if self._error is not None:
            raise self._error
        assert self._outcome is not None
        return self._outcome


@dataclass
class _Pending:
    rows: TableRows
    digest: str
    size: int
    ticket: Ticket
    arrived: float = field(default_factory=time.monotonic)


def batch_token(digests: Iterable[str]) -> str:
    """The dedup token of a batch: the same requests in the same order give the same token."""
    return hashlib.blake2b("".join(digests).encode(), digest_size=16).hexdigest()


class BatchWriter:
    def __init__(
        self,
        store: Store,
        settings: CollectorSettings,
        spool: Spool | None,
        metrics: CollectorMetrics,
        dead_letters: DeadLetters,
        journal: WriteJournal | None = None,
    ) -> None:
        self._store = store
        self._settings = settings
        self._spool = spool
        self._metrics = metrics
        self._dead_letters = dead_letters
        self._journal = journal
        self._queue: deque[_Pending] = deque()
        self._queued_rows = 0
        self._queued_bytes = 0
        self._in_flight_rows = 0
        # Requests being decoded and mapped, whose rows are about to be submitted.
        self._arriving = 0
        self._active: dict[str, Ticket] = {}
        self._recent: OrderedDict[str, None] = OrderedDict()
        self._written_rows = RecentRows(RECENT_ROWS)
        # Requests of batches the last run had under way: a retry is checked against the table.
        self._uncertain: set[str] = set()
        if journal is not None:
            self._recover(journal)
        self._last_arrival = 0.0
        self._last_progress = time.monotonic()
        self._next_store_attempt = 0.0
        self._store_reachable = True
        # Why the last batch was neither written nor spooled; None once one is.
        self._failing: str | None = None
        # The store's last refusal for want of disk space; None once an insert succeeds.
        self._store_out_of_space: str | None = None
        # The size of the last batch neither written nor spooled: what a recovery probe must find room for.
        self._failed_bytes = 0
        self._next_probe = 0.0
        self._written_since_trim = 0
        self._stopping = False
        self._condition = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="ragpulse-writer", daemon=True)

    def _recover(self, journal: WriteJournal) -> None:
        recovered = journal.recovered
        spooled_last = self._spool.newest_token() if self._spool is not None else None
        for token, digests in recovered.uncertain.items():
            if token == spooled_last:  # spooled just before the crash, not yet journalled as such
                recovered.settled.update(digests)
            else:
                self._uncertain.update(digests)
        for digest in recovered.settled:
            self._remember(digest)
        if self._uncertain:
            logger.info(
                "%d request(s) were being written when the collector stopped; retries of them are checked"
                " against the table",
                len(self._uncertain),
            )

    @property
    def queued_rows(self) -> int:
        """Rows (spans and log records) accepted and not yet written or spooled."""
        with self._condition:
            return self._queued_rows + self._in_flight_rows

    @property
    def store_reachable(self) -> bool:
        return self._store_reachable

    def start(self) -> None:
        for layout in LAYOUTS.values():
            self._recall_written_rows(layout)
        if self._spool is not None:
            # Spooled before a restart and not yet replayed: a re-send of them must not be spooled again.
            for rows in self._spool.newest_rows(RECENT_ROWS):
                self._written_rows.add(rows.row_hashes())
        self._thread.start()

    def _recall_written_rows(self, layout: Layout) -> None:
        """Fill the recent rows with the newest rows of ``layout``'s table, so a re-send of spans written
        before a restart (or by another collector of the same store) is not written again."""
        try:
            found = self._store.query(
                f"SELECT {self._identity_columns(layout)} FROM {self._store.table(layout.table)}"
                " WHERE Timestamp >= now64(9) - toIntervalSecond({lookback:UInt32})"
                " ORDER BY Timestamp DESC LIMIT {limit:UInt32}",
                {"lookback": RECENT_ROWS_LOOKBACK_S, "limit": RECENT_ROWS},
            )
        except (StoreUnavailable, StoreRefused) as exc:
            logger.warning(
                "cannot read the recent %s at start; a re-send of them may be stored twice: %s",
                layout.described,
                exc,
            )
            return
        self._written_rows.add(hash(identity_key(values)) for values in reversed(found))

    def stalled_for(self) -> float:
        """Seconds the writer has had work (queued, in flight or spooled) without writing any; 0 if none."""
        with self._condition:
            busy = bool(self._queue or self._in_flight_rows or (self._spool and len(self._spool)))
            return time.monotonic() - self._last_progress if busy else 0.0

    def troubles(self) -> list[str]:
        """Why writes are failing now, if they are: each reason stays until a write succeeds."""
        troubles = []
        if self._store_out_of_space is not None:
            meanwhile = "spooling meanwhile" if self._spool is not None else "senders get 503"
            troubles.append(f"the database is out of disk space ({meanwhile}): {self._store_out_of_space}")
        if self._failing is not None:
            troubles.append(f"writes are failing, senders get 503: {self._failing}")
        return troubles

    def check_room(self, rows: int, size: int) -> None:
        """Raise :class:`QueueFull` now, before the request is mapped, when it would not fit."""
        with self._condition:
            self._check_room(rows, size)

    def _check_room(self, rows: int, size: int) -> None:
        # A request bigger than the whole queue is still taken when the queue is empty, or it never would.
        if self._queued_rows and self._queued_rows + rows > self._settings.queue_max_spans:
            raise QueueFull(f"write queue holds {self._queued_rows} rows")
        if self._queued_bytes and self._queued_bytes + size > self._settings.queue_max_bytes:
            raise QueueFull(f"write queue holds {self._queued_bytes} bytes of rows")

    @contextlib.contextmanager
    def arriving(self) -> Iterator[None]:
        """Around decoding and mapping a request: the batch being formed waits for its rows (within
        ``batch_max_wait_ms``) rather than being cut because the queue went quiet."""
        with self._condition:
            self._arriving += 1
        try:
            yield
        finally:
            with self._condition:
                self._arriving -= 1
                self._condition.notify_all()

    def submit(self, rows: TableRows, digest: str, size: int) -> Ticket:
        """Queue a request's rows; raises :class:`QueueFull` or, when stopping, :class:`WriteFailed`.

        ``digest`` identifies the request's content: a retry of a request still queued, in flight or
        recently written is not written again.
        """
        with self._condition:
            if self._stopping:
                raise WriteFailed("collector is stopping")
            known = self._active.get(digest)
            if known is None and digest in self._recent:
                known = Ticket.resolved(Outcome.WRITTEN)
            if known is not None:
                self._metrics.add("requests_deduplicated_total")
                return known
            self._check_room(len(rows), size)
            if not self._queue and not self._in_flight_rows:
                self._last_progress = time.monotonic()
            ticket = Ticket()
            self._queue.append(_Pending(rows, digest, size, ticket))
            self._active[digest] = ticket
            self._queued_rows += len(rows)
            self._queued_bytes += size
            self._last_arrival = time.monotonic()
            self._condition.notify_all()
        return ticket

    def withdraw(self, ticket: Ticket) -> bool:
        """Take a request that timed out back out of the queue; False when it is already being written."""
        with self._condition:
            for pending in self._queue:
                if pending.ticket is ticket:
                    self._queue.remove(pending)
                    self._queued_rows -= len(pending.rows)
                    self._queued_bytes -= pending.size
                    del self._active[pending.digest]
                    break
            else:
                return False
            self._condition.notify_all()
        self._metrics.add("requests_withdrawn_total")
        ticket.resolve(None, WriteFailed("not written in time; withdrawn from the write queue"))
        return True

    def flush(self, timeout: float) -> bool:
        """Wait until everything submitted so far is written or spooled."""
        deadline = time.monotonic() + timeout
        with self._condition:
            while self._queued_rows or self._in_flight_rows or self._queue:
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
            if self._written_since_trim >= TRIM_AFTER_BYTES and not self._queue:
                # After a burst, with the last batch's rows released: give the free memory back.
                self._written_since_trim = 0
                return_free_memory()
            with self._condition:
                while not (self._queue or self._stopping or self._replay_due() or self._probe_due()):
                    self._condition.wait(self._seconds_until_due())
                if self._stopping and not self._queue:
                    return
            if self._replay_due():
                self._replay_spool()
            if self._probe_due():
                self._probe_recovery()
            self._write_next()

    def _write_next(self) -> None:
        pending = self._take_batch()
        if pending:
            size = sum(item.size for item in pending)
            self._written_since_trim += size
            self._write(pending)
            del pending
            if size >= COLLECT_AFTER_BYTES:
                # clickhouse-connect's insert context sits in a reference cycle that keeps the batch's
                # columns; with the collector's raised gc thresholds it would wait long to be collected.
                gc.collect()

    def _replay_due(self) -> bool:
        return (
            self._spool is not None and len(self._spool) > 0 and time.monotonic() >= self._next_store_attempt
        )

    def _seconds_until_due(self) -> float | None:
        """Until the next spool replay or recovery probe, whichever comes first; None when neither will."""
        now = time.monotonic()
        waits = []
        if self._spool is not None and len(self._spool) > 0:
            waits.append(self._next_store_attempt - now)
        if self._needs_probe():
            waits.append(self._next_probe - now)
        return max(0.0, min(waits)) if waits else None

    def _needs_probe(self) -> bool:
        """Troubles that only a write would clear, with no spooled batch whose replay will try one."""
        spool_empty = self._spool is None or len(self._spool) == 0
        return self._failing is not None or (self._store_out_of_space is not None and spool_empty)

    def _probe_due(self) -> bool:
        return not self._queue and self._needs_probe() and time.monotonic() >= self._next_probe

    def _probe_recovery(self) -> None:
        """Clear the troubles a write would no longer meet, without writing any rows."""
        self._next_probe = time.monotonic() + RECOVERY_PROBE_S
        size = min(self._failed_bytes, MAX_PROBE_BYTES)
        if self._store_out_of_space is not None and self._store.has_free_space(size):
            logger.info("the database's disk has room again")
            self._store_out_of_space = None
        if self._failing is None:
            return
        if self._store_out_of_space is None and self._store.ping():
            recovered = "the store answers again"
        elif self._spool is not None and self._spool.has_room(size):
            recovered = "the spool can take batches again"
        else:
            return
        logger.info("%s; writes can succeed", recovered)
        self._failing = None

    def _take_batch(self) -> list[_Pending]:
        """The requests of the next batch: the oldest request's table, in arrival order.

        Requests for other tables keep their places for the next batch.
        """
        settings = self._settings
        max_wait = settings.batch_max_wait_ms / 1000
        idle = settings.batch_idle_ms / 1000
        with self._condition:
            while self._queue and not self._stopping:
                now = time.monotonic()
                waited = now - self._queue[0].arrived
                quiet = now - self._last_arrival
                quiet_enough = quiet >= idle
                if (
                    self._queued_rows >= settings.batch_max_spans
                    or self._queued_bytes >= settings.batch_max_bytes
                    or waited >= max_wait
                    or (quiet_enough and not self._arriving)
                ):
                    break
                # Woken by a submit, or by a decode that ended (then quiet may be long past).
                self._condition.wait(
                    max_wait - waited if quiet_enough else min(max_wait - waited, idle - quiet)
                )
            taken: list[_Pending] = []
            if not self._queue:
                return taken
            layout = self._queue[0].rows.layout
            passed_over: deque[_Pending] = deque()
            total = 0
            size = 0
            while self._queue:
                item = self._queue[0]
                if item.rows.layout is not layout:
                    passed_over.append(self._queue.popleft())
                    continue
                if taken and (
                    total + len(item.rows) > settings.batch_max_spans
                    or size + item.size > settings.batch_max_bytes
                ):
                    break
                self._queue.popleft()
                taken.append(item)
                total += len(item.rows)
                size += item.size
                self._queued_bytes -= item.size
            if passed_over:
                passed_over.extend(self._queue)
                self._queue = passed_over
            self._queued_rows -= total
            self._in_flight_rows += total
            return taken

    def _write(self, pending: list[_Pending]) -> None:
        taken = sum(len(item.rows) for item in pending)
        if self._uncertain:
            pending = self._without_stored_rows(pending)
        pending, batch_rows = self._without_written_rows(pending)
        if not pending:
            with self._condition:
                self._in_flight_rows -= taken
                self._condition.notify_all()
            return
        rows = TableRows.joined([item.rows for item in pending])
        outcome: Outcome | None = None
        error: WriteFailed | None = None
        token = batch_token(item.digest for item in pending)
        if self._journal is not None:
            self._journal.begin(token, [item.digest for item in pending])
        try:
            outcome = self._write_or_spool(token, rows)
            if self._journal is not None:
                self._journal.settle(token)
        except WriteFailed as exc:
            error = exc
            self._failed_bytes = sum(item.size for item in pending)
            self._next_probe = time.monotonic() + RECOVERY_PROBE_S
        self._failing = None if error is None else str(error)
        with self._condition:
            if outcome is not None:
                self._written_rows.add(batch_rows)
            for item in pending:
                del self._active[item.digest]
                if outcome is not None:
                    self._remember(item.digest)
                    self._uncertain.discard(item.digest)
            self._in_flight_rows -= taken
            self._condition.notify_all()
        for item in pending:
            item.ticket.resolve(outcome, error)

    def _without_stored_rows(self, pending: list[_Pending]) -> list[_Pending]:
        """The requests to write, retries of uncertain ones reduced to their rows not yet in the table.

        A retry whose rows are all there is acknowledged now; one that cannot be checked (the store is
        down) gets 503, since spooling it could store it twice.
        """
        kept = []
        for item in pending:
            if item.digest not in self._uncertain:
                kept.append(item)
                continue
            try:
                stored = self._stored_keys(item.rows)
            except (StoreUnavailable, StoreRefused) as exc:
                self._settle_early(
                    item, None, WriteFailed(f"cannot tell whether it was stored before a restart: {exc}")
                )
                continue
            missing = [index for index, key in enumerate(item.rows.identity_keys()) if key not in stored]
            self._metrics.add_rows(item.rows.layout, "found_stored_total", len(item.rows) - len(missing))
            if not missing:
                self._uncertain.discard(item.digest)
                if self._journal is not None:
                    self._journal.record_stored([item.digest])
                self._settle_early(item, Outcome.WRITTEN, None)
                continue
            if len(missing) < len(item.rows):
                item.rows = item.rows.select(missing)
            kept.append(item)
        return kept

    def _without_written_rows(self, pending: list[_Pending]) -> tuple[list[_Pending], set[int]]:
        """The requests to write, each without the rows written lately or held by an earlier request of
        the batch, and the identities of the rows left.

        A request whose rows were all written lately is acknowledged now; one that shares rows with another
        request of the batch keeps its place and gets the batch's outcome.
        """
        batch_rows: set[int] = set()
        kept = []
        for item in pending:
            keys = item.rows.row_hashes()
            fresh = []
            for index, key in enumerate(keys):
                if key not in self._written_rows and key not in batch_rows:
                    batch_rows.add(key)
                    fresh.append(index)
            if len(fresh) == len(keys):
                kept.append(item)
                continue
            self._metrics.add_rows(item.rows.layout, "resent_total", len(keys) - len(fresh))
            if all(key in self._written_rows for key in keys):
                self._settle_early(item, Outcome.WRITTEN, None)
                continue
            item.rows = item.rows.select(fresh)
            kept.append(item)
        return kept, batch_rows

    def _settle_early(self, item: _Pending, outcome: Outcome | None, error: WriteFailed | None) -> None:
        with self._condition:
            del self._active[item.digest]
            if outcome is not None:
                self._remember(item.digest)
        item.ticket.resolve(outcome, error)

    def _stored_keys(self, rows: TableRows) -> set[tuple[Any, ...]]:
        """The identities of those of ``rows`` already in their table."""
        layout = rows.layout
        timestamps = rows.columns[0]
        found = self._store.query(
            f"SELECT {self._identity_columns(layout)} FROM {self._store.table(layout.table)}"
            " WHERE Timestamp BETWEEN fromUnixTimestamp64Nano({low:Int64})"
            " AND fromUnixTimestamp64Nano({high:Int64})"
            " AND TraceId IN {traces:Array(String)}",
            {"low": min(timestamps), "high": max(timestamps), "traces": sorted(set(rows.column("TraceId")))},
        )
        return {identity_key(values) for values in found}

    @staticmethod
    def _identity_columns(layout: Layout) -> str:
        """The select list of ``layout``'s identity columns, valued as the mapping makes them."""
        return ", ".join(
            f"toUnixTimestamp64Nano({name})" if name == "Timestamp" else f"`{name}`"
            for name in layout.identity
        )

    def _remember(self, digest: str) -> None:
        self._recent[digest] = None
        if len(self._recent) > RECENT_DIGESTS:
            self._recent.popitem(last=False)

    def _write_or_spool(self, token: str, rows: TableRows) -> Outcome:
        if self._spool is not None and len(self._spool) > 0:
            # Batches queue behind the spool until it drains, so the store sees them in arrival order.
            try:
                return self._to_spool(token, rows)
            except WriteFailed:
                if time.monotonic() < self._next_store_attempt:
                    raise
        try:
            self._store_batch(token, rows)
        except StoreUnavailable as exc:
            self._store_down(exc)
            return self._to_spool(token, rows)
        return Outcome.WRITTEN

    def _to_spool(self, token: str, rows: TableRows) -> Outcome:
        if self._spool is None:
            raise WriteFailed("the store is unavailable and no spool directory is configured")
        try:
            self._spool.append(token, rows)
        except SpoolFull as exc:
            raise WriteFailed(f"the store is unavailable and the spool cannot take more: {exc}") from exc
        except OSError as exc:
            no_room = exc.errno in NO_ROOM_ERRNOS
            what = "there is no room on the spool's disk" if no_room else "the spool cannot be written"
            raise WriteFailed(f"the store is unavailable and {what}: {exc}") from exc
        self._metrics.add_rows(rows.layout, "spooled_total", len(rows))
        self._progressed()
        return Outcome.SPOOLED

    def _store_batch(self, token: str, rows: TableRows) -> int:
        """Insert a batch, grouped by partition, refused rows set aside; returns the rows written.

        Raises ``StoreUnavailable`` when the store cannot be reached: the whole batch is then retried (or
        spooled) under the same token, and the parts already inserted are no-ops the second time.
        """
        groups = rows.by_partitions(MAX_PARTITIONS_PER_INSERT)
        budget = [MAX_BISECT_INSERTS]
        written = 0
        for index, group in enumerate(groups):
            written += self._insert_or_bisect(
                token if len(groups) == 1 else f"{token}-p{index}", group, budget
            )
        self._store_reachable = True
        self._store_out_of_space = None
        self._failing = None
        self._progressed()
        return written

    def _insert_or_bisect(self, token: str, rows: TableRows, budget: list[int]) -> int:
        layout = rows.layout
        try:
            self._store.insert_columns(layout.table, rows.columns, layout.insert_types, dedup_token=token)
        except StoreRefused as exc:
            budget[0] -= 1
            if len(rows) == 1 or budget[0] <= 0:
                self._dead_letters.add(token, rows, str(exc.__cause__ or exc))
                return 0
            middle = len(rows) // 2
            return self._insert_or_bisect(
                f"{token}-a", rows.slice(0, middle), budget
            ) + self._insert_or_bisect(f"{token}-b", rows.slice(middle, len(rows)), budget)
        self._metrics.add("batches_written_total")
        self._metrics.add_rows(layout, "written_total", len(rows))
        return len(rows)

    def _progressed(self) -> None:
        with self._condition:
            self._last_progress = time.monotonic()

    def _store_down(self, exc: StoreUnavailable) -> None:
        if self._store_reachable:
            logger.error("store unavailable, spooling batches: %s", exc)
        self._store_reachable = False
        if _STORE_OUT_OF_SPACE.search(str(exc)):
            self._store_out_of_space = str(exc).strip().splitlines()[0][:_REASON_CHARS]
            self._next_probe = time.monotonic() + RECOVERY_PROBE_S
        self._metrics.add("write_errors_total")
        self._next_store_attempt = time.monotonic() + self._settings.store_retry_ms / 1000

    def _replay_spool(self) -> None:
        assert self._spool is not None
        while (batch := self._spool.oldest()) is not None:
            try:
                written = self._store_batch(batch.token, batch.rows)
            except StoreUnavailable as exc:
                self._store_down(exc)
                return
            self._spool.remove(batch)
            self._metrics.add_rows(batch.rows.layout, "replayed_total", written)
        logger.info("spool replayed; writing directly again")
