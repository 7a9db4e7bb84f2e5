"""The services that sent requests: what a service selector offers and a ``--service`` flag is checked
against."""

from __future__ import annotations

from datetime import datetime

from ragpulse_core.store import Store


def services_since(store: Store, since: datetime) -> list[str]:
    """The services with requests at or after ``since``, by name."""
    rows = store.query(
        f"SELECT DISTINCT ServiceName FROM {store.table('ragpulse_requests')}"
        " WHERE Timestamp >= {since:DateTime64(6)} ORDER BY ServiceName",
        {"since": since},
    )
    return [str(row[0]) for row in rows]
