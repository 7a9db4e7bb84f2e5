"""``ragpulse migrate --cluster NAME``: the single-node migrations rewritten into Replicated tables ON CLUSTER
with Distributed tables over them. chDB has no cluster and no ZooKeeper, so the DDL is checked by ClickHouse's
own parser (``formatQuery``) and by what it names; the single-node SQL is what runs everywhere else."""

from __future__ import annotations

import re

import pytest
from ragpulse_core.cli import main
from ragpulse_core.cluster import ClusterRewriteError, cluster_statements
from ragpulse_core.schema import available_migrations, planned_statements
from ragpulse_core.store import Store

CLUSTER = "prod"


def dry_run(capsys: pytest.CaptureFixture[str], *flags: str) -> list[str]:
    assert main(["migrate", "--dry-run", *flags]) == 0
    text = capsys.readouterr().out
    statements = [s.strip() for s in re.split(r";\n", text)]
    return [s for s in statements if body(s)]


def body(statement: str) -> str:
    return "\n".join(line for line in statement.splitlines() if not line.startswith("--")).strip()


def test_cluster_dry_run_parses_and_names_replicated_and_distributed_tables(
    capsys: pytest.CaptureFixture[str], migrated_store: Store
) -> None:
    statements = [body(s) for s in dry_run(capsys, "--cluster", CLUSTER)]
    for statement in statements:
        (formatted,) = migrated_store.query("SELECT formatQuery({q:String})", {"q": statement})[0]
        assert formatted, statement
    tables = [s for s in statements if s.startswith("CREATE TABLE")]
    local = {re.search(r"`ragpulse`\.(\w+)_local ON CLUSTER", s).group(1) for s in tables if "_local ON" in s}
    distributed = {
        re.search(r"`ragpulse`\.(\w+) ON CLUSTER", s).group(1) for s in tables if "ENGINE = Distributed" in s
    }
    assert {"otel_traces", "ragpulse_requests", "ragpulse_scores", "ragpulse_step_latency"} <= local
    assert local == distributed  # every replicated table has its Distributed table of the plain name
    for statement in tables:
        assert f"ON CLUSTER `{CLUSTER}`" in statement
        engine = re.search(r"ENGINE = (\w+)", statement).group(1)
        assert engine.startswith("Replicated") or engine == "Distributed", statement
    scores = next(s for s in tables if "ragpulse_scores_local ON" in s and "ReplacingMergeTree" in s)
    assert (
        "ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragpulse/ragpulse_scores_local',"
        " '{replica}', ScoredAt)" in scores
    )
    assert any(
        "Distributed(`prod`, `ragpulse`, ragpulse_scores_local, cityHash64(TraceId))" in s for s in tables
    )
    # Score values carry the trace as TraceKey = cityHash64(TraceId): the same shard as their scores, where
    # the view that takes back a re-scored request's values reads them.
    assert any("Distributed(`prod`, `ragpulse`, ragpulse_score_values_local, TraceKey)" in s for s in tables)


def test_cluster_views_read_and_write_the_local_tables(capsys: pytest.CaptureFixture[str]) -> None:
    views = [body(s) for s in dry_run(capsys, "--cluster", CLUSTER) if "MATERIALIZED VIEW" in s]
    names = {re.search(r"VIEW IF NOT EXISTS `ragpulse`\.(\w+) ON", view).group(1) for view in views}
    assert names == {
        "otel_traces_trace_id_ts_mv",
        "ragpulse_requests_mv",
        "ragpulse_step_latency_mv",
        "ragpulse_step_latency_hours_mv",
        "ragpulse_trace_verdicts_mv",
        "ragpulse_score_values_mv",
        "ragpulse_score_hours_mv",
        "ragpulse_judgment_minutes_mv",
        "ragpulse_scoring_lag_hours_mv",
        "ragpulse_scored_request_hours_mv",
        "ragpulse_unscored_requests_mv",
        "ragpulse_request_verdicts_mv",
        "ragpulse_scoring_outcome_hours_mv",
        "ragpulse_step_latency_digests_mv",
        "ragpulse_judge_pairs_mv",
        "ragpulse_worst_verdicts_mv",
        "ragpulse_counted_verdicts_mv",
        "ragpulse_slice_hours_mv",
        "ragpulse_slice_days_mv",
        "ragpulse_session_days_mv",
    }
    for view in views:
        assert re.search(r"\nTO `ragpulse`\.\w+_local\n", view), view
        sources = re.findall(r"FROM `ragpulse`\.(\w+)", view)
        assert sources and all(name.endswith("_local") for name in sources), view


