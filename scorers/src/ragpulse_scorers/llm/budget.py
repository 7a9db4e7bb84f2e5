"""The daily judge budget, in tokens and/or dollars, shared by every scorer process writing to one store.

Spend is what this process paid plus, when a store is given, today's rows in ``ragpulse_judge_spend`` (re-read
every ``refresh_s``, so other workers' spend counts too). The check happens before a call and the spend is
recorded after it, so concurrent calls can overshoot the budget by at most the calls already in flight.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

from ragpulse_core.store import StoreUnavailable

from ragpulse_scorers.llm.errors import BudgetExceeded

if TYPE_CHECKING:
    from ragpulse_core.store import Store

logger = logging.getLogger(__name__)

SPEND_TABLE = "ragpulse_judge_spend"
_SPEND_COLUMNS = (
    "Day",
    "SpentAt",
    "Model",
    "PromptVersion",
    "InputTokens",
    "OutputTokens",
    "CostUSD",
    "Worker",
)


@dataclass(frozen=True)
class Spend:
    tokens: int = 0
    usd: float = 0.0

    def __add__(self, other: Spend) -> Spend:
        return Spend(self.tokens + other.tokens, self.usd + other.usd)


class DailyBudget:
    def __init__(
        self,
        max_usd: float | None,
        max_tokens: int | None,
        store: Store | None = None,
        *,
        refresh_s: float = 30.0,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_usd = max_usd
        self.max_tokens = max_tokens
        self._store = store
        self._refresh_s = refresh_s
        self._now = now
        self._monotonic = monotonic
        self._worker = f"{socket.gethostname()}:{os.getpid()}"
        self._lock = threading.Lock()
        self._day: date | None = None
        self._stored = Spend()  # today's spend in the store at the last refresh, this process's included
        self._since_refresh = Spend()  # recorded in the store after the last refresh
        self._unstored = Spend()  # paid today but the store was down when we tried to record it
        self._refreshed_at: float | None = None

    def spent(self) -> Spend:
        """Today's spend (UTC day) as far as this process knows."""
        with self._lock:
            self._roll_day()
            if self._store is not None and (
                self._refreshed_at is None or self._monotonic() - self._refreshed_at >= self._refresh_s
            ):
                self._refresh(self._store)
            return self._stored + self._since_refresh + self._unstored

    def check(self) -> None:
        """Raise :class:`BudgetExceeded` when today's budget is used up."""
        if self.max_usd is None and self.max_tokens is None:
            return
        spent = self.spent()
        if self.max_tokens is not None and spent.tokens >= self.max_tokens:
            raise BudgetExceeded(f"daily judge budget spent: {spent.tokens} of {self.max_tokens} tokens")
        if self.max_usd is not None and spent.usd >= self.max_usd:
            raise BudgetExceeded(f"daily judge budget spent: ${spent.usd:.4f} of ${self.max_usd:.4f}")

    def record(
        self, model: str, prompt_version: str, input_tokens: int, output_tokens: int, usd: float
    ) -> None:
        spend = Spend(input_tokens + output_tokens, usd)
        with self._lock:
            self._roll_day()
            if self._store is None:
                self._since_refresh += spend
                return
            at = self._now()
            row = [at.date(), at, model, prompt_version, input_tokens, output_tokens, usd, self._worker]
            try:
                self._store.insert(SPEND_TABLE, [row], _SPEND_COLUMNS)
            except StoreUnavailable as exc:
                logger.warning(
                    "judge spend not recorded in the store (%s); counted in this process only", exc
                )
                self._unstored += spend
            else:
                self._since_refresh += spend

    def _roll_day(self) -> None:
        today = self._now().date()
        if today != self._day:
            self._day = today
            self._stored = self._since_refresh = self._unstored = Spend()
            self._refreshed_at = None

    def _refresh(self, store: Store) -> None:
        self._refreshed_at = self._monotonic()  # also after a failure, so a down store is not asked per call
        try:
            rows = store.query(
                f"SELECT sum(InputTokens + OutputTokens), sum(CostUSD) FROM {store.table(SPEND_TABLE)}"
                " WHERE Day = {day:Date}",
                {"day": self._day},
            )
        except StoreUnavailable as exc:
            logger.warning("cannot read today's judge spend (%s); using what this process knows", exc)
            return
        tokens, usd = rows[0] if rows else (0, 0.0)
        self._stored = Spend(int(tokens or 0), float(usd or 0.0))
        self._since_refresh = Spend()
