"""The scoring schedule: APScheduler runs a :class:`ScoringJob` every ``scorer.interval_s`` seconds."""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Sequence
from datetime import UTC, datetime

from apscheduler.schedulers.background import BackgroundScheduler
from ragpulse_core.store import Store

from ragpulse_scorers.alerts.job import add_alert_job
from ragpulse_scorers.pipeline.heartbeat import add_heartbeat
from ragpulse_scorers.pipeline.tick import ScoringJob
from ragpulse_scorers.scorer import Scorer
from ragpulse_scorers.settings import ScorersSettings

logger = logging.getLogger(__name__)

SCORING_JOB_ID = "ragpulse-scoring"


def build_scheduler(
    settings: ScorersSettings, store: Store, scorers: Sequence[Scorer] | None = None
) -> BackgroundScheduler:
    """A scheduler (not started) with the scoring job, first run now, the alert job, and the heartbeat file
    when ``scorer.heartbeat_file`` is set (``score`` and ``serve`` alike).

    ``max_instances=1`` and ``coalesce=True``: a tick that outlasts the interval is never run twice at once,
    and missed runs collapse into one.
    """
    scheduler = BackgroundScheduler(timezone=UTC)
    scheduler.add_job(
        ScoringJob(settings, store, scorers),
        "interval",
        seconds=settings.scorer.interval_s,
        id=SCORING_JOB_ID,
        name="score requests",
        max_instances=1,
        coalesce=True,
        next_run_time=datetime.now(UTC),
    )
    add_alert_job(scheduler, settings, store)
    if settings.scorer.heartbeat_file is not None:
        add_heartbeat(scheduler, SCORING_JOB_ID, settings.scorer.heartbeat_file)
    return scheduler


def wait_for_shutdown() -> None:
    """Block the calling (main) thread until Ctrl-C or SIGTERM, so a foreground process stops cleanly."""
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda _signum, _frame: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        logger.info("interrupted, shutting down")
    finally:
        signal.signal(signal.SIGTERM, previous)
