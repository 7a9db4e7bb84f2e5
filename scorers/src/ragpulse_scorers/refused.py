"""The ``ragpulse_refused`` table (migration 0080): items from outside that were refused, one row per (kind,
item), so each is logged once across ticks and restarts, quarantined feedback stays readable, and the report
counts refusals per kind beside the scoring outcomes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Final

from ragpulse_core.store import Store
from ragpulse_core.untrusted import Refusal

TABLE: Final = "ragpulse_refused"
COLUMNS: Final = ("RefusedAt", "Kind", "Item", "ServiceName", "Reason", "Detail")
DETAIL_CHARS: Final = 4_000
"""What is kept of an item's own words (a quarantined comment is capped like any comment)."""
REASON_CHARS: Final = 500
KNOWN_READ: Final = 100_000
"""Refused items read back at start-up, newest first (what :class:`Refusals` remembers at most)."""


def record(store: Store, refusals: Sequence[Refusal], at: datetime | None = None) -> int:
    """Write one row per refusal; returns how many. Nothing is written for none."""
    if not refusals:
        return 0
    moment = (at or datetime.now(UTC)).astimezone(UTC).replace(tzinfo=None)
    rows: list[list[Any]] = [
        [moment, r.kind, r.item, r.service, r.reason[:REASON_CHARS], r.detail[:DETAIL_CHARS]]
        for r in refusals
    ]
    store.insert(store.table(TABLE), rows, COLUMNS)
    return len(rows)


def known(store: Store, since: datetime) -> list[tuple[str, str]]:
    """(kind, item) of the refusals recorded since ``since``: already logged, not to be logged again."""
    rows = store.query(
        f"SELECT Kind, Item FROM {store.table(TABLE)} WHERE RefusedAt >= {{since:DateTime64(6)}}"
        " ORDER BY RefusedAt DESC LIMIT {limit:UInt32}",
        {"since": since.astimezone(UTC).replace(tzinfo=None), "limit": KNOWN_READ},
    )
    return [(str(kind), str(item)) for kind, item in rows]


def counts(store: Store, since: datetime, service: str | None = None) -> dict[str, int]:
    """Refused items per kind recorded since ``since`` (of ``service`` when given); {} on a store migrated
    before the table existed."""
    if not store.query(f"EXISTS TABLE {store.table(TABLE)}")[0][0]:
        return {}
    rows = store.query(
        f"SELECT Kind, uniqExact(Item) FROM {store.table(TABLE)}"
        " WHERE RefusedAt >= {since:DateTime64(6)}"
        " AND ({service:String} = '' OR ServiceName = {service:String})"
        " GROUP BY Kind ORDER BY Kind",
        {"since": since.astimezone(UTC).replace(tzinfo=None), "service": service or ""},
    )
    return {str(kind): int(n) for kind, n in rows}


FEEDBACK: Final = "feedback"
"""Kind of a feedback span that cannot be used (no score, no request to name)."""
QUARANTINED_FEEDBACK: Final = "quarantined feedback"
"""Kind of feedback sent by another service than its request's: kept here, never a label."""
