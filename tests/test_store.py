"""The Store and migrations against embedded chDB."""

from __future__ import annotations

import datetime as dt

import pytest
from ragpulse_core.schema import available_migrations, migrate
from ragpulse_core.store import Store, StoreUnavailable, describe_dsn


def test_migrate_twice_changes_nothing(store: Store) -> None:
    assert migrate(store, ttl_days=30) == []
    versions = store.query(f"SELECT Version FROM {store.table('ragpulse_schema_migrations')}")
    applied = {row[0] for row in versions}
    assert applied == {m.version for m in available_migrations()}


def test_root_span_becomes_a_request_row_and_retried_batch_is_not_duplicated(store: Store) -> None:
    row = [
        dt.datetime.now() - dt.timedelta(minutes=5),
        "0af7651916cd43dd8448eb211c80319c",
        "b7ad6b7169203331",
        "",
        "rag fusion",
        "Internal",
        "svc",
        {"ragpulse.kind": "rag", "input.value": "why?", "output.value": "because.", "ragpulse.variant": "B"},
        2_500_000,
        "Ok",
    ]
    columns = [
        "Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
        "SpanAttributes", "Duration", "StatusCode",
    ]
    store.insert("otel_traces", [row], columns, dedup_token="batch-1")
    store.insert("otel_traces", [row], columns, dedup_token="batch-1")
    requests = store.query_dicts(
        f"SELECT Question, Answer, Variant, DurationMs FROM {store.table('ragpulse_requests')}"
    )
    assert requests == [{"Question": "why?", "Answer": "because.", "Variant": "B", "DurationMs": 2.5}]


def test_unreachable_server_raises_store_unavailable_without_leaking_password() -> None:
    store = Store("http://user:s3cret@127.0.0.1:9/ragpulse")
    with pytest.raises(StoreUnavailable) as raised:
        store.query("SELECT 1")
    assert "s3cret" not in str(raised.value)
    assert not store.ping()


def test_describe_dsn_hides_password() -> None:
    assert describe_dsn("https://u:pw@host:8443/db") == "https://u:***@host:8443/db"
