"""Each firing alert on answers told where its change sits: the slices of its service and variant that carry
the change from the ``baseline_days`` before the alert's window to the window, or why none is named."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Final

from ragpulse_core.store import Store

from ragpulse_dashboards.alerts.rules import CORRECTED_RATE, HALLUCINATION_RATE, SUPPORT_DROP
from ragpulse_dashboards.alerts.state import AlertRecord
from ragpulse_dashboards.rootcause.cause import Cause
from ragpulse_dashboards.rootcause.slices import Period, Scope, explain_scope
from ragpulse_dashboards.rootcause.topic_store import topic_names
from ragpulse_dashboards.settings import AlertSettings

logger = logging.getLogger(__name__)

# Rules about answers getting worse: a rise of the hallucination rate is the change to place.
EXPLAINED_RULES: Final = frozenset({HALLUCINATION_RATE, SUPPORT_DROP, CORRECTED_RATE})


def with_causes(
    store: Store, settings: AlertSettings, records: Sequence[AlertRecord], now: datetime
) -> list[AlertRecord]:
    """``records`` with the cause of each one about answers found anew. The root-cause job's facts are read,
    so a window it has not reached yet (no judged request in its facts) gives no cause; one that cannot be
    read (the store failed) keeps the cause it had, and the alert goes on without it."""
    explained = [record for record in records if record.key.rule in EXPLAINED_RULES]
    if not explained:
        return list(records)
    causes: dict[str, Cause] = {}
    try:
        names = topic_names(store)
        period = Period(now - timedelta(minutes=settings.window_minutes), now, settings.baseline_days)
        for record in explained:
            scope = Scope(record.key.service, record.key.variant)
            explanation = explain_scope(store, scope, period, min_samples=settings.min_samples, direction=1)
            if explanation.window.weights > 0:
                causes[record.alert_id] = Cause.of(explanation, settings.baseline_days, names)
    except Exception:
        logger.warning("alerts: where the change sits could not be read", exc_info=True)
        return list(records)
    return [
        replace(record, cause=causes[record.alert_id].to_json()) if record.alert_id in causes else record
        for record in records
    ]
