"""How long one answer may take to judge.

Each step of the judge is linear in its input, but checking an answer against its context is a product: every
claim is compared with every context sentence that shares its words. A 20,000-character answer whose
sentences all share words with a 200,000-character context took minutes, on the thread of a scoring tick or
of the service running the guard. Past its time limit the judge stops and says so: no verdict, rather than
one on part of the answer.
"""

from __future__ import annotations

import time

from ragpulse_judge.deadline import check_deadline

DEFAULT_TIME_LIMIT_S = 10.0


class TooLongToJudge(Exception):
    """Judging one answer ran past its time limit; the message says how far it got."""


class Deadline:
    """The time limit of one judgment, checked between claims and between the context sentences of one."""

    def __init__(self, limit_s: float | None) -> None:
        self.limit_s = limit_s
        self._ends = None if limit_s is None else time.monotonic() + limit_s

    def check(self, where: str) -> None:
        """:class:`TooLongToJudge` once the limit has passed; ``where`` says how far the judgment got. The
        guard's tighter bound (:func:`~ragpulse_judge.deadline.time_bound`) is checked at the same points."""
        check_deadline()
        if self._ends is not None and time.monotonic() > self._ends:
            raise TooLongToJudge(
                f"judging took over {self.limit_s:g} s and stopped at {where}: the answer and its context are"
                " too large to compare (each claim is checked against each context sentence sharing a word)"
            )


NO_DEADLINE = Deadline(None)
