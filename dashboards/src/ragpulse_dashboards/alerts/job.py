"""The APScheduler job that evaluates the built-in alerts; the scorer's scheduler adds it through the
``ragpulse.jobs`` entry point."""

from __future__ import annotations

import logging
from typing import Final

from apscheduler.schedulers.base import BaseScheduler
from ragpulse_core.store import Store, StoreUnavailable
from ragpulse_scorers.settings import ScorersSettings

from ragpulse_dashboards.alerts.evaluator import evaluate_alerts
from ragpulse_dashboards.settings import AlertSettings, DashboardsSettings

logger = logging.getLogger(__name__)

JOB_ID: Final = "ragpulse-alerts"


def add_alert_job(scheduler: BaseScheduler, settings: ScorersSettings | AlertSettings, store: Store) -> None:
    """Evaluate the alerts every ``alerts.interval_s`` seconds (nothing when ``alerts.enabled`` is false).

    Settings loaded from their sources are the dashboards' (see
    :func:`~ragpulse_core.settings.installed_extension`); scorers' settings made in code, without an
    ``[alerts]`` section, get the default alerts.
    """
    alerts = settings if isinstance(settings, AlertSettings) else _alert_settings(settings)
    sample_rate = 1.0 if isinstance(settings, AlertSettings) else settings.scorer.sample_rate
    if not alerts.enabled:
        logger.info("built-in alerts disabled")
        return
    scheduler.add_job(
        run_alert_job,
        trigger="interval",
        seconds=alerts.interval_s,
        args=(store, alerts, sample_rate),
        id=JOB_ID,
        name="ragpulse alerts",
        max_instances=1,
        coalesce=True,
        replace_existing=True,
    )


def _alert_settings(settings: ScorersSettings) -> AlertSettings:
    return settings.alerts if isinstance(settings, DashboardsSettings) else AlertSettings()


def run_alert_job(store: Store, alerts: AlertSettings, sample_rate: float = 1.0) -> None:
    """One evaluation; failures are logged, never raised, so the scheduler keeps the job."""
    try:
        evaluate_alerts(store, alerts, sample_rate=sample_rate)
    except StoreUnavailable as exc:
        logger.warning("alert evaluation skipped, store unavailable: %s", exc)
    except Exception:
        logger.exception("alert evaluation failed")
