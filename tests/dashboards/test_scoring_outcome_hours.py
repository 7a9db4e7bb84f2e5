"""The hourly outcome counts of the scoring log (0046): on a database the previous version made, every log
row reaches them once, also when the migration runs again after a crash; rows logged after it arrive through
the view; and the report counts each outcome as a reader of every log row does, from a window's middle."""

from __future__ import annotations

import random
import uuid
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from ragpulse_core.schema import available_migrations, migrate
from ragpulse_core.store import Store
from ragpulse_dashboards.report.queries import scoring_health

FIRST_NEW = 46
PREVIOUS = max(m.version for m in available_migrations() if m.version < FIRST_NEW)
LOG_COLUMNS = ["LoggedAt", "TraceId", "SpanId", "RequestTime", "ServiceName", "Variant", "Scorer",
               "ScorerVersion", "Outcome", "Reason", "Worker"]  # fmt: skip
OUTCOMES = ("scored", "sampled_out", "throttled", "failed")


@pytest.fixture
def previous_store(chdb_dsn: str) -> Iterator[Store]:
    """A database of its own, migrated as the previous version left it."""
    store = Store(chdb_dsn, f"prev_{uuid.uuid4().hex[:8]}")
    migrate(store, ttl_days=30, through=PREVIOUS)
    yield store
    store.command(f"DROP DATABASE IF EXISTS `{store.database}`", use_database=False)


def log_rows(now: datetime, count: int, seed: int) -> list[list[Any]]:
    """Log rows of requests over the last three days, two services, two scorers, several outcomes."""
    chance = random.Random(seed)
    rows = []
    for _ in range(count):
        requested = now - timedelta(seconds=chance.randrange(3 * 86400))
        rows.append([
            requested + timedelta(seconds=chance.randrange(1, 600)), uuid.uuid4().hex, uuid.uuid4().hex[:16],
            requested, chance.choice(["svc", "other"]), "A", chance.choice(["lexical", "support"]), "1",
            chance.choice(OUTCOMES), "", "test",
        ])  # fmt: skip
    return rows


def expected(rows: list[list[Any]], since: datetime, service: str = "") -> dict[str, int]:
    counts = Counter(f"{row[6]}: {row[8]}" for row in rows if row[3] >= since and service in ("", row[4]))
    return dict(sorted(counts.items()))


def reported(store: Store, since: datetime, service: str = "") -> dict[str, int]:
    params = {"since_ms": int(since.timestamp() * 1000), "service": service}
    return scoring_health(store, params, 0).outcomes


def test_log_rows_of_the_previous_version_are_counted_once_and_agree_with_the_log(
    previous_store: Store,
) -> None:
    store = previous_store
    now = datetime.now(UTC).replace(microsecond=0)
    rows = log_rows(now, 600, seed=1)
    store.insert("ragpulse_scoring_log", rows, LOG_COLUMNS)

    assert FIRST_NEW in [m.version for m in migrate(store, ttl_days=30)]
    # From 50 hours and 17 minutes ago: 49 whole hours from the counts, a partial one from the log.
    since = now - timedelta(hours=50, minutes=17)
    assert reported(store, since) == expected(rows, since)
    assert reported(store, since, "other") == expected(rows, since, "other")

    (migration,) = [m for m in available_migrations() if m.version == FIRST_NEW]
    for statement in migration.statements(store.database, 30):
        store.command(statement)
    assert reported(store, since) == expected(rows, since)

    later = log_rows(now, 200, seed=2)
    store.insert("ragpulse_scoring_log", later, LOG_COLUMNS)
    assert reported(store, since) == expected(rows + later, since)
    store.command(f"OPTIMIZE TABLE {store.table('ragpulse_scoring_outcome_hours')} FINAL")
    assert reported(store, since) == expected(rows + later, since)
    whole = now - timedelta(days=4)
    assert reported(store, whole) == expected(rows + later, whole)
