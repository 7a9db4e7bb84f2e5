"""The collector: its receivers (OTLP/HTTP, and OTLP/gRPC when a port is set), its writer, its health.

It takes all three OTLP signals: traces into ``otel_traces``, logs into ``otel_logs``, and metrics, which it
validates, counts and drops (ragpulse reads none; stock SDKs export them beside traces).

The transports live in :mod:`ragpulse_collector.http_server` and :mod:`ragpulse_collector.grpc_server`; both
hand bodies to one :class:`ExportHandler`, which feeds one :class:`BatchWriter`.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store, embedded_path

from ragpulse_collector.auth import BearerAuth, configured_token
from ragpulse_collector.deadletters import DeadLetters
from ragpulse_collector.exports import ExportHandler
from ragpulse_collector.http_server import HttpReceiver
from ragpulse_collector.journal import WriteJournal
from ragpulse_collector.memory import keep_large_blocks_mapped
from ragpulse_collector.metrics import CollectorMetrics
from ragpulse_collector.signals import SIGNALS, TRACES
from ragpulse_collector.spool import JOURNAL_SUFFIX, Spool
from ragpulse_collector.writer import RECENT_DIGESTS, BatchWriter

if TYPE_CHECKING:
    from ragpulse_collector.grpc_server import GrpcReceiver

__all__ = ["TRACES_PATH", "CollectorServer", "tune_gc_for_collector"]

TRACES_PATH = TRACES.path

logger = logging.getLogger(__name__)

# Mapping allocates a few dozen short-lived, GC-tracked objects per span (protobuf wrappers, dicts, lists),
# so with CPython's default gen0 threshold of 700 a collection runs every couple of dozen spans.
COLLECTOR_GC_THRESHOLD = (50_000, 20, 20)
HEALTH_PING_INTERVAL_S = 5.0


def tune_gc_for_collector() -> None:
    """Tune the garbage collector for a process whose main job is collecting spans.

    Freezes everything allocated so far (modules, the store's client) so collections stop rescanning it, and
    raises the collection thresholds. It changes process-wide state, so the ``collector`` command and the
    benchmark call it explicitly; embedding a :class:`CollectorServer` does not.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_GC_THRESHOLD)
    keep_large_blocks_mapped()


def _journal(settings: RagpulseSettings, store: Store) -> WriteJournal | None:
    """The writer's journal: in the spool directory, else beside an embedded database; a collector with
    neither (a ClickHouse server and no spool) keeps none, and a retry after its crash may be stored twice."""
    spool_dir = settings.collector.spool_dir
    database = embedded_path(store.dsn)
    if spool_dir is not None:
        path = spool_dir / f"writes{JOURNAL_SUFFIX}"
    elif database is not None:
        path = database.with_name(f"{database.name}.writes{JOURNAL_SUFFIX}")
    else:
        return None
    return WriteJournal(path, RECENT_DIGESTS)


