"""Log records to otel_logs rows, as the clickhouseexporter maps them."""

from __future__ import annotations

import json
import time
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord
from otlp_testing import any_value, attributes, make_log_record, make_logs_request
from ragpulse_collector.log_mapping import map_log_records
from ragpulse_collector.tables import LOG_RECORDS, MAX_TIMESTAMP_NS
from ragpulse_core.store import Store

UINT64 = st.integers(min_value=0, max_value=2**64 - 1)
INT32 = st.integers(min_value=-(2**31), max_value=2**31 - 1)
UINT32 = st.integers(min_value=0, max_value=2**32 - 1)
TEXT_LEAVES = st.one_of(st.text(), st.integers(min_value=-(2**63), max_value=2**63 - 1), st.booleans())


def _only_row(record: LogRecord, **request: Any) -> dict[str, Any]:
    mapped = map_log_records(make_logs_request([record], **request))
    assert mapped.rejected == 0, mapped.rejection_reason
    (row,) = mapped.rows.rows()
    return row


def test_full_log_record_maps_every_column() -> None:
    request = make_logs_request(
        [
            make_log_record(
                {"content": "What is RRF?", "role": "user"},
                {"gen_ai.system": "openai", "n": 2},
                time_unix_nano=1_700_000_000_000_000_001,
                observed_time_unix_nano=1_700_000_000_000_000_999,
                trace_id=bytes.fromhex("0af7651916cd43dd8448eb211c80319c"),
                span_id=bytes.fromhex("b7ad6b7169203331"),
                flags=0x01,
                severity_number=9,
                severity_text="INFO",
                event_name="gen_ai.user.message",
            )
        ],
        service="support-bot",
        resource={"host.name": "h1"},
    )
    request.resource_logs[0].schema_url = "https://opentelemetry.io/schemas/1.26.0"
    scope_logs = request.resource_logs[0].scope_logs[0]
    scope_logs.schema_url = "https://opentelemetry.io/schemas/1.28.0"
    scope_logs.scope.attributes.extend(attributes({"library.kind": "genai"}))
    (row,) = map_log_records(request).rows.rows()
    assert list(row) == list(LOG_RECORDS.column_names)
    assert row == {
        "Timestamp": 1_700_000_000_000_000_001,
        "TraceId": "0af7651916cd43dd8448eb211c80319c",
        "SpanId": "b7ad6b7169203331",
        "TraceFlags": 1,
        "SeverityText": "INFO",
        "SeverityNumber": 9,
        "ServiceName": "support-bot",
        "Body": '{"content":"What is RRF?","role":"user"}',
        "ResourceSchemaUrl": "https://opentelemetry.io/schemas/1.26.0",
        "ResourceAttributes": {"service.name": "support-bot", "host.name": "h1"},
        "ScopeSchemaUrl": "https://opentelemetry.io/schemas/1.28.0",
        "ScopeName": "tests",
        "ScopeVersion": "1.0",
        "ScopeAttributes": {"library.kind": "genai"},
        "LogAttributes": {"gen_ai.system": "openai", "n": "2"},
        "EventName": "gen_ai.user.message",
    }


def test_a_record_without_a_time_takes_the_time_it_was_observed() -> None:
    row = _only_row(make_log_record(time_unix_nano=0, observed_time_unix_nano=1_700_000_000_000_000_007))
    assert row["Timestamp"] == 1_700_000_000_000_000_007


def test_older_sdks_event_name_attribute_fills_event_name_and_stays_an_attribute() -> None:
    row = _only_row(make_log_record(attrs={"event.name": "gen_ai.choice"}))
    assert row["EventName"] == "gen_ai.choice"
    assert row["LogAttributes"] == {"event.name": "gen_ai.choice"}
    field_wins = _only_row(make_log_record(attrs={"event.name": "old"}, event_name="gen_ai.choice"))
    assert field_wins["EventName"] == "gen_ai.choice"


def test_a_record_outside_any_trace_has_empty_ids() -> None:
    for trace_id, span_id in ((b"", b""), (bytes(16), bytes(8))):
        row = _only_row(make_log_record("plain log line", trace_id=trace_id, span_id=span_id))
        assert (row["TraceId"], row["SpanId"], row["Body"]) == ("", "", "plain log line")


def test_records_across_resources_and_scopes_keep_their_own_service_and_scope() -> None:
    request = make_logs_request([make_log_record("a")], service="one")
    request.resource_logs.extend(make_logs_request([make_log_record("b")], service="two").resource_logs)
    request.resource_logs[1].scope_logs[0].scope.name = "other"
    del request.resource_logs[1].resource.attributes[:]
    rows = map_log_records(request).rows.rows()
    assert [(r["Body"], r["ServiceName"], r["ScopeName"]) for r in rows] == [
        ("a", "one", "tests"),
        ("b", "", "other"),
    ]


