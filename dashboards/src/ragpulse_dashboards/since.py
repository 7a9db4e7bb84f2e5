"""The ``--since`` window every reading command and the read API take: parsed without the report's imports,
so a mistake in it is said before a command loads what it reads with."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from ragpulse_core.times import utc_from_iso


def parse_since(text: str, now: float | None = None) -> datetime:
    """``24h``, ``90m``, ``7d``, ``30s`` (before now) or an ISO timestamp, as an aware UTC datetime."""
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    stripped = text.strip().lower()
    number = stripped[:-1].replace(".", "", 1)
    if stripped[-1:] in units and number.isascii() and number.isdigit():
        seconds = float(stripped[:-1]) * units[stripped[-1]]
        try:
            return datetime.fromtimestamp((time.time() if now is None else now) - seconds, UTC)
        except (OverflowError, ValueError, OSError):
            raise ValueError(f"--since {text[:40]!r} reaches before the year 1") from None
    try:
        return utc_from_iso(text.strip())
    except ValueError:
        raise ValueError(f"--since must look like 24h, 90m, 7d or an ISO timestamp, not {text!r}") from None
