"""0071 names the requests no judge may score by their start microsecond, as the requests are named: in a
database made by the version before, unscorable requests that reused ids within one second had merged into
one row; after the upgrade each is counted again, refilled from the requests."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from ragpulse_core.schema import migrate
from ragpulse_core.store import Store
from trials import not_scored_counts

BEFORE_0071 = 70
SPAN_COLUMNS = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
                "SpanAttributes", "Duration", "StatusCode"]  # fmt: skip


@pytest.fixture
def previous_version_store(chdb_dsn: str) -> Iterator[Store]:
    store = Store(chdb_dsn, f"before_0071_{uuid.uuid4().hex[:8]}")
    migrate(store, ttl_days=30, through=BEFORE_0071)
    yield store
    store.command(f"DROP DATABASE IF EXISTS `{store.database}`", use_database=False)


def test_unscorable_requests_reusing_ids_in_one_second_are_counted_apart_after_the_upgrade(
    previous_version_store: Store,
) -> None:
    store = previous_version_store
    second = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=5)
    attributes = {"ragpulse.kind": "rag", "input.value": "Where is Paris?", "output.value": "In France."}
    trace_id, span_id = uuid.uuid4().hex, uuid.uuid4().hex[:16]
    rows = [
        [second + timedelta(microseconds=n * 250_000), trace_id, span_id, "", "rag capitals", "Internal",
         "svc", attributes, 1_000_000, "Ok"]
        for n in range(3)
    ]  # fmt: skip
    store.insert("otel_traces", rows, SPAN_COLUMNS)
    store.command(f"OPTIMIZE TABLE {store.table('ragpulse_unscored_requests')} FINAL")
    since = second - timedelta(hours=1)
    assert not_scored_counts(store, "svc", since) == {"no_context": 1}

    migrate(store, ttl_days=30)

    assert not_scored_counts(store, "svc", since) == {"no_context": 3}
    store.insert("otel_traces", [[second + timedelta(microseconds=900_000), *rows[0][1:]]], SPAN_COLUMNS)
    store.command(f"OPTIMIZE TABLE {store.table('ragpulse_unscored_requests')} FINAL")
    assert not_scored_counts(store, "svc", since) == {"no_context": 4}  # the view fills the new table