def test_cluster_data_moves_go_through_distributed_tables_synchronously(
    capsys: pytest.CaptureFixture[str],
) -> None:
    statements = [body(s) for s in dry_run(capsys, "--cluster", CLUSTER)]
    inserts = [s for s in statements if s.startswith("INSERT")]
    assert inserts and all("insert_distributed_sync = 1" in s for s in inserts)
    exchanges = [s for s in statements if s.startswith("EXCHANGE")]
    assert [s.rsplit(" AND ", 1)[1] for s in exchanges] == [
        f"`ragpulse`.ragpulse_scores_0010_local ON CLUSTER `{CLUSTER}`",
        f"`ragpulse`.ragpulse_requests_0024_local ON CLUSTER `{CLUSTER}`",
        f"`ragpulse`.ragpulse_requests_0035_local ON CLUSTER `{CLUSTER}`",
        f"`ragpulse`.ragpulse_scores_0035_local ON CLUSTER `{CLUSTER}`",
        f"`ragpulse`.ragpulse_trace_verdicts_0035_local ON CLUSTER `{CLUSTER}`",
        f"`ragpulse`.ragpulse_unscored_requests_0071_local ON CLUSTER `{CLUSTER}`",
    ]


def test_single_node_dry_run_is_the_migrations_sql(capsys: pytest.CaptureFixture[str]) -> None:
    printed = [body(s) for s in dry_run(capsys)]
    expected = [body(s) for _, s in planned_statements("ragpulse", 30)]
    assert printed == expected
    assert not any("ON CLUSTER" in s or "Replicated" in s for s in printed)
    per_migration = [body(s) for m in available_migrations() for s in m.statements("ragpulse", 30)]
    assert expected[2:] == per_migration


def test_a_statement_without_a_cluster_form_is_refused() -> None:
    with pytest.raises(ClusterRewriteError, match="no cluster form"):
        cluster_statements("OPTIMIZE TABLE `ragpulse`.ragpulse_scores FINAL", CLUSTER)


def test_alter_column_reaches_the_distributed_table_too() -> None:
    local, distributed = cluster_statements(
        "ALTER TABLE `ragpulse`.ragpulse_requests ADD COLUMN IF NOT EXISTS Source LowCardinality(String)",
        CLUSTER,
    )
    assert local.startswith("ALTER TABLE `ragpulse`.ragpulse_requests_local ON CLUSTER `prod` ADD COLUMN")
    assert distributed.startswith("ALTER TABLE `ragpulse`.ragpulse_requests ON CLUSTER `prod` ADD COLUMN")


def test_cluster_needs_a_server(capsys: pytest.CaptureFixture[str], chdb_dsn: str) -> None:
    assert main(["migrate", "--dsn", chdb_dsn, "--cluster", CLUSTER]) == 2
    assert "needs a ClickHouse server" in capsys.readouterr().err


def test_a_column_added_to_a_sorting_key_leaves_the_key_to_the_local_table() -> None:
    local, distributed = cluster_statements(
        "ALTER TABLE `ragpulse`.ragpulse_scores ADD COLUMN IF NOT EXISTS SpanId String AFTER TraceId,\n"
        "    MODIFY ORDER BY (TraceId, SpanId)",
        CLUSTER,
    )
    assert local.endswith("MODIFY ORDER BY (TraceId, SpanId)")
    assert distributed == (
        "ALTER TABLE `ragpulse`.ragpulse_scores ON CLUSTER `prod`"
        " ADD COLUMN IF NOT EXISTS SpanId String AFTER TraceId"
    )


def test_a_view_is_dropped_on_every_node() -> None:
    (drop,) = cluster_statements("DROP VIEW IF EXISTS `ragpulse`.ragpulse_trace_verdicts_mv", CLUSTER)
    assert drop == "DROP VIEW IF EXISTS `ragpulse`.ragpulse_trace_verdicts_mv ON CLUSTER `prod` SYNC"