BODIES = st.one_of(
    st.none(),
    st.text(),
    st.dictionaries(st.text(max_size=8), TEXT_LEAVES, max_size=4),
    st.lists(TEXT_LEAVES, max_size=4),
)


def _expected_body(body: Any, mapped: str) -> None:
    if body is None:
        assert mapped == ""
    elif isinstance(body, str):
        assert mapped == body
    else:
        # Maps and arrays are JSON (keys sorted, as Go's json.Marshal writes a map).
        assert json.loads(mapped) == body
        if isinstance(body, dict):
            assert list(json.loads(mapped)) == sorted(body)


@given(
    time_ns=UINT64,
    observed_ns=UINT64,
    trace_id=st.one_of(st.binary(min_size=16, max_size=16), st.binary(max_size=20)),
    span_id=st.one_of(st.binary(min_size=8, max_size=8), st.binary(max_size=10)),
    flags=UINT32,
    severity=INT32,
    severity_text=st.text(max_size=10),
    body=BODIES,
    attrs=st.dictionaries(st.text(max_size=12), TEXT_LEAVES, max_size=4),
    event_name=st.text(max_size=20),
)
def test_any_log_record_maps_as_the_exporter_does_or_is_rejected_with_a_reason(
    time_ns: int,
    observed_ns: int,
    trace_id: bytes,
    span_id: bytes,
    flags: int,
    severity: int,
    severity_text: str,
    body: Any,
    attrs: dict[str, Any],
    event_name: str,
) -> None:
    record = make_log_record(
        time_unix_nano=time_ns,
        observed_time_unix_nano=observed_ns,
        trace_id=trace_id,
        span_id=span_id,
        flags=flags,
        severity_number=severity,
        severity_text=severity_text,
        attributes=attributes(attrs),
        event_name=event_name,
    )
    if body is None:
        record.ClearField("body")
    else:
        record.body.CopyFrom(any_value(body))
    neighbour = make_log_record("kept")
    mapped = map_log_records(make_logs_request([record, neighbour]))

    timestamp = time_ns or observed_ns
    ids_fit = len(trace_id) in (0, 16) and len(span_id) in (0, 8)
    storable = ids_fit and timestamp <= MAX_TIMESTAMP_NS
    assert (len(mapped.rows), mapped.rejected) == ((2, 0) if storable else (1, 1))
    assert bool(mapped.rejection_reason) == (not storable)
    rows = mapped.rows.rows()
    assert rows[-1]["Body"] == "kept"
    if not storable:
        return
    row = rows[0]
    assert row["Timestamp"] == timestamp
    assert row["TraceId"] == ("" if trace_id.count(0) == len(trace_id) else trace_id.hex())
    assert row["SpanId"] == ("" if span_id.count(0) == len(span_id) else span_id.hex())
    assert 0 <= row["TraceFlags"] <= 255 and row["TraceFlags"] == flags % 256
    assert 0 <= row["SeverityNumber"] <= 255 and row["SeverityNumber"] == severity % 256
    assert row["SeverityText"] == severity_text
    _expected_body(body, row["Body"])
    assert set(row["LogAttributes"]) == set(attrs)
    for key, value in attrs.items():
        expected = value if isinstance(value, str) else json.dumps(value)
        assert row["LogAttributes"][key] == expected
    fallback = row["LogAttributes"].get("event.name", "")
    assert row["EventName"] == (event_name or fallback)


def test_mapped_rows_with_edge_values_are_what_otel_logs_stores(store: Store) -> None:
    now = time.time_ns()
    records = [
        make_log_record("", time_unix_nano=now, flags=0x1FF, severity_number=-1),
        make_log_record(["a", 1, True], trace_id=b"", span_id=b"", severity_number=300),
        make_log_record({"k": "é<>\u2028"}, time_unix_nano=0, observed_time_unix_nano=now),
    ]
    mapped = map_log_records(make_logs_request(records))
    store.insert_columns(LOG_RECORDS.table, mapped.rows.columns, LOG_RECORDS.insert_types)
    stored = store.query_dicts(
        f"SELECT {', '.join(LOG_RECORDS.column_names)}, toUnixTimestamp(TimestampTime) AS Seconds"
        f" FROM {store.table('otel_logs')}"
    )
    expected = mapped.rows.rows()
    assert len(stored) == len(expected) == 3
    by_body = {row["Body"]: row for row in stored}
    for row in expected:
        got = by_body[row["Body"]]
        assert got["TraceId"] == row["TraceId"] and got["SpanId"] == row["SpanId"]
        assert (got["TraceFlags"], got["SeverityNumber"]) == (row["TraceFlags"], row["SeverityNumber"])
        assert got["LogAttributes"] == row["LogAttributes"]
        assert got["Seconds"] == row["Timestamp"] // 10**9
    assert by_body['["a",1,true]']["SeverityNumber"] == 300 % 256
    assert by_body[""]["SeverityNumber"] == 255 and by_body[""]["TraceFlags"] == 0xFF
