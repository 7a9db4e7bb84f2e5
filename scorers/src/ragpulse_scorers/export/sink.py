"""The process's score export: the stock OTel SDK logs pipeline (a batching processor over the stock OTLP
exporter) that turns written score rows into ``gen_ai.evaluation.result`` events.

Scoring never waits for it and never fails because of it: :meth:`ScoreExport.publish` only queues (a
bounded queue; past it the oldest events are dropped and counted), a background thread sends, and an
endpoint that cannot be reached costs a logged line and a count, not an exception. A long-running process
starts one with :func:`start_export` and the score writer hands it what the database accepted
(``export.installed.publish``); with none installed that is a no-op.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from opentelemetry import trace
from opentelemetry._logs import SeverityNumber
from opentelemetry.sdk._logs import LoggerProvider, ReadableLogRecord
from opentelemetry.sdk._logs.export import BatchLogRecordProcessor, LogRecordExporter, LogRecordExportResult
from opentelemetry.sdk.resources import Resource
from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags
from ragpulse import semconv
from ragpulse_core.secrets import MaskingFilter, shown_endpoint

from ragpulse_scorers.export import installed
from ragpulse_scorers.export.bounded import BoundedSession
from ragpulse_scorers.export.events import evaluation_event
from ragpulse_scorers.settings import ExportSettings

logger = logging.getLogger(__name__)

SCOPE_NAME = "ragpulse.scorers"
SERVICE_NAME = "ragpulse-scorers"
HTTP_LOGS_PATH = "/v1/logs"
# The stock exporters log a failed export's reason, which may quote the URL (with its user info or key) or
# an answer that echoes a header: these loggers mask the export's secrets.
_EXPORTER_LOGGERS = (
    "opentelemetry.exporter.otlp.proto.http._log_exporter",
    "opentelemetry.exporter.otlp.proto.grpc.exporter",
    "opentelemetry.exporter.otlp.proto.grpc._log_exporter",
    "opentelemetry.exporter.otlp.common.http",
    "urllib3.connectionpool",
    __name__,
)
_SECRETS_MASK = MaskingFilter()
for _name in _EXPORTER_LOGGERS:
    logging.getLogger(_name).addFilter(_SECRETS_MASK)


@dataclass(frozen=True)
class ExportCounts:
    queued: int
    sent: int
    failed: int
    """Events whose export the endpoint refused or never answered (after the exporter's own retries)."""
    dropped: int
    """Events never sent: unusable rows, and (known once the export has shut down) events a full queue
    pushed out or still queued when the process stopped."""


def otlp_exporter(settings: ExportSettings) -> LogRecordExporter:
    """The stock OTLP log exporter for ``settings`` (http/protobuf or grpc); its logs mask the endpoint's
    secrets and the headers' values, and an HTTP answer's body is read to a bound."""
    endpoint = (settings.otlp_endpoint or "").rstrip("/")
    _SECRETS_MASK.hide([endpoint, *settings.headers.values()])
    if settings.protocol == "grpc":
        from grpc import Compression as GrpcCompression
        from opentelemetry.exporter.otlp.proto.grpc._log_exporter import OTLPLogExporter as GrpcLogExporter

        return GrpcLogExporter(
            endpoint=endpoint,
            headers=settings.headers,
            timeout=settings.timeout_s,
            compression=GrpcCompression.Gzip
            if settings.compression == "gzip"
            else GrpcCompression.NoCompression,
        )
    from opentelemetry.exporter.otlp.proto.http import Compression
    from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter as HttpLogExporter

    url = endpoint if urlsplit(endpoint).path.endswith(HTTP_LOGS_PATH) else endpoint + HTTP_LOGS_PATH
    return HttpLogExporter(
        endpoint=url,
        headers=settings.headers,
        session=BoundedSession(),
        timeout=settings.timeout_s,
        compression=Compression.Gzip if settings.compression == "gzip" else Compression.NoCompression,
    )


class _CountingExporter(LogRecordExporter):
    """The stock exporter, counted; a failure is logged when sending starts to fail and when it recovers,
    not once per batch."""

    def __init__(self, inner: LogRecordExporter, endpoint: str) -> None:
        self._inner = inner
        self._endpoint = endpoint
        self._lock = threading.Lock()
        self.sent = 0
        self.failed = 0
        self._failing = False
        self._shut = False

    def export(self, batch: Sequence[ReadableLogRecord]) -> LogRecordExportResult:
        try:
            result = self._inner.export(batch)
        except Exception as exc:
            logger.warning("score export to %s raised %s", self._endpoint, type(exc).__name__)
            result = LogRecordExportResult.FAILURE
        with self._lock:
            if result == LogRecordExportResult.SUCCESS:
                self.sent += len(batch)
                if self._failing:
                    logger.warning("score export to %s works again", self._endpoint)
            else:
                self.failed += len(batch)
                if not self._failing:
                    logger.warning(
                        "score export to %s failed (%d events so far); scoring goes on, the events are lost",
                        self._endpoint, self.failed,
                    )  # fmt: skip
            self._failing = result != LogRecordExportResult.SUCCESS
        return result

    def force_flush(self, timeout_millis: int = 30_000) -> bool:
        return self._inner.force_flush(timeout_millis)

    def shutdown(self) -> None:
        with self._lock:
            if self._shut:
                return
            self._shut = True
        self._inner.shutdown()  # type: ignore[no-untyped-call]


class ScoreExport:
    """One OTLP destination for scores; :meth:`shutdown` sends what is queued (within its timeout)."""

    def __init__(self, settings: ExportSettings, exporter: LogRecordExporter | None = None) -> None:
        self._settings = settings
        self._exporter = _CountingExporter(
            exporter or otlp_exporter(settings), shown_endpoint(settings.otlp_endpoint or "")
        )
        self._processor = BatchLogRecordProcessor(
            self._exporter,
            schedule_delay_millis=settings.schedule_delay_s * 1000,
            max_export_batch_size=min(settings.max_batch_size, settings.max_queue_size),
            export_timeout_millis=settings.timeout_s * 1000,
            max_queue_size=settings.max_queue_size,
        )
        self._provider = LoggerProvider(
            resource=Resource.create({"service.name": SERVICE_NAME}), shutdown_on_exit=False
        )
        self._provider.add_log_record_processor(self._processor)
        self._logger = self._provider.get_logger(SCOPE_NAME)
        self._queued = 0
        self._unsendable = 0
        self._closed = False

    def publish(self, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Queue one event per score row (``columns`` names the row's values); never raises."""
        if self._closed:
            return
        for row in rows:
            try:
                event = evaluation_event(dict(zip(columns, row, strict=True)))
                if event is None:
                    continue
                parent = SpanContext(
                    event.trace_id, event.span_id, is_remote=True, trace_flags=TraceFlags(TraceFlags.SAMPLED)
                )
                self._logger.emit(
                    timestamp=event.timestamp_ns,
                    observed_timestamp=event.observed_ns,
                    context=trace.set_span_in_context(NonRecordingSpan(parent)),
                    severity_number=SeverityNumber.INFO,
                    severity_text="INFO",
                    body=event.body,
                    attributes=event.attributes,
                    event_name=semconv.GEN_AI_EVALUATION_RESULT,
                )
                self._queued += 1
            except Exception as exc:
                self._unsendable += 1
                logger.warning("score row not exported: %r", exc)

    def counts(self) -> ExportCounts:
        sent, failed = self._exporter.sent, self._exporter.failed
        pending = self._queued - sent - failed
        return ExportCounts(
            queued=self._queued,
            sent=sent,
            failed=failed,
            dropped=self._unsendable + (pending if self._closed else 0),
        )

    def shutdown(self) -> ExportCounts:
        """Send what is queued, waiting at most ``shutdown_timeout_s``; the rest is dropped and counted."""
        installed.uninstall(self)
        if not self._closed:
            # The processor's own shutdown waits up to 30 s per batch for an endpoint that does not answer;
            # past our timeout the exporter is shut, which ends its retries, and what is left is dropped.
            closing = threading.Thread(
                target=self._processor.shutdown, name="score-export-shutdown", daemon=True
            )
            closing.start()
            closing.join(self._settings.shutdown_timeout_s)
            if closing.is_alive():
                self._exporter.shutdown()
            self._provider.shutdown()
            self._closed = True
            counts = self.counts()
            logger.log(
                logging.WARNING if counts.failed or counts.dropped else logging.INFO,
                "score export to %s: %d events sent, %d failed, %d dropped",
                shown_endpoint(self._settings.otlp_endpoint or ""),
                counts.sent, counts.failed, counts.dropped,
            )  # fmt: skip
        return self.counts()


def start_export(settings: ExportSettings) -> ScoreExport | None:
    """The process's score export when ``[export] otlp_endpoint`` is set, installed; else None."""
    if not settings.enabled:
        return None
    export = ScoreExport(settings)
    installed.install(export)
    logger.info(
        "exporting scores as gen_ai.evaluation.result events to %s (%s)",
        shown_endpoint(settings.otlp_endpoint or ""),
        settings.protocol,
    )
    return export
