"""One OTLP export request to one answer, whichever transport carried it (HTTP or gRPC) and whichever signal.

The order is the point: decompress and decode within the body limit, then refuse early what would not fit
(the rows' expanded size, the write queue's room) before any mapping, then map and queue. The transports only
translate :class:`ExportResult` into their status codes. Metrics stop after decoding: they are counted and
dropped, and answered as accepted.
"""

from __future__ import annotations

import contextlib
import enum
import threading
from collections.abc import Iterator
from dataclasses import dataclass

from ragpulse_core.settings import CollectorSettings

from ragpulse_collector import otlp
from ragpulse_collector.metrics import CollectorMetrics
from ragpulse_collector.signals import Signal, data_points, expanded_size
from ragpulse_collector.tables import TableRows
from ragpulse_collector.writer import BatchWriter, QueueFull, Ticket, WriteFailed


class ExportStatus(enum.Enum):
    OK = "ok"
    INVALID = "invalid"
    TOO_LARGE = "too large"
    QUEUE_FULL = "queue full"
    UNAVAILABLE = "unavailable"


# What each outcome is on the wire: the HTTP status (gRPC answers are counted under the same numbers in
# /metrics), and how long a client should wait before retrying one worth retrying.
HTTP_STATUS: dict[ExportStatus, int] = {
    ExportStatus.OK: 200,
    ExportStatus.INVALID: 400,
    ExportStatus.TOO_LARGE: 413,
    ExportStatus.QUEUE_FULL: 429,
    ExportStatus.UNAVAILABLE: 503,
}
RETRY_AFTER_S: dict[ExportStatus, int] = {ExportStatus.QUEUE_FULL: 1, ExportStatus.UNAVAILABLE: 5}
HTTP_UNAUTHORIZED = 401
# A byte of an OTLP string rendered into stored JSON takes at most six (``<`` -> ``\u003c``, control
# characters -> ``\u0000``); numbers, bools and empty values take less than that per encoded byte.
WORST_RENDER_EXPANSION = 6
# Requests below this (as encoded, resources repeated) are charged the worst case rather than measured.
MEASURED_FROM_BYTES = 64 * 1024


@dataclass(frozen=True)
class ExportResult:
    status: ExportStatus
    message: str = ""
    rejected: int = 0


@dataclass(frozen=True)
class Queued:
    """A request whose rows wait in the write queue; its answer comes when ``ticket`` resolves."""

    ticket: Ticket
    rejected: int
    reason: str


