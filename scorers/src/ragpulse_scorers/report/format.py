"""Number formatting shared by the terminal and HTML renderers, so both say the same thing."""

from __future__ import annotations

import math
from datetime import UTC, datetime

from ragpulse_scorers.alerts.rules import SCORING_STALLED
from ragpulse_scorers.alerts.state import AlertRecord
from ragpulse_scorers.report.model import Rate


def percent(value: float | None, digits: int = 1) -> str:
    return "–" if value is None or math.isnan(value) else f"{100 * value:.{digits}f}%"


def rate_with_interval(rate: Rate) -> str:
    if not rate.n:
        return "–"
    low, high = rate.interval
    return f"{percent(rate.value)} [{percent(low)}, {percent(high)}]"


def number(value: float | None, digits: int = 2) -> str:
    return "–" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def milliseconds(value: float) -> str:
    return f"{value:.1f} ms" if value < 1000 else f"{value / 1000:.2f} s"


def seconds(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.1f} s" if value < 120 else f"{value / 60:.1f} min"


def dollars(value: float) -> str:
    return f"${value:.4f}" if value < 1 else f"${value:,.2f}"


def clock(epoch_s: int, with_date: bool = False) -> str:
    moment = datetime.fromtimestamp(epoch_s, UTC)
    return moment.strftime("%m-%d %H:%M" if with_date else "%H:%M:%S")


def excerpt(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def alert_key(alert: AlertRecord) -> str:
    """rule / service / variant (/ scorer), leaving out labels the rule is not evaluated per."""
    key = alert.key
    return " / ".join(part for part in (key.rule, key.service, key.variant, key.scorer) if part)


def alert_value(alert: AlertRecord) -> str:
    if alert.key.rule == SCORING_STALLED:
        return f"{alert.value:.0f} scores / {alert.samples} requests"
    return f"{percent(alert.value)} [{percent(alert.lower)}, {percent(alert.upper)}] n={alert.samples}"


def alert_since(alert: AlertRecord) -> str:
    fired = f"{alert.fired_at:%m-%d %H:%M:%S}"
    return fired if alert.resolved_at is None else f"{fired} → {alert.resolved_at:%m-%d %H:%M:%S}"
