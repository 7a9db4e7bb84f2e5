"""The scoring schedule: APScheduler runs a :class:`ScoringJob` every ``scorer.interval_s`` seconds."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from importlib.metadata import entry_points

from apscheduler.schedulers.background import BackgroundScheduler
from ragpulse_core.store import Store

from ragpulse_scorers.export.sink import ScoreExport, start_export
from ragpulse_scorers.pipeline.heartbeat import add_heartbeat
from ragpulse_scorers.pipeline.tick import ScoringJob
from ragpulse_scorers.scorer import Scorer
from ragpulse_scorers.settings import ScorersSettings

logger = logging.getLogger(__name__)

SCORING_JOB_ID = "ragpulse-scoring"
# Parts above the scorers add their own jobs (the dashboards' built-in alerts) through this entry-point group:
# each names ``add(scheduler, settings, store)``.
JOBS_GROUP = "ragpulse.jobs"


def build_scheduler(
    settings: ScorersSettings,
    store: Store,
    scorers: Sequence[Scorer] | None = None,
    *,
    stopping: threading.Event | None = None,
) -> BackgroundScheduler:
    """A scheduler (not started) with the scoring job, first run now, the jobs of the installed parts (the
    built-in alerts), and the heartbeat file when ``scorer.heartbeat_file`` is set (``score`` and ``serve``
    alike).

    ``max_instances=1`` and ``coalesce=True``: a tick that outlasts the interval is never run twice at once,
    and missed runs collapse into one. Once ``stopping`` is set, a tick in progress starts no new judgment.
    """
    scheduler = BackgroundScheduler(timezone=UTC)
    scheduler.add_job(
        ScoringJob(settings, store, scorers, stopping=stopping),
        "interval",
        seconds=settings.scorer.interval_s,
        id=SCORING_JOB_ID,
        name="score requests",
        max_instances=1,
        coalesce=True,
        next_run_time=datetime.now(UTC),
    )
    for entry_point in sorted(entry_points(group=JOBS_GROUP), key=lambda ep: ep.name):
        entry_point.load()(scheduler, settings, store)
    if settings.scorer.heartbeat_file is not None:
        add_heartbeat(scheduler, SCORING_JOB_ID, settings.scorer.heartbeat_file)
    return scheduler


class ScoringSchedule:
    """The scheduler of a long-running process (``score``, ``serve``) and how it stops promptly.

    A tick reads until its backlog is cleared or ``scorer.tick_deadline_s`` (minutes) passes, so a stop that
    only waited for it would outlive SIGTERM by that long under load. A stop tells the tick first: it ends
    after the judgments under way, and a request left without scores is picked up by the next process.
    """

    def __init__(self, settings: ScorersSettings, store: Store) -> None:
        self._settings = settings
        self._stopping = threading.Event()
        self._scheduler = build_scheduler(settings, store, stopping=self._stopping)
        self._export: ScoreExport | None = None

    def start(self) -> None:
        self._export = start_export(self._settings.export)
        self._scheduler.start()

    def request_stop(self) -> None:
        """Tell a tick in progress to start no new judgment (returns at once)."""
        self._stopping.set()

    def stop(self) -> None:
        """Stop: the tick in progress ends after its judgments under way, then the scheduler's threads end,
        then the score export sends what it holds (within ``export.shutdown_timeout_s``)."""
        self.request_stop()
        if self._scheduler.running:
            self._scheduler.shutdown(wait=True)
        if self._export is not None:
            self._export.shutdown()  # after the last tick: its scores are sent too
            self._export = None


class _OverlappingTicks(logging.Filter):
    """APScheduler warns whenever a tick outlasts the interval; ticks are meant to (``max_instances=1``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "maximum number of running instances reached" not in record.getMessage()


_OVERLAPPING_TICKS = _OverlappingTicks()


def quiet_scheduler_logs(verbose: int) -> None:
    """APScheduler logs every run at INFO and every overlapping tick as a warning; the tick summary says
    more, so its lines wait for ``-vv``."""
    if verbose < 2:
        logging.getLogger("apscheduler").setLevel(logging.WARNING)
        logging.getLogger("apscheduler.scheduler").addFilter(_OVERLAPPING_TICKS)
