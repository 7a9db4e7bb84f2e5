"""What ``ragpulse migrate`` does, kept out of the command module so ``--help`` stays light."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragpulse_core.schema import migrate, planned_statements
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store, StoreUnavailable, describe_dsn, embedded_path

console = Console()


def settings_from_flags(args: argparse.Namespace, **sections: object) -> RagpulseSettings:
    """Settings with the shared store flags (and any ``sections`` of flags) over the other sources."""
    store = {"dsn": args.dsn, "database": args.database, "ttl_days": getattr(args, "ttl_days", None)}
    return RagpulseSettings.load(args.config, store=store, **sections)


def migrate_and_show(settings: RagpulseSettings, store: Store, cluster: str | None = None) -> None:
    """Apply pending migrations and print what was applied; raises StoreUnavailable."""
    applied = migrate(store, settings.store.ttl_days, cluster=cluster)
    where = f"{describe_dsn(store.dsn)} (database {store.database})"
    if not applied:
        console.print(f"schema up to date on {where}")
        return
    table = Table(title=f"migrations applied on {where}")
    table.add_column("version", justify="right")
    table.add_column("part")
    table.add_column("name")
    for migration in applied:
        table.add_row(f"{migration.version:04d}", migration.part, migration.name)
    console.print(table)


def print_plan(settings: RagpulseSettings, cluster: str | None) -> None:
    """Every statement a migration of an empty database runs, as SQL a person can paste into a client."""
    current = ""
    for label, statement in planned_statements(settings.store.database, settings.store.ttl_days, cluster):
        if label != current:
            console.out(f"-- {label}", highlight=False)
            current = label
        console.out(f"{statement};\n", highlight=False)


def run(args: argparse.Namespace) -> int:
    settings = settings_from_flags(args)
    cluster = getattr(args, "cluster", None)
    if getattr(args, "dry_run", False):
        print_plan(settings, cluster)
        return 0
    if cluster and embedded_path(settings.store.dsn) is not None:
        raise ValueError("--cluster needs a ClickHouse server DSN: pass --dsn http(s)://user:pass@host:8123")
    store = Store(settings.store.dsn, settings.store.database)
    try:
        migrate_and_show(settings, store, cluster)
    except StoreUnavailable as exc:
        console.print(f"[red]migrate failed:[/red] {escape(str(exc))}", soft_wrap=True, highlight=False)
        return 1
    finally:
        store.close()
    return 0
