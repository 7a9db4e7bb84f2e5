"""Where the demo's alert evaluation looks: a run of seconds has no hours of history to compare with.

In production the rules read the last ``alerts.window_minutes`` and, for a support drop, the days before it.
The demo evaluates once, after its run, with the window set to the run's part from the drift point on and the
baseline set to the part before it: the baseline of a short demo is its own first part, and it says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ragpulse_dashboards.settings import AlertSettings

SECONDS_PER_DAY = 86_400.0
# Without a split the baseline must still be a positive span: one too short to hold a request.
_EMPTY_BASELINE_DAYS = 1e-9


@dataclass(frozen=True)
class AlertWindow:
    run_started: datetime
    evaluated_at: datetime
    split_at: datetime | None
    """Where the window starts and the baseline ends (the drift point); None: the whole run, no baseline."""

    @property
    def window_start(self) -> datetime:
        return self.split_at or self.run_started

    def settings(self, alerts: AlertSettings) -> AlertSettings:
        """``alerts`` with this run's window and baseline (rules read back to ``now − window − baseline``).

        Without destinations: a demo's made-up alerts must not page anyone the user's config names.
        """
        window_s = (self.evaluated_at - self.window_start).total_seconds()
        baseline_days = (
            (self.split_at - self.run_started).total_seconds() / SECONDS_PER_DAY
            if self.split_at is not None
            else _EMPTY_BASELINE_DAYS
        )
        quiet: dict[str, object] = {"webhook_url": None, "destinations": []}
        return alerts.model_copy(
            update={"window_minutes": window_s / 60, "baseline_days": baseline_days, **quiet}
        )

    def describe(self) -> str:
        window_s = (self.evaluated_at - self.window_start).total_seconds()
        if self.split_at is None:
            return (
                f"alerts evaluated once, after the run, over all of it ({window_s:.0f} s); with no earlier"
                " traffic to compare with, the support-drop rule has no baseline"
            )
        baseline_s = (self.split_at - self.run_started).total_seconds()
        return (
            f"alerts evaluated once, after the run, over its last {window_s:.0f} s (from the drift point on);"
            f" the support-drop baseline is the run's first {baseline_s:.0f} s, since a demo this short has"
            " no earlier history"
        )
