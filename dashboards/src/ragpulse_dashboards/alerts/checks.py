"""What each alert evaluation saw (``ragpulse_alert_checks``, migration 0055): read by reports to say the
real reason a rate shown above the threshold has no alert."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Final

from ragpulse_core.store import Store

from ragpulse_dashboards.alerts.rules import AlertKey, Observation

_TABLE: Final = "ragpulse_alert_checks"
_COLUMNS: Final = (
    "CheckedAt", "Rule", "ServiceName", "Variant", "Scorer", "Value", "Lower", "Upper", "Samples",
    "Threshold", "Fire", "IntervalS",
)  # fmt: skip
# The row that marks an evaluation, whatever it observed.
_EVALUATION = AlertKey("", "")


@dataclass(frozen=True)
class Checked:
    """One series as the evaluation at ``checked_at`` saw it."""

    checked_at: datetime
    value: float
    lower: float
    upper: float
    samples: int
    threshold: float
    fire: bool


@dataclass(frozen=True)
class AlertChecks:
    """The last evaluation's time and interval, and each series' newest observation."""

    last_at: datetime | None = None
    interval_s: float = 0.0
    observed: dict[AlertKey, Checked] = field(default_factory=dict)

    def latest(self, key: AlertKey) -> Checked | None:
        """``key`` as the last evaluation saw it; None when that evaluation had no data for it."""
        seen = self.observed.get(key)
        if seen is None or self.last_at is None or seen.checked_at < self.last_at:
            return None
        return seen


def save_checks(store: Store, now: datetime, observations: list[Observation], interval_s: float) -> None:
    rows = [[now, *_labels(_EVALUATION), 0.0, 0.0, 0.0, 0, 0.0, False, interval_s]]
    rows += [
        [now, *_labels(seen.key), seen.value, seen.lower, seen.upper, seen.samples, seen.threshold, seen.fire,
         interval_s]
        for seen in observations
    ]  # fmt: skip
    store.insert(_TABLE, rows, _COLUMNS)


def load_checks(store: Store, service: str | None) -> AlertChecks:
    """The newest check of every series (of ``service`` when given); empty before any evaluation, or on a
    store migrated before the table existed."""
    if not store.query(f"EXISTS TABLE {store.table(_TABLE)}")[0][0]:
        return AlertChecks()
    rows = store.query_dicts(
        f"SELECT {', '.join(_COLUMNS)} FROM {store.table(_TABLE)} FINAL"
        " WHERE Rule = '' OR {service:String} = '' OR ServiceName = {service:String}",
        {"service": service or ""},
    )
    checks = AlertChecks()
    observed: dict[AlertKey, Checked] = {}
    for row in rows:
        key = AlertKey(row["Rule"], row["ServiceName"], row["Variant"], row["Scorer"])
        checked_at = _utc(row["CheckedAt"])
        if key == _EVALUATION:
            checks = AlertChecks(checked_at, float(row["IntervalS"]))
            continue
        observed[key] = Checked(
            checked_at, float(row["Value"]), float(row["Lower"]), float(row["Upper"]), int(row["Samples"]),
            float(row["Threshold"]), bool(row["Fire"]),
        )  # fmt: skip
    return AlertChecks(checks.last_at, checks.interval_s, observed)


def _labels(key: AlertKey) -> list[str]:
    return [key.rule, key.service, key.variant, key.scorer]


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