class CollectorServer:
    """The receivers and their writer; ``start()`` serves in background threads."""

    def __init__(self, settings: RagpulseSettings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.metrics = CollectorMetrics()
        collector = settings.collector
        self.spool = Spool(collector.spool_dir, collector.spool_max_bytes) if collector.spool_dir else None
        self.dead_letters = DeadLetters(store, self.metrics)
        self.journal = _journal(settings, store)
        self.writer = BatchWriter(store, collector, self.spool, self.metrics, self.dead_letters, self.journal)
        self.exports = ExportHandler(collector, self.writer, self.metrics)
        self._auth = BearerAuth(configured_token(collector))
        self.metrics.gauge(
            "queue_rows",
            "Spans and log records accepted and not yet written or spooled",
            lambda: self.writer.queued_rows,
        )
        self.metrics.gauge(
            "spool_batches", "Batches waiting in the spool", lambda: len(self.spool) if self.spool else 0
        )
        self.metrics.gauge(
            "spool_bytes", "Bytes in the spool", lambda: self.spool.size_bytes if self.spool else 0
        )
        self.metrics.gauge(
            "store_reachable",
            "1 when the last write reached the store",
            lambda: int(self.writer.store_reachable),
        )
        self.metrics.gauge(
            "writer_stalled_seconds",
            "How long the writer has had work without writing any",
            self.writer.stalled_for,
        )
        self._http: HttpReceiver | None = None
        self._grpc: GrpcReceiver | None = None
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._ping_lock = threading.Lock()
        self._pinged_at = -HEALTH_PING_INTERVAL_S
        self._reachable = False

    @property
    def url(self) -> str:
        if self._http is None or self._http.address is None:
            raise RuntimeError("the collector is not started")
        host, port = self._http.address
        return f"http://{host}:{port}"

    @property
    def grpc_port(self) -> int | None:
        return self._grpc.port if self._grpc else None

    def start(self) -> None:
        """Listen, and start the writer (which replays any spool in the background)."""
        with self._lock:
            if self._http is not None:
                return
            collector = self.settings.collector
            self.writer.start()
            self._http = HttpReceiver(collector, self.exports, self._auth, self.metrics, self.health)
            self._http.start()
            if collector.grpc_port is not None:
                # Imported when used: grpcio is a large extension module that HTTP-only collectors skip.
                from ragpulse_collector.grpc_server import GrpcReceiver

                self._grpc = GrpcReceiver(collector, self.exports, self._auth, self.metrics)
                self._grpc.start()
        logger.info("collector listening on %s (%s)", self.url, ", ".join(signal.path for signal in SIGNALS))
        if self._grpc is not None:
            logger.info("collector listening for OTLP/gRPC on port %d", self._grpc.port)

    def tune_process(self) -> None:
        tune_gc_for_collector()

    def flush(self, timeout: float = 10.0) -> bool:
        return self.writer.flush(timeout)

    def stop(self) -> None:
        with self._lock:
            if self._http is None or self._stopped.is_set():
                return
            try:
                self._http.stop()
                if self._grpc is not None:
                    self._grpc.stop()
            finally:
                # Whatever the receivers did, what was accepted is written (or spooled) before returning.
                self.writer.stop(timeout=self.settings.collector.ack_timeout_s)
                if self.journal is not None:
                    self.journal.close()
                self._stopped.set()

    def serve_forever(self) -> None:
        self.start()
        try:
            self._stopped.wait()
        finally:
            self.stop()

    def _store_reachable(self) -> bool:
        """A ping at most every few seconds: probes are unauthenticated and a server ping can take seconds."""
        now = time.monotonic()
        with self._ping_lock:
            if now - self._pinged_at >= HEALTH_PING_INTERVAL_S:
                self._reachable, self._pinged_at = self.store.ping(), now
            return self._reachable

    def health(self) -> tuple[bool, dict[str, Any]]:
        """Whether the collector is doing its job, and if not, why (``problems``)."""
        collector = self.settings.collector
        reachable = self._store_reachable()
        spool_bytes = self.spool.size_bytes if self.spool else 0
        problems = []
        if not reachable and self.spool is None:
            problems.append("the store is unreachable and there is no spool to hold rows meanwhile")
        stalled = self.writer.stalled_for()
        if stalled > collector.stall_after_s:
            problems.append(f"the writer has had work and written nothing for {stalled:.0f} s")
        if self.spool is not None and spool_bytes > collector.spool_high_water * self.spool.max_bytes:
            problems.append(f"the spool is over {collector.spool_high_water:.0%} full")
        problems += self.writer.troubles()
        since_dead_letter = self.dead_letters.seconds_since_last()
        if since_dead_letter is not None and since_dead_letter < collector.dead_letter_window_s:
            problems.append(
                f"the store refused rows {since_dead_letter:.0f} s ago (see ragpulse_dead_letters)"
            )
        report = {
            "ok": not problems,
            "problems": problems,
            "store_reachable": reachable,
            "queue_rows": self.writer.queued_rows,
            "spool_batches": len(self.spool) if self.spool else 0,
            "spool_bytes": spool_bytes,
            "dead_lettered_spans": self.metrics.value("spans_dead_lettered_total"),
            "dead_lettered_log_records": self.metrics.value("log_records_dead_lettered_total"),
        }
        return not problems, report