class ByteBudget:
    """Bytes that requests being mapped may render at once, each reserving its worst case: small requests map
    side by side, while large ones (whose rendering holds several copies of their values for a moment) map
    one after the other instead of all together on every decoding thread."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._used = 0
        self._condition = threading.Condition()

    @contextlib.contextmanager
    def reserve(self, amount: int) -> Iterator[None]:
        amount = min(amount, self.capacity)
        with self._condition:
            while self._used + amount > self.capacity:
                self._condition.wait()
            self._used += amount
        try:
            yield
        finally:
            with self._condition:
                self._used -= amount
                self._condition.notify_all()


def stored_size(rows: TableRows, estimate: int) -> int:
    """What ``rows`` take once rendered, for the limits: measured, except for a request so small that even
    rendered at the worst (every byte of a JSON-rendered string escaped to six) it is negligible, which is
    charged that worst case instead of the measuring (a few percent of the mapping's time)."""
    if estimate < MEASURED_FROM_BYTES:
        return estimate * WORST_RENDER_EXPANSION
    return rows.stored_bytes()


class ExportHandler:
    def __init__(self, settings: CollectorSettings, writer: BatchWriter, metrics: CollectorMetrics) -> None:
        self.settings = settings
        self.writer = writer
        self.metrics = metrics
        self._mapping = ByteBudget(settings.max_expanded_bytes)

    def accept(
        self, signal: Signal, body: bytes, kind: str, content_encoding: str | None
    ) -> ExportResult | Queued:
        """Decode, admit and queue a request body; CPU work, never waits for the writer."""
        with self.writer.arriving():
            return self._accept(signal, body, kind, content_encoding)

    def _accept(
        self, signal: Signal, body: bytes, kind: str, content_encoding: str | None
    ) -> ExportResult | Queued:
        limit = self.settings.max_body_bytes
        try:
            raw = otlp.decompress(body, content_encoding, limit)
            request = otlp.decode_request(raw, kind, signal)
        except otlp.PayloadTooLarge as exc:
            return ExportResult(ExportStatus.TOO_LARGE, str(exc))
        except otlp.PayloadError as exc:
            return ExportResult(ExportStatus.INVALID, str(exc))
        storage = signal.storage
        if storage is None:  # metrics, the one signal ragpulse does not keep
            self.metrics.add("metric_data_points_dropped_total", data_points(request))
            return ExportResult(ExportStatus.OK)
        layout = storage.layout
        items, size = expanded_size(signal, request, len(raw))
        if size > self.settings.max_expanded_bytes:
            return ExportResult(
                ExportStatus.TOO_LARGE,
                f"{items} {layout.described} would expand to about {size} bytes of rows (resource and scope "
                f"attributes repeat on each), over {self.settings.max_expanded_bytes}; send smaller batches",
            )
        # At worst each byte renders to six: refused now if even that would not fit, mapping nothing.
        worst = min(size * WORST_RENDER_EXPANSION, self.settings.max_expanded_bytes)
        try:
            self.writer.check_room(items, worst)
            with self._mapping.reserve(worst):
                mapped = storage.map(request)
                del request  # the rows hold what is kept; the decoded request can go now
                stored = stored_size(mapped.rows, size)
                digest = mapped.rows.identity() if stored <= self.settings.max_expanded_bytes else ""
            if not digest:
                return ExportResult(
                    ExportStatus.TOO_LARGE,
                    f"{items} {layout.described} take {stored} bytes once stored (arrays and maps are stored"
                    f" as JSON), over {self.settings.max_expanded_bytes}; send smaller batches or values",
                )
            self.metrics.add_rows(layout, "received_total", len(mapped.rows) + mapped.rejected)
            if mapped.rejected:
                self.metrics.add_rows(layout, "rejected_total", mapped.rejected)
            if not len(mapped.rows):
                return ExportResult(ExportStatus.OK, mapped.rejection_reason, mapped.rejected)
            ticket = self.writer.submit(mapped.rows, digest, stored)
        except QueueFull as exc:
            return ExportResult(ExportStatus.QUEUE_FULL, f"write queue full ({exc}); retry later")
        except WriteFailed as exc:
            return ExportResult(ExportStatus.UNAVAILABLE, str(exc))
        return Queued(ticket, mapped.rejected, mapped.rejection_reason)

    def withdraw_if_queued(self, queued: Queued) -> bool:
        """After the ack timeout: True when the request was taken back, so it will never be written."""
        return not queued.ticket.done and self.writer.withdraw(queued.ticket)

    @staticmethod
    def conclude(queued: Queued) -> ExportResult:
        """The answer for a request whose ticket resolved (or was given up on: then it is unavailable)."""
        if not queued.ticket.done:
            return ExportResult(ExportStatus.UNAVAILABLE, "the write is taking too long; retry later")
        try:
            queued.ticket.result()
        except WriteFailed as exc:
            return ExportResult(ExportStatus.UNAVAILABLE, str(exc))
        return ExportResult(ExportStatus.OK, queued.reason, queued.rejected)

    def export(self, signal: Signal, body: bytes, kind: str, content_encoding: str | None) -> ExportResult:
        """:meth:`accept` and wait for the answer, blocking this thread (the gRPC receiver's way)."""
        accepted = self.accept(signal, body, kind, content_encoding)
        if isinstance(accepted, ExportResult):
            return accepted
        timeout = self.settings.ack_timeout_s
        if not accepted.ticket.done_within(timeout) and not self.withdraw_if_queued(accepted):
            # Already inside an insert: that insert's outcome is the answer, if it comes in time.
            accepted.ticket.done_within(timeout)
        return self.conclude(accepted)
