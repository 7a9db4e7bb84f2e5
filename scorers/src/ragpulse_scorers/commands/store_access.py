"""Opening the configured store for a command that writes to it, with a plain message when it is down."""

from __future__ import annotations

from ragpulse_core.cli import print_error, store_hint
from ragpulse_core.schema import migrate
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store, StoreUnavailable


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
