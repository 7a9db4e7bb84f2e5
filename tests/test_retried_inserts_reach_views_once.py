"""A retried insert that ClickHouse deduplicates (same token: the collector's spool replay, a retry of the
same batch) reaches no table below otel_traces twice, also in a database made by the version before 0030."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from ragpulse_collector.mapping import map_spans
from ragpulse_collector.tables import SPANS
from ragpulse_core.schema import migrate
from ragpulse_core.store import Store

sys.path.insert(0, str(Path(__file__).parent / "collector"))
from otlp_testing import make_request, make_span

BEFORE_0030 = 25
STEPS = ("variations", "retrieve", "fuse", "generate")


@pytest.fixture
def previous_version_store(chdb_dsn: str) -> Iterator[Store]:
    store = Store(chdb_dsn, f"before_0030_{uuid.uuid4().hex[:8]}")
    migrate(store, ttl_days=30, through=BEFORE_0030)
    yield store
    store.command(f"DROP DATABASE IF EXISTS `{store.database}`", use_database=False)


def _counts(store: Store) -> dict[str, int]:
    tables = ("otel_traces", "ragpulse_requests", "otel_traces_trace_id_ts", "ragpulse_step_latency")
    counts = {name: int(store.query(f"SELECT count() FROM {store.table(name)}")[0][0]) for name in tables}
    hours = store.query(f"SELECT sum(Calls) FROM {store.table('ragpulse_step_latency_hours')}")
    counts["step_latency_hours.Calls"] = int(hours[0][0])
    return counts


def _insert_twice(store: Store, token: str) -> None:
    root = make_span("rag demo", {"ragpulse.kind": "rag", "input.value": "q?", "output.value": "a."})
    steps = [make_span(name, trace_id=root.trace_id, parent_span_id=root.span_id) for name in STEPS]
    rows = map_spans(make_request([root, *steps])).rows
    for _ in range(2):
        store.insert_columns(SPANS.table, rows.columns, SPANS.insert_types, dedup_token=token)


def test_a_deduplicated_retry_reaches_every_view_once_after_migrating_a_previous_version_database(
    previous_version_store: Store,
) -> None:
    store = previous_version_store
    _insert_twice(store, "before")
    assert _counts(store)["ragpulse_step_latency"] == 10  # what 0030 is for: the view's table took it twice

    migrate(store, ttl_days=30)
    _insert_twice(store, "after")
    assert _counts(store) == {
        "otel_traces": 10,
        "ragpulse_requests": 2,
        "otel_traces_trace_id_ts": 2,
        "ragpulse_step_latency": 15,
        "step_latency_hours.Calls": 15,
    }
