"""Spans to otel_traces rows, as the clickhouseexporter maps them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status
from otlp_testing import attributes, make_request, make_span
from ragpulse_collector.mapping import map_spans
from ragpulse_collector.tables import MAX_TIMESTAMP_NS, NS_PER_DAY, SPANS


def _only_row(span: Span, **request: object) -> dict[str, object]:
    mapped = map_spans(make_request([span], **request))  # type: ignore[arg-type]
    assert mapped.rejected == 0
    (row,) = mapped.rows.rows()
    return row


def test_full_span_maps_every_column() -> None:
    link = Span.Link(
        trace_id=bytes(range(16)),
        span_id=bytes(range(8)),
        trace_state="k=v",
        attributes=attributes({"why": "fan-in"}),
    )
    event = Span.Event(
        time_unix_nano=1_700_000_000_000_000_123, name="retry", attributes=attributes({"n": 2})
    )
    span = make_span(
        "rag fusion",
        {"ragpulse.kind": "rag", "score": 0.25},
        trace_id=bytes.fromhex("0af7651916cd43dd8448eb211c80319c"),
        span_id=bytes.fromhex("b7ad6b7169203331"),
        parent_span_id=bytes.fromhex("00f067aa0ba902b7"),
        trace_state="congo=t61",
        kind=Span.SPAN_KIND_SERVER,
        start_time_unix_nano=1_700_000_000_000_000_001,
        end_time_unix_nano=1_700_000_000_002_500_001,
        status=Status(code=Status.STATUS_CODE_ERROR, message="boom"),
        events=[event],
        links=[link],
    )
    row = _only_row(span, service="checkout", resource={"host.name": "h1"})
    assert list(row) == list(SPANS.column_names)
    assert row == {
        "Timestamp": 1_700_000_000_000_000_001,
        "TraceId": "0af7651916cd43dd8448eb211c80319c",
        "SpanId": "b7ad6b7169203331",
        "ParentSpanId": "00f067aa0ba902b7",
        "TraceState": "congo=t61",
        "SpanName": "rag fusion",
        "SpanKind": "Server",
        "ServiceName": "checkout",
        "ResourceAttributes": {"service.name": "checkout", "host.name": "h1"},
        "ScopeName": "tests",
        "ScopeVersion": "1.0",
        "SpanAttributes": {"ragpulse.kind": "rag", "score": "0.25"},
        "Duration": 2_500_000,
        "StatusCode": "Error",
        "StatusMessage": "boom",
        "Events.Timestamp": [1_700_000_000_000_000_123],
        "Events.Name": ["retry"],
        "Events.Attributes": [{"n": "2"}],
        "Links.TraceId": [bytes(range(16)).hex()],
        "Links.SpanId": [bytes(range(8)).hex()],
        "Links.TraceState": ["k=v"],
        "Links.Attributes": [{"why": "fan-in"}],
    }


def test_root_span_has_empty_parent_and_missing_service_name_is_empty() -> None:
    request = make_request([make_span()])
    del request.resource_spans[0].resource.attributes[:]
    (row,) = map_spans(request).rows.rows()
    assert row["ParentSpanId"] == ""
    assert row["ServiceName"] == ""


def test_non_string_service_name_is_stringified() -> None:
    request = make_request([make_span()])
    request.resource_spans[0].resource.attributes[0].value.int_value = 7
    assert map_spans(request).rows.rows()[0]["ServiceName"] == "7"


def test_span_ending_before_it_starts_gets_zero_duration() -> None:
    row = _only_row(make_span(start_time_unix_nano=10_000, end_time_unix_nano=9_000))
    assert row["Duration"] == 0


@given(st.integers(min_value=0, max_value=7))
def test_span_kind_names_are_pdata_strings(kind: int) -> None:
    names = ["Unspecified", "Internal", "Server", "Client", "Producer", "Consumer"]
    assert _only_row(make_span(kind=kind))["SpanKind"] == (names[kind] if kind < len(names) else "")


@given(st.integers(min_value=0, max_value=4))
def test_status_code_names_are_pdata_strings(code: int) -> None:
    expected = ["Unset", "Ok", "Error"][code] if code < 3 else ""
    assert _only_row(make_span(status=Status(code=code)))["StatusCode"] == expected


@given(st.binary(max_size=20), st.binary(max_size=12), st.binary(max_size=12))
def test_spans_with_malformed_ids_are_rejected_and_others_kept(
    trace_id: bytes, span_id: bytes, parent_id: bytes
) -> None:
    good = make_span()
    candidate = make_span(trace_id=trace_id, span_id=span_id, parent_span_id=parent_id)
    mapped = map_spans(make_request([good, candidate]))
    valid = len(trace_id) == 16 and len(span_id) == 8 and len(parent_id) in (0, 8)
    assert mapped.rejected == (0 if valid else 1)
    assert bool(mapped.rejection_reason) == (not valid)
    rows = mapped.rows.rows()
    assert rows[0]["SpanId"] == good.span_id.hex()
    if valid:
        assert rows[1]["TraceId"] == trace_id.hex()
        assert rows[1]["SpanId"] == span_id.hex()
        assert rows[1]["ParentSpanId"] == parent_id.hex()
        assert rows[1]["TraceId"] == rows[1]["TraceId"].lower()
    else:
        assert len(rows) == 1


def test_link_with_malformed_id_rejects_its_span() -> None:
    span = make_span(links=[Span.Link(trace_id=b"\x01" * 5, span_id=b"\x02" * 8)])
    mapped = map_spans(make_request([span]))
    assert (mapped.rejected, len(mapped.rows)) == (1, 0)


def test_spans_across_resources_and_scopes_keep_their_own_service_and_scope() -> None:
    request = make_request([make_span("a")], service="one")
    request.resource_spans.extend(make_request([make_span("b")], service="two").resource_spans)
    request.resource_spans[1].scope_spans[0].scope.name = "other"
    rows = map_spans(request).rows.rows()
    assert [(r["SpanName"], r["ServiceName"], r["ScopeName"]) for r in rows] == [
        ("a", "one", "tests"),
        ("b", "two", "other"),
    ]


UINT64 = st.integers(min_value=0, max_value=2**64 - 1)


@given(UINT64, UINT64, st.lists(UINT64, max_size=3))
def test_spans_with_times_the_table_cannot_hold_are_rejected_and_others_kept(
    start: int, end: int, event_times: list[int]
) -> None:
    events = [Span.Event(time_unix_nano=time, name="e") for time in event_times]
    mapped = map_spans(
        make_request(
            [make_span(start_time_unix_nano=start, end_time_unix_nano=end, events=events), make_span()]
        )
    )
    storable = max([start, *event_times]) <= MAX_TIMESTAMP_NS
    assert (len(mapped.rows), mapped.rejected) == ((2, 0) if storable else (1, 1))
    assert ("DateTime64" in mapped.rejection_reason) is not storable
    for row in mapped.rows.rows():
        assert 0 <= row["Timestamp"] <= MAX_TIMESTAMP_NS and 0 <= row["Duration"] < 2**64


@given(st.lists(st.integers(min_value=0, max_value=400), min_size=1, max_size=300), st.integers(1, 120))
def test_partition_groups_touch_few_days_and_keep_every_row_once(
    days: list[int], max_partitions: int
) -> None:
    spans = [make_span(start_time_unix_nano=day * NS_PER_DAY + index) for index, day in enumerate(days)]
    columns = map_spans(make_request(spans)).rows
    groups = columns.by_partitions(max_partitions)
    for group in groups:
        assert len({timestamp // NS_PER_DAY for timestamp in group.columns[0]}) <= max_partitions
    regrouped = sorted(row["SpanId"] for group in groups for row in group.rows())
    assert regrouped == sorted(row["SpanId"] for row in columns.rows())
