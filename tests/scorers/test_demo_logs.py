"""The demo's output: APScheduler's "maximum number of running instances reached" warning, logged whenever
a tick outlasts the demo's 1 s interval (by design), does not reach it, at the default verbosity or -v."""

from __future__ import annotations

import io
import logging
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from apscheduler.schedulers.background import BackgroundScheduler
from ragpulse_demo.command import quiet_demo_logs

OVERLAP = "maximum number of running instances reached"
NAMES = ("apscheduler", "apscheduler.scheduler", "apscheduler.executors.default")


@pytest.fixture
def captured_logs() -> Iterator[io.StringIO]:
    """The root handler the CLI installs (records at INFO), with every logger the demo touches restored."""
    loggers = [logging.getLogger(name) for name in NAMES]
    saved = [(logger, logger.level, list(logger.filters)) for logger in loggers]
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    root = logging.getLogger()
    root_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield stream
    root.removeHandler(handler)
    root.setLevel(root_level)
    for logger, level, filters in saved:
        logger.setLevel(level)
        logger.filters[:] = filters


def overlapping_ticks() -> None:
    """A real scheduler whose job outlasts its interval, as a demo tick outlasts 1 s."""
    scheduler = BackgroundScheduler(timezone=UTC)
    done = threading.Event()
    scheduler.add_job(lambda: done.wait(0.6), "interval", seconds=0.1, max_instances=1,
                      next_run_time=datetime.now(UTC))  # fmt: skip
    scheduler.start()
    time.sleep(0.5)
    done.set()
    scheduler.shutdown(wait=True)


@pytest.mark.parametrize("verbose", [0, 1])
def test_overlapping_ticks_do_not_reach_the_demos_output(captured_logs: io.StringIO, verbose: int) -> None:
    quiet_demo_logs(verbose)
    overlapping_ticks()
    assert OVERLAP not in captured_logs.getvalue()


def test_with_vv_the_scheduler_says_everything(captured_logs: io.StringIO) -> None:
    quiet_demo_logs(2)
    overlapping_ticks()
    assert OVERLAP in captured_logs.getvalue()
