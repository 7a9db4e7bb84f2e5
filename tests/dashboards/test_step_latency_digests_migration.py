"""The hourly t-digest states of step latency (0047), on a database the previous version made: every step row
already stored reaches them once, also when the migration runs again after a crash, and spans written after
it arrive through the view; the quantiles they give are the step rows' within 2%."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from ragpulse_core.schema import available_migrations, migrate
from ragpulse_core.store import Store

FIRST_NEW = 47
PREVIOUS = max(m.version for m in available_migrations() if m.version < FIRST_NEW)
COLUMNS = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
           "SpanAttributes", "Duration", "StatusCode"]  # fmt: skip
STEPS = ("variations", "retrieve", "fuse", "generate")


@pytest.fixture
def previous_store(chdb_dsn: str) -> Iterator[Store]:
    """A database of its own, migrated as the previous version left it."""
    store = Store(chdb_dsn, f"prev_{uuid.uuid4().hex[:8]}")
    migrate(store, ttl_days=30, through=PREVIOUS)
    yield store
    store.command(f"DROP DATABASE IF EXISTS `{store.database}`", use_database=False)


def spans(now: datetime, requests: int, offset: int) -> list[list[Any]]:
    """RAG requests over the last two days: a root span and one span per step, durations spread out."""
    rows = []
    for index in range(requests):
        trace, at = uuid.uuid4().hex, now - timedelta(minutes=7 * index + offset)
        root = {"ragpulse.kind": "rag", "ragpulse.pipeline": "fusion", "ragpulse.variant": "A"}
        rows.append([at, trace, uuid.uuid4().hex[:16], "", "rag fusion", "Internal", "svc", root,
                     (900 + 37 * index % 700) * 10**6, "Error" if index % 9 == 0 else "Unset"])  # fmt: skip
        for step_index, step in enumerate(STEPS):
            rows.append([at, trace, uuid.uuid4().hex[:16], "", step, "Internal", "svc", {},
                         (20 + (index * 13 + step_index * 71) % 400) * 10**6, "Unset"])  # fmt: skip
    return rows


def check(store: Store) -> None:
    rows = store.query(
        f"SELECT Step, count(), sum(IsError), quantileExact(0.5)(DurationMs), quantileExact(0.95)(DurationMs)"
        f" FROM {store.table('ragpulse_step_latency')} GROUP BY Step ORDER BY Step"
    )
    digests = store.query(
        f"SELECT Step, sum(Calls), sum(Errors), quantilesTDigestMerge(0.5, 0.95, 0.99)(Latency)"
        f" FROM {store.table('ragpulse_step_latency_digests')} GROUP BY Step ORDER BY Step"
    )
    assert [row[:3] for row in digests] == [row[:3] for row in rows]
    for (*_, p50, p95), (*_, quantiles) in zip(rows, digests, strict=True):
        assert quantiles[0] == pytest.approx(p50, rel=0.02)
        assert quantiles[1] == pytest.approx(p95, rel=0.02)


def test_step_rows_of_the_previous_version_reach_the_digests_once(previous_store: Store) -> None:
    store = previous_store
    now = datetime.now(UTC).replace(microsecond=0)
    store.insert("otel_traces", spans(now, 400, 0), COLUMNS)

    assert FIRST_NEW in [m.version for m in migrate(store, ttl_days=30)]
    check(store)

    (migration,) = [m for m in available_migrations() if m.version == FIRST_NEW]
    for statement in migration.statements(store.database, 30):
        store.command(statement)
    check(store)

    store.insert("otel_traces", spans(now, 100, 3), COLUMNS)
    check(store)
    store.command(f"OPTIMIZE TABLE {store.table('ragpulse_step_latency_digests')} FINAL")
    check(store)
