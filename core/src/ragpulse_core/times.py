"""Times people type or files carry: ISO 8601, where a time without a zone is UTC."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_from_iso(text: str) -> datetime:
    """An aware datetime from ISO 8601 text; raises ValueError otherwise."""
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
