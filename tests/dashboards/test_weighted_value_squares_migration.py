"""0064 on a database the previous version made: every score it holds still counts once, every hour reads its
counts and sums as before, and the new Σw·v² is right for each hour, whether it holds weight-1 rows only (Σv²)
or directed ones (summed before the view carried it), also when the migration runs again after a crash; scores
written afterwards reach it through the view."""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from ragpulse_core.schema import available_migrations, migrate
from ragpulse_core.store import Store
from ragpulse_dashboards.report.queries import score_aggregates

VERSION = 64
COLUMNS = ["TraceId", "SpanId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer",
           "ScorerVersion", "Metric", "Value", "Error", "InclusionProbability"]  # fmt: skip
HOUR_KEYS = "Hour, Metric, Scorer, Variant"
OLD_SUMS = ("Scores", "Positives", "ValueSum", "ValueSquares", "NotBinary", "Weights", "WeightedPositives",
            "WeightedValueSum", "SquaredWeights", "SquaredWeightedPositives")  # fmt: skip


@pytest.fixture
def previous_store(chdb_dsn: str) -> Iterator[Store]:
    store = Store(chdb_dsn, f"prev_{uuid.uuid4().hex[:8]}")
    migrate(store, ttl_days=30, through=VERSION - 1)
    yield store
    store.command(f"DROP DATABASE IF EXISTS `{store.database}`", use_database=False)


def scorings(now: datetime, version: str = "1") -> list[list[Any]]:
    """A free judge on 30 requests over five hours (weight 1) and a directed LLM judge on them, each with
    the chance it had of being judged: low adherence scores certainly, high ones with p = 0.25."""
    rows: list[list[Any]] = []
    for index in range(30):
        at = now - timedelta(hours=index / 6, minutes=3)
        trace, span = uuid.uuid5(uuid.NAMESPACE_URL, f"r{index}").hex, f"{index:016x}"
        variant = "AB"[index % 2]
        scored = at + timedelta(seconds=30, hours=int(version) - 1)
        low = index % 3 != 0
        rows.append([trace, span, at, scored, "svc", "fusion", variant, "lexical", version, "support",
                     index % 7 / 7, "", 1.0])  # fmt: skip
        rows.append([trace, span, at, scored, "svc", "fusion", variant, "support", version, "adherence",
                     0.2 + index % 4 / 20 if low else 0.9, "", 1.0 if low else 0.25])  # fmt: skip
    return rows


def weighted_squares(rows: list[list[Any]]) -> dict[tuple[Any, ...], float]:
    """Σw·v² per hour of each (trace, span, scorer, metric)'s newest row."""
    newest: dict[tuple[Any, ...], list[Any]] = {}
    for row in rows:
        key = (row[0], row[1], row[7], row[9])
        if key not in newest or row[3] > newest[key][3]:
            newest[key] = row
    sums: dict[tuple[Any, ...], float] = defaultdict(float)
    for row in newest.values():
        hour = row[2].replace(minute=0, second=0, microsecond=0, tzinfo=None)
        sums[(hour, row[9], row[7], row[6])] += row[10] * row[10] / row[12]
    return {key: round(value, 9) for key, value in sums.items()}


def hours(store: Store, columns: tuple[str, ...]) -> dict[tuple[Any, ...], tuple[float, ...]]:
    sums = ", ".join(f"sum({column})" for column in columns)
    rows = store.query(
        f"SELECT {HOUR_KEYS}, {sums} FROM {store.table('ragpulse_score_hours')} GROUP BY {HOUR_KEYS}"
        " HAVING sum(Scores) != 0"
    )
    return {tuple(row[:4]): tuple(round(float(v), 9) for v in row[4:]) for row in rows}


def counted_values(store: Store) -> list[tuple[Any, ...]]:
    return sorted(
        store.query(
            "SELECT TraceKey, SpanId, Scorer, Metric, Value, Weight"
            f" FROM {store.table('ragpulse_score_values')}"
            " GROUP BY TraceKey, SpanId, Scorer, Metric, Value, Weight, ScoredAt HAVING sum(Sign) > 0"
        ),
        key=repr,
    )


def squares_read(store: Store) -> dict[tuple[Any, ...], float]:
    return {key: value[0] for key, value in hours(store, ("WeightedValueSquares",)).items()}


def test_hours_read_as_before_and_carry_the_weighted_squares(previous_store: Store) -> None:
    store = previous_store
    now = datetime.now(UTC).replace(microsecond=0)
    first = scorings(now)
    store.insert("ragpulse_scores", first, COLUMNS)
    values_before, hours_before = counted_values(store), hours(store, OLD_SUMS)
    scores_before = store.query(f"SELECT count() FROM {store.table('ragpulse_scores')}")[0][0]

    applied = migrate(store, ttl_days=30)

    assert [m.version for m in applied if m.version == VERSION] == [VERSION]
    assert store.query(f"SELECT count() FROM {store.table('ragpulse_scores')}")[0][0] == scores_before
    assert counted_values(store) == values_before
    assert hours(store, OLD_SUMS) == hours_before
    expected = weighted_squares(first)
    assert squares_read(store) == expected
    # The free judge's hours hold weight-1 rows only: Σw·v² is their Σv², as every hour before 0062.
    plain = hours(store, ("ValueSquares",))
    assert all(expected[key] == plain[key][0] for key in expected if key[2] == "lexical")
    assert any(expected[key] != plain[key][0] for key in expected if key[2] == "support")

    # A crash before the version was recorded: the migration runs again and adds nothing.
    (migration,) = (m for m in available_migrations() if m.version == VERSION)
    for statement in migration.statements(store.database, 30):
        store.command(statement)
    assert squares_read(store) == expected and hours(store, OLD_SUMS) == hours_before

    # Scores written after the upgrade (a re-score of every request) reach the hours through the view.
    again = scorings(now, version="2")
    store.insert("ragpulse_scores", again, COLUMNS)
    assert squares_read(store) == weighted_squares(first + again)
    store.command(f"OPTIMIZE TABLE {store.table('ragpulse_score_hours')} FINAL")
    assert squares_read(store) == weighted_squares(first + again)


def test_the_report_over_hours_of_weight_one_reads_the_plain_mean_and_variance(previous_store: Store) -> None:
    store = previous_store
    now = datetime.now(UTC).replace(microsecond=0)
    rows = scorings(now)
    store.insert("ragpulse_scores", rows, COLUMNS)
    migrate(store, ttl_days=30)
    since = int((now - timedelta(days=3)).timestamp() * 1000)
    lexical = {
        row["Variant"]: row
        for row in score_aggregates(store, {"since_ms": since, "service": ""})
        if row["Scorer"] == "lexical"
    }
    for variant in "AB":
        values = [row[10] for row in rows if row[7] == "lexical" and row[6] == variant]
        mean = sum(values) / len(values)
        assert lexical[variant]["mean"] == pytest.approx(mean, abs=1e-12)
        variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
        assert lexical[variant]["variance"] == pytest.approx(variance, abs=1e-12)
        assert lexical[variant]["effective_n"] == len(values)
