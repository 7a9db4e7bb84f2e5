"""One row per evaluated item, and judging each item on its own so one failure costs one item, not the run.

Every ``ragpulse eval`` task records, per labelled item, the human label and either the judge's verdict with
its reasoning or the reason there is none; agreement is computed over the judged items and always shown
with how many of all items that is. After a few failures in a row to reach the judge (or a spent budget),
the items left are not tried: each would wait out its own retries against an endpoint that is down. Ctrl-C
does the same: the items left are not tried and the figures are those of the items judged before it, so a
long run on a slow local model is not lost.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ragpulse_scorers.llm.errors import JudgeError
from ragpulse_scorers.pipeline.errors import JudgeUnreachable, OverBudget

R = TypeVar("R")
T = TypeVar("T")

UNREACHABLE_IN_A_ROW = 3
INTERRUPTED = "interrupted (Ctrl-C); the figures are for the items judged before it"


@dataclass(frozen=True)
class ItemResult:
    """One labelled item: its human ``label`` and the judge's ``verdict`` with its reasoning, or, when the
    judge gave none, ``verdict`` None and ``not_judged`` saying why. ``fields`` holds what else the judge
    said about the item (TRACe metrics, a quoted span)."""

    id: str
    label: Any
    verdict: Any = None
    reasoning: str = ""
    not_judged: str = ""
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def judged(self) -> bool:
        return not self.not_judged

    def as_dict(self) -> dict[str, Any]:
        if not self.judged:
            return {"id": self.id, "label": self.label, "verdict": None, "not_judged": self.not_judged}
        return {
            "id": self.id,
            "label": self.label,
            "verdict": self.verdict,
            "reasoning": self.reasoning,
            **self.fields,
        }


@dataclass(frozen=True)
class Coverage:
    """How many of the items an agreement figure could use were judged."""

    judged: int
    total: int

    @classmethod
    def of(cls, items: Sequence[ItemResult]) -> Coverage:
        return cls(sum(item.judged for item in items), len(items))

    def __str__(self) -> str:
        return f"{self.judged}/{self.total}"

    def as_dict(self) -> dict[str, int]:
        return {"judged": self.judged, "total": self.total}


@dataclass(frozen=True)
class Attempt(Generic[R]):
    """A judgment, or why there is none (``value`` None, ``failure`` non-empty)."""

    value: R | None
    failure: str = ""


class IsolatedJudging:
    """Runs judgments one item at a time (from any number of threads); thread-safe."""

    def __init__(self, unreachable_in_a_row: int = UNREACHABLE_IN_A_ROW) -> None:
        self._limit = unreachable_in_a_row
        self._lock = threading.Lock()
        self._in_a_row = 0
        self.stopped = ""

    @property
    def interrupted(self) -> bool:
        return self.stopped == INTERRUPTED

    def interrupt(self) -> None:
        """Ctrl-C: the items not judged yet are not tried (an item being judged in another thread ends)."""
        with self._lock:
            self.stopped = INTERRUPTED

    def attempt(self, judge: Callable[[], R]) -> Attempt[R]:
        if self.stopped:
            return Attempt(None, f"not tried: {self.stopped}")
        try:
            value = judge()
        except KeyboardInterrupt:
            self.interrupt()
            return Attempt(None, f"not judged: {INTERRUPTED}")
        except OverBudget as exc:
            with self._lock:
                self.stopped = self.stopped or f"the judge budget is spent ({exc})"
            return Attempt(None, _reason(exc))
        except JudgeUnreachable as exc:
            with self._lock:
                self._in_a_row += 1
                if self._in_a_row >= self._limit and not self.stopped:
                    self.stopped = f"the judge was unreachable {self._in_a_row} times in a row ({exc})"
            return Attempt(None, _reason(exc))
        except JudgeError as exc:
            self._reached()
            return Attempt(None, _reason(exc))
        self._reached()
        return Attempt(value)

    def _reached(self) -> None:
        with self._lock:
            self._in_a_row = 0


def judge_each(
    items: Sequence[T], judge_one: Callable[[T], R], judging: IsolatedJudging, workers: int = 1
) -> list[R]:
    """``judge_one`` on every item in order, ``workers`` at a time. Ctrl-C (which reaches the main thread
    only) stops the items not begun; those being judged in worker threads finish."""
    if workers <= 1:
        results = []
        for item in items:
            try:
                results.append(judge_one(item))
            except KeyboardInterrupt:
                judging.interrupt()
                results.append(judge_one(item))
        return results
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(judge_one, item) for item in items]
        try:
            return [future.result() for future in futures]
        except KeyboardInterrupt:
            judging.interrupt()
            return [future.result() for future in futures]


def _reason(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"
