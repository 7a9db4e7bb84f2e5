"""The single-node migration SQL, rewritten for a ClickHouse cluster.

Every table ``t`` becomes ``t_local``, a Replicated engine created ``ON CLUSTER`` on every node, and ``t``, a
Distributed table over it that every reader and writer uses unchanged. Materialized views run on each node and
read and write the local tables (an insert through a Distributed table lands on one shard's ``*_local``, which
fires that shard's views). Data moves between tables go through the Distributed tables, synchronously.
The migrations are written once, for one node; this rewrite is the only cluster knowledge, and it refuses any
statement it does not know how to spread, so a new kind of statement cannot slip through half-clustered.
"""

from __future__ import annotations

import re

LOCAL_SUFFIX = "_local"
# Rows that ReplacingMergeTree must see together (one trace's scores, one alert's versions) go to one shard.
# A table that names its trace by TraceKey alone (cityHash64(TraceId), stored) is sharded by it as is, so its
# rows land on their trace's shard, beside the scores whose view wrote them.
_SHARDING = (
    ("TraceId", "cityHash64(TraceId)"),
    ("TraceKey", "TraceKey"),
    ("AlertId", "cityHash64(AlertId)"),
    ("Key", "cityHash64(Key)"),
    ("Version", "cityHash64(Version)"),
)
_NAME = r"(`[^`]+`)\.`?(\w+)`?"
_CREATE_DATABASE = re.compile(r"^CREATE DATABASE IF NOT EXISTS (`[^`]+`)$")
_CREATE_TABLE = re.compile(
    rf"^CREATE TABLE (IF NOT EXISTS )?{_NAME}\s*\((?P<columns>.*)\)\s*ENGINE\s*=\s*(?P<engine>\w*MergeTree)"
    r"\((?P<arguments>[^)]*)\)(?P<rest>.*)$",
    re.DOTALL,
)
_CREATE_VIEW = re.compile(
    rf"^CREATE MATERIALIZED VIEW (IF NOT EXISTS )?{_NAME}\s+TO\s+{_NAME}\s+AS\s+(.*)$", re.DOTALL
)
_INSERT_SELECT = re.compile(rf"^INSERT INTO {_NAME}\s.*\bSELECT\b", re.DOTALL)
_EXCHANGE = re.compile(rf"^EXCHANGE TABLES {_NAME} AND {_NAME}$")
_DROP_TABLE = re.compile(rf"^DROP TABLE (IF EXISTS )?{_NAME}$")
_DROP_VIEW = re.compile(rf"^DROP VIEW (IF EXISTS )?{_NAME}$")
_ALTER_TABLE = re.compile(rf"^ALTER TABLE {_NAME}\s+(.*)$", re.DOTALL)
_COLUMN_CHANGE = re.compile(r"^(ADD|DROP|MODIFY|RENAME|COMMENT) COLUMN\b", re.IGNORECASE)
_KEY_CHANGE = re.compile(r",\s*MODIFY ORDER BY\b.*$", re.IGNORECASE | re.DOTALL)


class ClusterRewriteError(ValueError):
    """A migration statement this module cannot spread over a cluster."""


def cluster_statements(statement: str, cluster: str) -> list[str]:
    """The statements that do on ``cluster`` what ``statement`` does on one node."""
    on = f"ON CLUSTER `{cluster}`"
    sql = "\n".join(line for line in statement.splitlines() if not line.lstrip().startswith("--")).strip()
    if match := _CREATE_DATABASE.match(sql):
        return [f"CREATE DATABASE IF NOT EXISTS {match.group(1)} {on}"]
    if match := _CREATE_TABLE.match(sql):
        return _replicated_and_distributed(match, cluster, on)
    if match := _CREATE_VIEW.match(sql):
        exists, db, view, target_db, target, select = match.groups()
        # A view reads the insert block of its node's local source table and writes the local target.
        local_select = re.sub(rf"{re.escape(db)}\.`?(\w+)`?", rf"{db}.\1{LOCAL_SUFFIX}", select)
        return [
            f"CREATE MATERIALIZED VIEW {exists or ''}{db}.{view} {on}\n"
            f"TO {target_db}.{target}{LOCAL_SUFFIX}\nAS {local_select}"
        ]
    if _INSERT_SELECT.match(sql):
        # Through the Distributed tables, written before the statement returns; a subquery over a
        # Distributed table is read once, on this node, and sent to the shards (GLOBAL IN).
        return [f"{sql}\nSETTINGS insert_distributed_sync = 1, distributed_product_mode = 'global'"]
    if match := _EXCHANGE.match(sql):
        db_a, a, db_b, b = match.groups()
        return [f"EXCHANGE TABLES {db_a}.{a}{LOCAL_SUFFIX} AND {db_b}.{b}{LOCAL_SUFFIX} {on}"]
    if match := _DROP_TABLE.match(sql):
        exists, db, name = match.groups()
        return [
            f"DROP TABLE {exists or ''}{db}.{name} {on} SYNC",
            f"DROP TABLE {exists or ''}{db}.{name}{LOCAL_SUFFIX} {on} SYNC",
        ]
    if match := _DROP_VIEW.match(sql):
        exists, db, name = match.groups()
        return [f"DROP VIEW {exists or ''}{db}.{name} {on} SYNC"]
    if match := _ALTER_TABLE.match(sql):
        db, name, change = match.groups()
        local = f"ALTER TABLE {db}.{name}{LOCAL_SUFFIX} {on} {change}"
        if not _COLUMN_CHANGE.match(change):
            return [local]
        # A Distributed table carries the columns too; settings, TTL and keys are the local table's alone
        # (a column added to the key comes with the key change in one ALTER, which the Distributed one drops).
        return [local, f"ALTER TABLE {db}.{name} {on} {_KEY_CHANGE.sub('', change)}"]
    raise ClusterRewriteError(f"no cluster form for this migration statement: {sql[:120]}")


def _replicated_and_distributed(match: re.Match[str], cluster: str, on: str) -> list[str]:
    exists, db, name = match.group(1) or "", match.group(2), match.group(3)
    local = f"{name}{LOCAL_SUFFIX}"
    zookeeper_path = f"'/clickhouse/tables/{{shard}}/{db.strip('`')}/{local}'"
    arguments = ", ".join(
        part for part in (zookeeper_path, "'{replica}'", match.group("arguments").strip()) if part
    )
    columns = match.group("columns")
    sharding = next(
        (expression for column, expression in _SHARDING if re.search(rf"^\s*{column}\s", columns, re.M)),
        "rand()",
    )
    return [
        f"CREATE TABLE {exists}{db}.{local} {on} ({columns})\n"
        f"ENGINE = Replicated{match.group('engine')}({arguments}){match.group('rest')}",
        f"CREATE TABLE {exists}{db}.{name} {on} AS {db}.{local}\n"
        f"ENGINE = Distributed(`{cluster}`, {db}, {local}, {sharding})",
    ]
