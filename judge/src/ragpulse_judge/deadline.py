"""A time bound on one judgement, checked by the judge itself between units of work.

A judgement that runs in a service's request path must end in time, and nothing may outlive it: a thread
cannot be stopped once started (a timed-out judge would keep burning a core), a signal belongs to the main
thread and to the application, and a subprocess costs more than the judgement. So the bound is cooperative:
the input caps (``MAX_ANSWER_CHARS``, ``MAX_CONTEXT_CHARS``) bound the work of any one step, and the judge
checks the clock between context sentences and between answer sentences, where it raises
:class:`DeadlineExceeded`. It overruns its deadline by at most one such step.

The deadline is carried in a context variable so that every loop of the judge reads the same clock without
each caller passing it along; outside :func:`time_bound` the check costs one lookup and does nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_deadline: ContextVar[float | None] = ContextVar("ragpulse_judge_deadline", default=None)


class DeadlineExceeded(Exception):
    """The judgement ran past its time bound; what it had judged so far is dropped."""


@contextmanager
def time_bound(seconds: float) -> Iterator[None]:
    """Within the block, :func:`check_deadline` raises once ``seconds`` have passed."""
    token = _deadline.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _deadline.reset(token)


def check_deadline() -> None:
    """Raise :class:`DeadlineExceeded` when the current time bound has passed; no-op outside one."""
    limit = _deadline.get()
    if limit is not None and time.monotonic() > limit:
        raise DeadlineExceeded
