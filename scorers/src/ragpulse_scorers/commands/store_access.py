"""Opening the configured store for a command, with a plain message when it cannot be opened."""

from __future__ import annotations

from ragpulse_core.schema import migrate
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store, StoreMissing, StoreUnavailable, describe_dsn
from rich.console import Console
from rich.markup import escape


def open_migrated_store(settings: RagpulseSettings, console: Console) -> Store | None:
    """The configured store with its tables migrated, or None after telling the user it cannot be reached.

    The caller closes the store it gets.
    """
    store = Store(settings.store.dsn, settings.store.database)
    try:
        migrate(store, settings.store.ttl_days)
    except StoreUnavailable as exc:
        store.close()
        console.print(f"[red]cannot reach the store {describe_dsn(settings.store.dsn)}:[/red] {exc}")
        return None
    return store


def open_for_reading(settings: RagpulseSettings, console: Console) -> Store | None:
    """The configured store, read-only (an embedded path that does not exist is reported, not created), or
    None after telling the user why it cannot be opened (held by ``ragpulse serve``, or nothing there yet)."""
    try:
        return Store(settings.store.dsn, settings.store.database, read_only=True)
    except StoreUnavailable as exc:
        missing = isinstance(exc, StoreMissing)
        hint = " Run `ragpulse serve` or `ragpulse demo` first, or pass --dsn." if missing else ""
        console.print(f"[red]error:[/red] {escape(str(exc))}.{hint}", soft_wrap=True)
        return None
