"""0065 on a database the previous version made: every verdict stays as it was, and those of directed
judgments (written before the view carried their chance) get it, so the online agreement is weighted over
old verdicts too, also when the migration runs again after a crash; verdicts written afterwards carry it
through the view."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from ragpulse_core.schema import available_migrations, migrate
from ragpulse_core.store import Store
from ragpulse_dashboards.report import collect_report
from test_directed_agreement import CERTAIN_PROBABILITY, fill

VERSION = 65
VERDICT_COLUMNS = "TraceKey, SpanId, RequestTime, ScoredAt, Scorer, Hallucination, Support, HasHallucination"


@pytest.fixture
def previous_store(chdb_dsn: str) -> Iterator[Store]:
    store = Store(chdb_dsn, f"prev_{uuid.uuid4().hex[:8]}")
    migrate(store, ttl_days=30, through=VERSION - 1)
    yield store
    store.command(f"DROP DATABASE IF EXISTS `{store.database}`", use_database=False)


def verdicts(store: Store, columns: str = VERDICT_COLUMNS) -> list[tuple[Any, ...]]:
    return sorted(
        store.query(f"SELECT {columns} FROM {store.table('ragpulse_trace_verdicts')} FINAL"), key=repr
    )


def test_old_verdicts_keep_their_values_and_get_their_inclusion_probability(previous_store: Store) -> None:
    store = previous_store
    now = datetime.now(UTC).replace(microsecond=0)
    fill(store, now)
    before = verdicts(store)

    applied = migrate(store, ttl_days=30)

    assert [m.version for m in applied if m.version == VERSION] == [VERSION]
    assert verdicts(store) == before
    chances = [row[1] for row in verdicts(store, "Scorer, InclusionProbability")]
    # 100 free-judge verdicts and 50 undirected LLM ones weigh 1; 10 directed ones were drawn with p = 0.2.
    assert sorted(chances) == [CERTAIN_PROBABILITY] * 10 + [1.0] * 150
    (row,) = collect_report(store, now - timedelta(hours=3)).agreement
    assert row.is_weighted and row.balanced_accuracy is not None and row.kappa is not None
    assert row.balanced_accuracy.value == pytest.approx(0.7) and row.kappa.value == pytest.approx(0.4)

    # A crash before the version was recorded: the migration runs again and writes nothing.
    migrated = verdicts(store, f"{VERDICT_COLUMNS}, InclusionProbability")
    stored = store.query(f"SELECT count() FROM {store.table('ragpulse_trace_verdicts')}")[0][0]
    (migration,) = (m for m in available_migrations() if m.version == VERSION)
    for statement in migration.statements(store.database, 30):
        store.command(statement)
    assert verdicts(store, f"{VERDICT_COLUMNS}, InclusionProbability") == migrated
    assert store.query(f"SELECT count() FROM {store.table('ragpulse_trace_verdicts')}")[0][0] == stored


def test_verdicts_written_after_the_upgrade_carry_their_chance(previous_store: Store) -> None:
    store = previous_store
    migrate(store, ttl_days=30)
    now = datetime.now(UTC).replace(microsecond=0)
    fill(store, now)
    (row,) = collect_report(store, now - timedelta(hours=3)).agreement
    assert row.balanced_accuracy is not None and row.balanced_accuracy.value == pytest.approx(0.7)
