"""The panel "Where the change sits" was rewritten to cost its planner less: fewer columns carried through its
layers, one lambda for the five effective sample sizes and one for the two intervals, topic names from one map
instead of a join. A user must see no difference: on the same stored rows, the panel's SQL and the SQL as it
was before (``where_the_change_sits_before.sql``, commit 01c2dbf) give the same rows in the same order, with
the same numbers and verdicts, for every kind of change, for one service as for all."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from grafana_macros import ALL, TimeRange, Variable, expand_dashboard_query
from ragpulse_core.store import Store
from ragpulse_dashboards.rootcause.facts import update_facts
from ragpulse_dashboards.settings import RootCauseSettings
from rootcause_data import write_requests
from rootcause_scenarios import DEPLOYMENT, MODEL, REGION, TIER, TOPIC, planted, scenario, stored_requests

HERE = Path(__file__).resolve().parent
BOARD = json.loads((HERE.parents[1] / "dashboards" / "grafana" / "json" / "root-cause.json").read_text())
TITLE = "Where the change sits: slices against the days before"
NOW_SQL = next(panel["targets"][0]["rawSql"] for panel in BOARD["panels"] if panel["title"] == TITLE)
BEFORE_SQL = (HERE / "where_the_change_sits_before.sql").read_text().strip()
SERVICES = ("support-bot", "search-bot")
_AFTER_MIDNIGHT = 3
"""Hours after midnight UTC a window may not end in (see :func:`_fill`)."""


def _rows(store: Store, sql: str, window: TimeRange, service: str | list[str]) -> list[dict[str, Any]]:
    variables = {
        "service": Variable(service, SERVICES, multi=True),
        "pipeline": Variable(ALL, ("fusion",), multi=True),
        "variant": Variable(ALL, ("A",), multi=True),
        "baseline_days": Variable("2"),
    }
    return store.query_dicts(expand_dashboard_query(sql, variables, window))


def _same(a: Any, b: Any) -> bool:
    """Equal, bit for bit for numbers; NaN equals NaN (an undefined figure stays undefined)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and a == b


def _fill(store: Store, cases: list[tuple[str, Any]]) -> TimeRange:
    """Each service its own scenario, the window's last hours partial and its baseline whole days and hours,
    so both the daily and the hourly sums are read."""
    end = datetime.now(UTC).replace(minute=40, second=0, microsecond=0) - timedelta(hours=1)
    if end.hour < _AFTER_MIDNIGHT:
        # A window ending in a day's first hours gives the planted model slice no "carries the change" (both
        # SQLs alike); every other hour does. The window ends before midnight then, so that every verdict is
        # compared whatever the hour the suite runs at.
        end -= timedelta(hours=end.hour + 1)
    for service, found in cases:
        write_requests(store, stored_requests(found, end, timedelta(hours=30), timedelta(days=2), service))
    update_facts(
        store, RootCauseSettings(attributes=[TIER, REGION, DEPLOYMENT]), now=end + timedelta(minutes=1)
    )
    return TimeRange(end - timedelta(hours=30), end)


def _compared(store: Store, window: TimeRange) -> set[str]:
    """Both SQLs over all services and one, over the whole window and its last three hours: asserts they
    agree and gives the verdicts seen."""
    verdicts: set[str] = set()
    for service in (ALL, ["support-bot"]):
        for span in (window, TimeRange(window.end - timedelta(hours=3), window.end)):
            before = _rows(store, BEFORE_SQL, span, service)
            now = _rows(store, NOW_SQL, span, service)

            assert before and [list(row) for row in now] == [list(row) for row in before]
            for new_row, old_row in zip(now, before, strict=True):
                assert all(_same(new_row[k], old_row[k]) for k in old_row), (new_row, old_row)
            verdicts |= {row["verdict"] for row in before}
    return verdicts


@pytest.mark.parametrize(
    "cases",
    [
        [("support-bot", planted("slice", TOPIC, seed=1)), ("search-bot", planted("spread", None, seed=2))],
        [("support-bot", scenario(7, window=150)), ("search-bot", planted("none", None, seed=4))],
    ],
    ids=["topic-and-spread", "small-and-none"],
)
def test_the_rewritten_panel_shows_what_the_panel_showed(store: Store, cases: list[tuple[str, Any]]) -> None:
    assert "within noise" in _compared(store, _fill(store, cases))


def test_every_verdict_is_compared(store: Store) -> None:
    """The comparison is worth something only if the data gives each verdict: too few, within noise,
    carries the change, and a new slice carrying it."""
    cases = [("support-bot", planted("new", None, seed=5)), ("search-bot", planted("slice", MODEL, seed=6))]
    window = _fill(store, cases)

    assert _compared(store, window) == {
        "too few",
        "within noise",
        "carries the change",
        "new, carries the change",
    }
