"""Versioned, idempotent schema migrations, contributed by every installed part.

Each part names a package of ``NNNN_name.sql`` files in the ``ragpulse.migrations`` entry-point group (the
collector its span tables, the scorers theirs). Versions form one sequence across parts, so a part's migration
may rely on another part's lower versions (the requests view reads the span table). Statements are separated
by ``;`` at a line end and use ``${db}`` and ``${ttl_days}`` placeholders. Applied versions are recorded in
``ragpulse_schema_migrations``, and every statement is ``IF NOT EXISTS``-safe, so running ``migrate`` twice,
or from two processes, changes nothing. A migration that moves rows into a table with a new layout copies them
into a new table and swaps the two (``EXCHANGE TABLES``), each step safe to run again after a crash; run it
from one process while no writer runs.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from importlib import resources
from importlib.metadata import entry_points
from string import Template
from typing import TYPE_CHECKING

from ragpulse_core.cluster import cluster_statements

if TYPE_CHECKING:
    from ragpulse_core.store import Store

logger = logging.getLogger(__name__)

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_STATEMENT_END = re.compile(r";\s*$", re.MULTILINE)
MIGRATIONS_GROUP = "ragpulse.migrations"
MIGRATION_ROW_TYPES = {"Version": "UInt32", "Name": "String"}


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str
    part: str = ""

    def statements(self, database: str, ttl_days: int, cluster: str | None = None) -> list[str]:
        """The statements to run, for one node or, rewritten, for ``cluster`` (see ragpulse_core.cluster)."""
        rendered = Template(self.sql).substitute(db=f"`{database}`", ttl_days=int(ttl_days))
        single = [s.strip() for s in _STATEMENT_END.split(rendered) if _strip_comments(s).strip()]
        return _for(single, cluster)


def _for(statements: list[str], cluster: str | None) -> list[str]:
    if cluster is None:
        return statements
    return [clustered for statement in statements for clustered in cluster_statements(statement, cluster)]


def _strip_comments(sql: str) -> str:
    return "\n".join(line for line in sql.splitlines() if not line.lstrip().startswith("--"))


def available_migrations() -> list[Migration]:
    """Every installed part's migrations, in version order."""
    found = [
        migration
        for entry_point in entry_points(group=MIGRATIONS_GROUP)
        for migration in migrations_in(entry_point.value, part=entry_point.name)
    ]
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if len(versions) != len(set(versions)):
        clashes = sorted(f"{m.version:04d} ({m.part})" for m in found if versions.count(m.version) > 1)
        raise RuntimeError(f"two parts claim the same migration version: {', '.join(clashes)}")
    return found


def migrations_in(package: str, *, part: str = "") -> list[Migration]:
    """The ``NNNN_name.sql`` files of one package."""
    found = []
    for entry in resources.files(package).iterdir():
        match = _FILE_NAME.match(entry.name)
        if match:
            text = entry.read_text(encoding="utf-8")
            found.append(Migration(int(match.group(1)), match.group(2), text, part))
    return found


def applied_versions(store: Store) -> set[int]:
    rows = store.query(f"SELECT Version FROM {store.table('ragpulse_schema_migrations')}")
    return {int(row[0]) for row in rows}


def _bookkeeping(database: str) -> list[str]:
    return [
        f"CREATE DATABASE IF NOT EXISTS `{database}`",
        f"CREATE TABLE IF NOT EXISTS `{database}`.`ragpulse_schema_migrations` "
        "(Version UInt32, Name String, AppliedAt DateTime64(6) DEFAULT now64(6)) "
        "ENGINE = ReplacingMergeTree(AppliedAt) ORDER BY Version",
    ]


def planned_statements(database: str, ttl_days: int, cluster: str | None = None) -> list[tuple[str, str]]:
    """Every statement ``migrate`` would run on an empty database, each with what it belongs to."""
    plan = [("schema bookkeeping", statement) for statement in _for(_bookkeeping(database), cluster)]
    for migration in available_migrations():
        label = f"{migration.version:04d}_{migration.name} ({migration.part})"
        plan += [(label, statement) for statement in migration.statements(database, ttl_days, cluster)]
    return plan


def migrate(
    store: Store, ttl_days: int, *, through: int | None = None, cluster: str | None = None
) -> list[Migration]:
    """Bring the schema up to date (or up to version ``through``); returns the migrations applied now.

    With ``cluster``, every table is created Replicated on each node of that ClickHouse cluster with a
    Distributed table of the same name over it.
    """
    create_database, *create_log = _for(_bookkeeping(store.database), cluster)
    store.command(create_database, use_database=False)
    for statement in create_log:
        store.command(statement)
    done = applied_versions(store)
    applied = []
    for migration in available_migrations():
        if migration.version in done or (through is not None and migration.version > through):
            continue
        logger.debug("applying migration %04d_%s", migration.version, migration.name)
        for statement in migration.statements(store.database, ttl_days, cluster):
            store.command(statement)
        # Typed columns: no DESCRIBE round trip per migration (a fresh database applies them all).
        store.insert_columns(
            "ragpulse_schema_migrations", [[migration.version], [migration.name]], MIGRATION_ROW_TYPES
        )
        applied.append(migration)
    if applied:
        # One line, not one per migration: a first run applies them all.
        logger.info(
            "schema migrated to %04d (%d migration%s applied)",
            applied[-1].version, len(applied), "" if len(applied) == 1 else "s",
        )  # fmt: skip
    return applied
