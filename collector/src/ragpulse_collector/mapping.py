"""OTLP spans to ``otel_traces`` rows, as the OpenTelemetry Collector clickhouseexporter maps them."""

from __future__ import annotations

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from ragpulse_collector.tables import MAX_TIMESTAMP_NS, SPANS, Mapped, TableRows, rejection_reason
from ragpulse_collector.values import attributes_to_map

# pdata SpanKind.String() and StatusCode.String(); values outside the enum render as "".
SPAN_KINDS: dict[int, str] = {
    0: "Unspecified",
    1: "Internal",
    2: "Server",
    3: "Client",
    4: "Producer",
    5: "Consumer",
}
STATUS_CODES: dict[int, str] = {0: "Unset", 1: "Ok", 2: "Error"}

TRACE_ID_BYTES = 16
SPAN_ID_BYTES = 8


def _hex_id(raw: bytes, size: int) -> str | None:
    """Lowercase hex of an id of the right size, "" for an absent one, None for a malformed one."""
    if len(raw) == size:
        return raw.hex()
    return "" if not raw else None


def map_spans(request: ExportTraceServiceRequest) -> Mapped:
    """All spans of one export request as rows.

    Spans the table cannot hold (malformed ids, times past DateTime64(9)'s range) are counted as rejected,
    for ``partial_success``, rather than left for the database to refuse the whole batch.
    """
    out = TableRows.empty(SPANS)
    (
        timestamps,
        trace_ids,
        span_ids,
        parent_ids,
        trace_states,
        names,
        kinds,
        services,
        resource_attrs,
        scope_names,
        scope_versions,
        span_attrs,
        durations,
        status_codes,
        status_messages,
        event_times,
        event_names,
        event_attrs,
        link_trace_ids,
        link_span_ids,
        link_states,
        link_attrs,
    ) = out.columns
    rejected = 0
    out_of_range = 0
    kind_names = SPAN_KINDS.get
    status_names = STATUS_CODES.get
    for resource_spans in request.resource_spans:
        resource = attributes_to_map(resource_spans.resource.attributes)
        service = resource.get("service.name", "")
        for scope_spans in resource_spans.scope_spans:
            scope = scope_spans.scope
            rows_before = len(timestamps)
            for span in scope_spans.spans:
                trace_id = span.trace_id
                span_id = span.span_id
                parent_raw = span.parent_span_id
                if len(parent_raw) == SPAN_ID_BYTES:
                    parent_id = parent_raw.hex()
                elif not parent_raw:
                    parent_id = ""
                else:
                    rejected += 1
                    continue
                if len(trace_id) != TRACE_ID_BYTES or len(span_id) != SPAN_ID_BYTES:
                    rejected += 1
                    continue
                start = span.start_time_unix_nano
                end = span.end_time_unix_nano
                events = span.events
                if start > MAX_TIMESTAMP_NS or (
                    events and max(event.time_unix_nano for event in events) > MAX_TIMESTAMP_NS
                ):
                    out_of_range += 1
                    continue
                links = span.links
                if links:
                    link_traces: list[str] = []
                    link_spans: list[str] = []
                    valid = True
                    for link in links:
                        link_trace = _hex_id(link.trace_id, TRACE_ID_BYTES)
                        link_span = _hex_id(link.span_id, SPAN_ID_BYTES)
                        if link_trace is None or link_span is None:
                            valid = False
                            break
                        link_traces.append(link_trace)
                        link_spans.append(link_span)
                    if not valid:
                        rejected += 1
                        continue
                    link_trace_ids.append(link_traces)
                    link_span_ids.append(link_spans)
                    link_states.append([link.trace_state for link in links])
                    link_attrs.append([attributes_to_map(link.attributes) for link in links])
                else:
                    link_trace_ids.append([])
                    link_span_ids.append([])
                    link_states.append([])
                    link_attrs.append([])
                timestamps.append(start)
                trace_ids.append(trace_id.hex())
                span_ids.append(span_id.hex())
                parent_ids.append(parent_id)
                trace_states.append(span.trace_state)
                names.append(span.name)
                kinds.append(kind_names(span.kind, ""))
                span_attrs.append(attributes_to_map(span.attributes))
                # A span that ends before it starts is malformed; zero beats a wrapped-around uint64.
                durations.append(end - start if end > start else 0)
                status = span.status
                status_codes.append(status_names(status.code, ""))
                status_messages.append(status.message)
                if events:
                    event_times.append([event.time_unix_nano for event in events])
                    event_names.append([event.name for event in events])
                    event_attrs.append([attributes_to_map(event.attributes) for event in events])
                else:
                    event_times.append([])
                    event_names.append([])
                    event_attrs.append([])
            # The same for every span of the scope: filled once its spans are mapped.
            added = len(timestamps) - rows_before
            services.extend([service] * added)
            resource_attrs.extend([resource] * added)
            scope_names.extend([scope.name] * added)
            scope_versions.extend([scope.version] * added)
    reason = rejection_reason(
        [
            (rejected, "span(s) with a malformed trace, span or parent id"),
            (out_of_range, "span(s) with a time after 2262-04-11, which DateTime64(9) cannot hold"),
        ]
    )
    return Mapped(out, rejected + out_of_range, reason)
