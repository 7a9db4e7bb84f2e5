"""Alert episodes in the ``ragpulse_alerts`` table (migrations 0004 and 0140).

One episode per alert series from firing to resolving. Each change inserts a newer version of the episode's
row (ReplacingMergeTree on UpdatedAt), so the current state survives restarts and every scorer process sees
it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from ragpulse_core.store import Store

from ragpulse_dashboards.alerts.rules import AlertKey, Baseline

FIRING: Final = "firing"
RESOLVED: Final = "resolved"

_COLUMNS: Final = (
    "AlertId",
    "Rule",
    "ServiceName",
    "Variant",
    "Scorer",
    "State",
    "FiredAt",
    "ResolvedAt",
    "UpdatedAt",
    "Value",
    "Lower",
    "Upper",
    "Samples",
    "Threshold",
    "Summary",
    "NotifyError",
    "JudgedBy",
    "BaselineRate",
    "BaselineSamples",
    "Cause",
)


@dataclass(frozen=True)
class AlertRecord:
    alert_id: str
    key: AlertKey
    state: str
    fired_at: datetime
    resolved_at: datetime | None
    updated_at: datetime
    value: float
    lower: float
    upper: float
    samples: int
    threshold: float
    summary: str
    notify_error: str = ""
    judged_by: str = ""
    """The judges whose verdicts the rate counted, where the key names no scorer (migration 0140)."""
    baseline: Baseline | None = None
    """A support drop's baseline when it fired (its lower bound is ``threshold``)."""
    cause: str = ""
    """Where the change sits, as :class:`~ragpulse_dashboards.rootcause.cause.Cause` JSON ("" if unknown)."""

    @property
    def scorer(self) -> str:
        """Who judged: the key's scorer, else the judges the rate counted."""
        return self.key.scorer or self.judged_by

    def row(self) -> list[Any]:
        return [
            self.alert_id,
            self.key.rule,
            self.key.service,
            self.key.variant,
            self.key.scorer,
            self.state,
            self.fired_at,
            self.resolved_at,
            self.updated_at,
            self.value,
            self.lower,
            self.upper,
            self.samples,
            self.threshold,
            self.summary,
            self.notify_error,
            self.judged_by,
            self.baseline.rate if self.baseline is not None else math.nan,
            self.baseline.samples if self.baseline is not None else 0,
            self.cause,
        ]

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> AlertRecord:
        return cls(
            alert_id=row["AlertId"],
            key=AlertKey(row["Rule"], row["ServiceName"], row["Variant"], row["Scorer"]),
            state=row["State"],
            fired_at=_utc(row["FiredAt"]),
            resolved_at=_utc(row["ResolvedAt"]) if row["ResolvedAt"] is not None else None,
            updated_at=_utc(row["UpdatedAt"]),
            value=float(row["Value"]),
            lower=float(row["Lower"]),
            upper=float(row["Upper"]),
            samples=int(row["Samples"]),
            threshold=float(row["Threshold"]),
            summary=row["Summary"],
            notify_error=row["NotifyError"],
            judged_by=row["JudgedBy"],
            baseline=_baseline(row),
            cause=row["Cause"],
        )


def _baseline(row: dict[str, Any]) -> Baseline | None:
    rate, samples = float(row["BaselineRate"]), int(row["BaselineSamples"])
    return Baseline(rate, float(row["Threshold"]), samples) if samples and math.isfinite(rate) else None


def _utc(value: datetime) -> datetime:
    # The driver hands back naive datetimes in UTC.
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def save(store: Store, records: list[AlertRecord]) -> None:
    store.insert("ragpulse_alerts", [record.row() for record in records], _COLUMNS)


def load_alerts(store: Store, *, include_resolved: bool = True, limit: int = 1000) -> list[AlertRecord]:
    """Current state of each episode, firing ones first, newest first."""
    where = "" if include_resolved else f"WHERE State = '{FIRING}'"
    rows = store.query_dicts(
        f"SELECT {', '.join(_COLUMNS)} FROM {store.table('ragpulse_alerts')} FINAL {where} "
        f"ORDER BY State = '{FIRING}' DESC, FiredAt DESC LIMIT {{limit:UInt32}}",
        {"limit": limit},
    )
    return [AlertRecord.from_row(row) for row in rows]


def count_resolved(store: Store) -> int:
    """Episodes that resolved (all of them, however many a listing shows)."""
    rows = store.query(
        f"SELECT countIf(State = {{resolved:String}}) FROM {store.table('ragpulse_alerts')} FINAL",
        {"resolved": RESOLVED},
    )
    return int(rows[0][0]) if rows else 0


def load_firing(store: Store) -> dict[AlertKey, AlertRecord]:
    return {record.key: record for record in load_alerts(store, include_resolved=False, limit=1_000_000)}
