"""Opening the configured store for a command, with a plain message when it cannot be opened."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from ragpulse_core.cli import invoked_as, print_error, store_hint
from ragpulse_core.schema import applied_versions, available_migrations, migrate
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store, StoreMissing, StoreUnavailable, describe_dsn


def open_migrated_store(settings: RagpulseSettings) -> Store | None:
    """The configured store with its tables migrated, or None after telling the user it cannot be reached.

    The caller closes the store it gets.
    """
    store = Store(settings.store.dsn, settings.store.database)
    try:
        migrate(store, settings.store.ttl_days)
    except StoreUnavailable as exc:
        store.close()
        print_error(str(exc), hint=store_hint(exc))
        return None
    return store


def open_for_reading(settings: RagpulseSettings, console: Console) -> Store | None:
    """The configured store, read-only (an embedded path that does not exist is reported, not created), or
    None after telling the user why it cannot be opened (held by ``ragpulse serve``, or nothing there yet)."""
    try:
        store = Store(settings.store.dsn, settings.store.database, read_only=True)
    except StoreUnavailable as exc:
        program = invoked_as()
        missing = isinstance(exc, StoreMissing)
        hint = f" Run `{program} serve` or `{program} demo` first, or pass --dsn." if missing else ""
        console.print(f"[red]error:[/red] {escape(str(exc))}.{hint}", soft_wrap=True)
        return None
    behind = _schema_behind(store)
    if behind:
        store.close()
        console.print(f"[red]error:[/red] {escape(behind)}", soft_wrap=True)
        return None
    return store


def _schema_behind(store: Store) -> str:
    """Why the tables are older than this version reads (a database from before an upgrade: reading it could
    only fail on a missing column), or "" when they are up to date or their state cannot be told here (no
    tables at all is then said by the query that needs them)."""
    try:
        applied = applied_versions(store)
    except StoreUnavailable:
        return ""
    pending = [migration for migration in available_migrations() if migration.version not in applied]
    if not pending:
        return ""
    newest = max(applied, default=0)
    return (
        f"the ragpulse tables at {describe_dsn(store.dsn)} are at schema {newest:04d}; this version reads"
        f" {pending[-1].version:04d}: run `{invoked_as()} migrate` (or `serve`, which migrates) first"
    )
