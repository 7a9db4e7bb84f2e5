"""OTLP log records to ``otel_logs`` rows, as the OpenTelemetry Collector clickhouseexporter maps them.

GenAI instrumentations send message content as log records (events), which request assembly joins to their
spans by trace and span id; so the ids, the event name and the content must land exactly as a stock
collector would write them.
"""

from __future__ import annotations

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest

from ragpulse_collector.mapping import SPAN_ID_BYTES, TRACE_ID_BYTES
from ragpulse_collector.tables import LOG_RECORDS, MAX_TIMESTAMP_NS, Mapped, TableRows, rejection_reason
from ragpulse_collector.values import as_string, attributes_to_map

# The attribute SDKs set before LogRecord.event_name existed (OTLP 1.5).
EVENT_NAME_ATTRIBUTE = "event.name"
# TraceFlags and SeverityNumber are UInt8 columns; the exporter converts with Go's uint8(), which keeps the
# low byte (W3C trace flags are that byte; severities are 1-24).
UINT8_MASK = 0xFF


def _context_id(raw: bytes, size: int) -> str | None:
    """``TraceIDToHexOrEmptyString``: "" for an absent or all-zero id, None for one of the wrong size."""
    if len(raw) == size:
        return raw.hex() if raw.count(0) != size else ""
    return "" if not raw else None


def map_log_records(request: ExportLogsServiceRequest) -> Mapped:
    """All log records of one export request as rows.

    A record's time is its ``time_unix_nano``, or when that is unset the time it was observed. Records the
    table cannot hold (ids of the wrong size, times past DateTime64(9)'s range) are counted as rejected, for
    ``partial_success``, rather than left for the database to refuse the whole batch.
    """
    out = TableRows.empty(LOG_RECORDS)
    (
        timestamps,
        trace_ids,
        span_ids,
        trace_flags,
        severity_texts,
        severity_numbers,
        services,
        bodies,
        resource_urls,
        resource_attrs,
        scope_urls,
        scope_names,
        scope_versions,
        scope_attrs,
        log_attrs,
        event_names,
    ) = out.columns
    malformed = 0
    out_of_range = 0
    for resource_logs in request.resource_logs:
        resource = attributes_to_map(resource_logs.resource.attributes)
        service = resource.get("service.name", "")
        resource_url = resource_logs.schema_url
        for scope_logs in resource_logs.scope_logs:
            scope = scope_logs.scope
            scope_attributes = attributes_to_map(scope.attributes)
            for record in scope_logs.log_records:
                timestamp = record.time_unix_nano or record.observed_time_unix_nano
                if timestamp > MAX_TIMESTAMP_NS:
                    out_of_range += 1
                    continue
                trace_id = _context_id(record.trace_id, TRACE_ID_BYTES)
                span_id = _context_id(record.span_id, SPAN_ID_BYTES)
                if trace_id is None or span_id is None:
                    malformed += 1
                    continue
                attributes = attributes_to_map(record.attributes)
                timestamps.append(timestamp)
                trace_ids.append(trace_id)
                span_ids.append(span_id)
                trace_flags.append(record.flags & UINT8_MASK)
                severity_texts.append(record.severity_text)
                severity_numbers.append(record.severity_number & UINT8_MASK)
                services.append(service)
                bodies.append(as_string(record.body))
                resource_urls.append(resource_url)
                resource_attrs.append(resource)
                scope_urls.append(scope_logs.schema_url)
                scope_names.append(scope.name)
                scope_versions.append(scope.version)
                scope_attrs.append(scope_attributes)
                log_attrs.append(attributes)
                event_names.append(record.event_name or attributes.get(EVENT_NAME_ATTRIBUTE, ""))
    reason = rejection_reason(
        [
            (malformed, "log record(s) with a trace or span id of the wrong size"),
            (out_of_range, "log record(s) with a time after 2262-04-11, which DateTime64(9) cannot hold"),
        ]
    )
    return Mapped(out, malformed + out_of_range, reason)
