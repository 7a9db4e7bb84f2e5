"""OTLP spans to ``otel_traces`` rows, as the OpenTelemetry Collector clickhouseexporter maps them.

Rows are kept column by column: the writer concatenates the columns of many requests and inserts them
column-oriented, which is what keeps per-span Python work small. Timestamps stay integer nanoseconds so
``DateTime64(9)`` keeps the precision a ``datetime`` would lose.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import KeyValue

from ragpulse_collector.values import as_string

TABLE = "otel_traces"

COLUMN_TYPES: dict[str, str] = {
    "Timestamp": "DateTime64(9)",
    "TraceId": "String",
    "SpanId": "String",
    "ParentSpanId": "String",
    "TraceState": "String",
    "SpanName": "LowCardinality(String)",
    "SpanKind": "LowCardinality(String)",
    "ServiceName": "LowCardinality(String)",
    "ResourceAttributes": "Map(LowCardinality(String), String)",
    "ScopeName": "String",
    "ScopeVersion": "String",
    "SpanAttributes": "Map(LowCardinality(String), String)",
    "Duration": "UInt64",
    "StatusCode": "LowCardinality(String)",
    "StatusMessage": "String",
    "Events.Timestamp": "Array(DateTime64(9))",
    "Events.Name": "Array(LowCardinality(String))",
    "Events.Attributes": "Array(Map(LowCardinality(String), String))",
    "Links.TraceId": "Array(String)",
    "Links.SpanId": "Array(String)",
    "Links.TraceState": "Array(String)",
    "Links.Attributes": "Array(Map(LowCardinality(String), String))",
}
COLUMN_NAMES: tuple[str, ...] = tuple(COLUMN_TYPES)
# The types the writer declares for its Native insert block. LowCardinality is a storage encoding: sent as
# plain String, clickhouse-connect writes the column in C instead of building a dictionary in Python (map
# keys included), and ClickHouse converts it on insert (input_format_native_allow_types_conversion).
INSERT_COLUMN_TYPES: dict[str, str] = {
    name: type_name.replace("LowCardinality(String)", "String") for name, type_name in COLUMN_TYPES.items()
}

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
# DateTime64(9) is an Int64 of nanoseconds (up to 2262-04-11): a later uint64 time cannot be stored.
MAX_TIMESTAMP_NS = 2**63 - 1
NS_PER_DAY = 86_400 * 10**9


@dataclass
class SpanColumns:
    """``otel_traces`` rows, one list per column in ``COLUMN_NAMES`` order."""

    columns: list[list[Any]] = field(default_factory=lambda: [[] for _ in COLUMN_NAMES])

    def __len__(self) -> int:
        return len(self.columns[0])

    def extend(self, other: SpanColumns) -> None:
        for mine, theirs in zip(self.columns, other.columns, strict=True):
            mine.extend(theirs)

    def identity(self) -> str:
        """What identifies these rows across retries: their trace and span ids and start times.

        A retried request carries the same spans however it is encoded; hashing these few columns costs a
        fraction of hashing the body.
        """
        timestamps, trace_ids, span_ids = self.columns[:3]
        key = "".join(trace_ids) + "".join(span_ids) + ",".join(map(str, timestamps))
        return hashlib.sha256(key.encode()).hexdigest()[:32]

    def select(self, indices: Sequence[int]) -> SpanColumns:
        """The rows at ``indices``, in that order."""
        return SpanColumns([[column[index] for index in indices] for column in self.columns])

    def slice(self, start: int, stop: int) -> SpanColumns:
        return SpanColumns([column[start:stop] for column in self.columns])

    def by_partitions(self, max_partitions: int) -> list[SpanColumns]:
        """The rows in groups that each touch at most ``max_partitions`` days (``otel_traces``'s partitions).

        ClickHouse refuses an insert block spread over more partitions than
        ``max_partitions_per_insert_block``; almost every batch covers one day, and is returned as it is.
        """
        days = [timestamp // NS_PER_DAY for timestamp in self.columns[0]]
        distinct = sorted(set(days))
        if len(distinct) <= max_partitions:
            return [self]
        group_of = {day: position // max_partitions for position, day in enumerate(distinct)}
        members: list[list[int]] = [[] for _ in range(len(distinct) // max_partitions + 1)]
        for index, day in enumerate(days):
            members[group_of[day]].append(index)
        return [self.select(indices) for indices in members if indices]

    def rows(self) -> list[dict[str, Any]]:
        """Row dictionaries: what the dead letters keep of a refused row, and what tests read."""
        return [dict(zip(COLUMN_NAMES, values, strict=True)) for values in zip(*self.columns, strict=True)]


@dataclass(frozen=True)
class MappedRequest:
    spans: SpanColumns
    rejected: int
    rejection_reason: str


def attributes_to_map(attributes: Iterable[KeyValue]) -> dict[str, str]:
    """``internal.AttributesToMap``: every value through ``AsString()``."""
    mapped = {}
    for kv in attributes:
        value = kv.value
        # Hot path: a non-empty string_value means the oneof holds a string, which is most attributes.
        text = value.string_value
        mapped[kv.key] = text if text else as_string(value)
    return mapped


def _hex_id(raw: bytes, size: int) -> str | None:
    """Lowercase hex of an id of the right size, "" for an absent one, None for a malformed one."""
    if len(raw) == size:
        return raw.hex()
    return "" if not raw else None


def map_request(request: ExportTraceServiceRequest) -> MappedRequest:
    """All spans of one export request as rows.

    Spans the table cannot hold (malformed ids, times past DateTime64(9)'s range) are counted as rejected,
    for ``partial_success``, rather than left for the database to refuse the whole batch.
    """
    out = SpanColumns()
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
            scope_name = scope_spans.scope.name
            scope_version = scope_spans.scope.version
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
                services.append(service)
                resource_attrs.append(resource)
                scope_names.append(scope_name)
                scope_versions.append(scope_version)
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
    reasons = []
    if rejected:
        reasons.append(f"{rejected} span(s) with a malformed trace, span or parent id")
    if out_of_range:
        reasons.append(
            f"{out_of_range} span(s) with a time after 2262-04-11, which DateTime64(9) cannot hold"
        )
    return MappedRequest(out, rejected + out_of_range, "; ".join(reasons))
