"""One alert evaluation: observe, compare with the stored state, notify on changes, record the new state."""

from __future__ import annotations

import logging
import math
import uuid
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from ragpulse_core.store import Store

from ragpulse_dashboards.alerts import state
from ragpulse_dashboards.alerts.causes import with_causes
from ragpulse_dashboards.alerts.checks import save_checks
from ragpulse_dashboards.alerts.conditions import observe
from ragpulse_dashboards.alerts.notify import failures, notify
from ragpulse_dashboards.alerts.rules import Observation
from ragpulse_dashboards.alerts.state import FIRING, RESOLVED, AlertRecord
from ragpulse_dashboards.settings import AlertSettings

logger = logging.getLogger(__name__)


@dataclass
class Evaluation:
    fired: list[AlertRecord] = field(default_factory=list)
    resolved: list[AlertRecord] = field(default_factory=list)
    firing: list[AlertRecord] = field(default_factory=list)
    """Every alert firing after this evaluation, new ones included."""


def evaluate_alerts(
    store: Store, settings: AlertSettings, now: datetime | None = None, *, sample_rate: float = 1.0
) -> Evaluation:
    """Evaluate every rule at ``now`` (default: the clock) and record fired, ongoing and resolved alerts;
    alerts on answers carry where their change sits.

    An alert with no data this time (no traffic, too few samples to decide) keeps its state: silence is not
    evidence that the problem went away.
    """
    now = (now or datetime.now(UTC)).astimezone(UTC)
    current = state.load_firing(store)
    result = Evaluation()
    observations = observe(store, settings, now, sample_rate=sample_rate, firing=current)
    for observation in observations:
        previous = current.pop(observation.key, None)
        if previous is None and observation.fire:
            result.fired.append(_fired(observation, now))
        elif previous is not None and observation.clear:
            result.resolved.append(_updated(previous, observation, now, RESOLVED))
        elif previous is not None:
            result.firing.append(_updated(previous, observation, now, FIRING))
    result.fired = with_causes(store, settings, result.fired, now)
    result.firing = with_causes(store, settings, result.firing, now)
    deliveries = notify(store, settings, [*result.fired, *result.resolved])
    result.fired = [replace(record, notify_error=failures(deliveries, record)) for record in result.fired]
    result.resolved = [
        replace(record, notify_error=failures(deliveries, record)) for record in result.resolved
    ]
    changed = [*result.fired, *result.resolved, *result.firing]
    result.firing.extend([*current.values(), *result.fired])
    state.save(store, changed)
    save_checks(store, now, observations, settings.interval_s)
    for record in result.fired:
        logger.warning("alert fired: %s", record.summary)
    for record in result.resolved:
        logger.info("alert resolved: %s", record.summary)
    return result


def _fired(observation: Observation, now: datetime) -> AlertRecord:
    return AlertRecord(
        alert_id=uuid.uuid4().hex,
        key=observation.key,
        state=FIRING,
        fired_at=now,
        resolved_at=None,
        updated_at=now,
        judged_by=observation.judged_by,
        baseline=observation.baseline,
        **_observed(observation),
    )


def _updated(previous: AlertRecord, observation: Observation, now: datetime, new_state: str) -> AlertRecord:
    # ReplacingMergeTree keeps the highest UpdatedAt: never let a clock step back hide the newer version.
    updated_at = max(now, previous.updated_at + timedelta(microseconds=1))
    return replace(
        previous,
        state=new_state,
        resolved_at=updated_at if new_state == RESOLVED else None,
        updated_at=updated_at,
        notify_error=previous.notify_error if new_state == FIRING else "",
        judged_by=observation.judged_by or previous.judged_by,
        baseline=observation.baseline or previous.baseline,
        **_observed(observation, previous),
    )


def _observed(observation: Observation, previous: AlertRecord | None = None) -> dict[str, Any]:
    """The fields of an alert record that each evaluation refreshes from what it observed (an observation
    with nothing to compare with keeps the episode's threshold)."""
    unknown = math.isnan(observation.threshold) and previous is not None
    return {
        "value": observation.value,
        "lower": observation.lower,
        "upper": observation.upper,
        "samples": observation.samples,
        "threshold": previous.threshold if unknown and previous is not None else observation.threshold,
        "summary": observation.summary,
    }
