"""One row per service: its traffic, its variants' hallucination rates and its verdict against its own
baseline, so a report over several services says how each is doing without mixing them."""

from __future__ import annotations

from dataclasses import dataclass, field

from ragpulse_dashboards.alerts.rules import HALLUCINATION_RATE
from ragpulse_dashboards.report.compare import baseline_first
from ragpulse_dashboards.report.model import Difference, Rate, ReportData, primary_scorer


@dataclass(frozen=True)
class ServiceRow:
    service: str
    requests: int
    errors: int
    scored: int
    rates: list[tuple[str, Rate]]
    """The service's own leading judge's hallucination rate of each variant, baseline first."""
    lead: Difference | None
    """The comparison to read first: a detectable difference (a worse one before a better one), else the
    largest; None with fewer than two scored variants."""
    firing: int
    not_scored: dict[str, int] = field(default_factory=dict)
    """Requests that cannot be judged, by reason."""
    judge: str | None = None
    """The judge of ``rates``: the report's leading judge where it scored the service, else the service's own
    (the leading one may never be sent to this service)."""
    waiting: bool = True
    """Some judge still has requests of this service to score (or none has logged any yet)."""


def service_rows(data: ReportData) -> list[ServiceRow]:
    rows = []
    for service in data.services:
        variants = [variant for variant in data.variants if variant.service == service]
        judge = primary_scorer(
            row.scorer for row in data.hallucination if row.service == service and row.rate.n
        )
        rates = {
            row.variant: row.rate
            for row in data.hallucination
            if row.service == service and row.scorer == judge and row.rate.n
        }
        logged = [row for row in data.outcomes if row.service == service]
        compared = [d for d in data.differences if d.service == service and d.is_rate]
        rows.append(
            ServiceRow(
                service=service,
                requests=sum(variant.requests for variant in variants),
                errors=sum(variant.errors for variant in variants),
                scored=sum(variant.scored for variant in variants),
                rates=[(variant, rates[variant]) for variant in baseline_first(rates)],
                lead=max(compared, key=_urgency, default=None),
                firing=sum(alert.key.service == service for alert in data.firing_alerts),
                not_scored={row.reason: row.requests for row in data.not_scored if row.service == service},
                judge=judge,
                waiting=not logged or any(row.pending for row in logged),
            )
        )
    return rows


def _urgency(difference: Difference) -> tuple[bool, bool, float]:
    return difference.detectable, difference.estimate > 0, abs(difference.estimate)


def hallucination_alert_firing(data: ReportData, service: str, variant: str) -> bool:
    """Whether the hallucination-rate alert of this service's variant fires now."""
    return any(
        alert.key.rule == HALLUCINATION_RATE and alert.key.service == service and alert.key.variant == variant
        for alert in data.firing_alerts
    )
