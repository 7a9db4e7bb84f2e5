"""The APScheduler job that keeps the root-cause facts and question topics up to date; the scorer's scheduler
adds it through the ``ragpulse.jobs`` entry point, beside the built-in alerts."""

from __future__ import annotations

import logging
from typing import Final

from apscheduler.schedulers.base import BaseScheduler
from ragpulse_core.sampling import Shard
from ragpulse_core.store import Store, StoreUnavailable
from ragpulse_scorers.settings import ScorersSettings

from ragpulse_dashboards.rootcause.facts import update_facts
from ragpulse_dashboards.settings import DashboardsSettings, RootCauseSettings

logger = logging.getLogger(__name__)

JOB_ID: Final = "ragpulse-rootcause"


def add_rootcause_job(scheduler: BaseScheduler, settings: ScorersSettings, store: Store) -> None:
    """Update the facts every ``rootcause.interval_s`` seconds, for this worker's shard (nothing when
    ``rootcause.enabled`` is false). Scorers' settings made in code, without the dashboards' sections, get
    the defaults."""
    rootcause = settings.rootcause if isinstance(settings, DashboardsSettings) else RootCauseSettings()
    if not rootcause.enabled:
        logger.info("root-cause job disabled")
        return
    scheduler.add_job(
        run_rootcause_job,
        trigger="interval",
        seconds=rootcause.interval_s,
        args=(store, rootcause, Shard.parse(settings.scorer.shard)),
        id=JOB_ID,
        name="ragpulse root cause",
        max_instances=1,
        coalesce=True,
        replace_existing=True,
    )


def run_rootcause_job(store: Store, settings: RootCauseSettings, shard: Shard | None = None) -> None:
    """One update; failures are logged, never raised, so the scheduler keeps the job."""
    try:
        update_facts(store, settings, shard)
    except StoreUnavailable as exc:
        logger.warning("root-cause update skipped, store unavailable: %s", exc)
    except Exception:
        logger.exception("root-cause update failed")
