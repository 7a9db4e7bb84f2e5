"""What each rule has spent today (UTC): judgments it paid for and their cost, from the scoring log.

Read once per scorer turn, so every worker sharing the store counts; a judgment is counted the moment it
starts and its cost added when it ends, so concurrent judgments of one process overshoot a dollar budget by
at most the judgments in flight (``concurrency``), never a budget in judgments.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import UTC, datetime

from ragpulse_core.store import Store

from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.rules.model import Rule


@dataclass
class RuleSpend:
    calls: int = 0
    usd: float = 0.0


class RuleLedger:
    """Today's spend per rule name, as of the last :meth:`refresh`, plus what this process added since."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._spent: dict[str, RuleSpend] = {}

    def refresh(self, store: Store, rules: list[Rule], now: datetime) -> None:
        names = [rule.name for rule in rules if rule.budgeted]
        if not names:
            return
        day = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        rows = store.query(
            f"SELECT Rule, count(), sum(CostUSD) FROM {store.table('ragpulse_scoring_log')}"
            " WHERE LoggedAt >= {day:DateTime64(6)} AND has({names:Array(String)}, Rule)"
            " AND Outcome IN ({scored:String}, {failed:String}) GROUP BY Rule",
            {"day": day, "names": names, "scored": Outcome.SCORED, "failed": Outcome.FAILED},
        )
        with self._lock:
            self._spent = {name: RuleSpend(int(calls), float(usd or 0.0)) for name, calls, usd in rows}

    def exhausted(self, rule: Rule) -> str | None:
        """Why ``rule`` may pay for no more judgments today, or None."""
        with self._lock:
            return self._exhausted(rule)

    def _exhausted(self, rule: Rule) -> str | None:
        spent = self._spent.get(rule.name, RuleSpend())
        if rule.daily_budget_calls is not None and spent.calls >= rule.daily_budget_calls:
            return f"rule {rule.name}: daily budget of {rule.daily_budget_calls} judgments spent"
        if rule.daily_budget_usd is not None and spent.usd >= rule.daily_budget_usd:
            return (
                f"rule {rule.name}: daily budget of ${rule.daily_budget_usd:.2f} spent"
                f" (${spent.usd:.4f} today)"
            )
        return None

    def claim(self, rules: tuple[Rule, ...]) -> tuple[Rule | None, str]:
        """The first of ``rules`` with budget left, its judgment counted at once; else None and why the
        first one cannot pay."""
        with self._lock:
            reasons = []
            for rule in rules:
                reason = self._exhausted(rule)
                if reason is None:
                    self._spent.setdefault(rule.name, RuleSpend()).calls += 1
                    return rule, ""
                reasons.append(reason)
        return None, "; ".join(reasons)

    def charge(self, rule_name: str, usd: float) -> None:
        with self._lock:
            self._spent.setdefault(rule_name, RuleSpend()).usd += usd
