"""The scorer's heartbeat: a file touched after every scoring tick that finished.

A container healthcheck that only pings the database says nothing of a scheduler that died or a tick that
hangs; the file's age does. (A tick whose scorers found the store down still finishes: that is the database
check's to report.) ``python -m ragpulse_scorers.pipeline.heartbeat FILE MAX_AGE_S`` exits 0
while the last finished tick is at most ``MAX_AGE_S`` old.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from apscheduler.events import EVENT_JOB_EXECUTED, JobExecutionEvent
from apscheduler.schedulers.base import BaseScheduler

logger = logging.getLogger(__name__)


def add_heartbeat(scheduler: BaseScheduler, job_id: str, path: Path) -> None:
    """Touch ``path`` each time the job ``job_id`` finishes without raising."""
    path.parent.mkdir(parents=True, exist_ok=True)

    def beat(event: JobExecutionEvent) -> None:
        if event.job_id != job_id:
            return
        try:
            path.touch()
        except OSError as exc:
            logger.warning("cannot touch the heartbeat file %s: %s", path, exc)

    scheduler.add_listener(beat, EVENT_JOB_EXECUTED)


def is_fresh(path: Path, max_age_s: float, now: float | None = None) -> bool:
    try:
        modified = path.stat().st_mtime
    except OSError:
        return False
    return (time.time() if now is None else now) - modified <= max_age_s


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if len(arguments) != 2:
        print("usage: python -m ragpulse_scorers.pipeline.heartbeat FILE MAX_AGE_S", file=sys.stderr)
        return 2
    path, max_age_s = Path(arguments[0]), float(arguments[1])
    if is_fresh(path, max_age_s):
        return 0
    print(f"no scoring tick finished in the last {max_age_s:g} s ({path})", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
