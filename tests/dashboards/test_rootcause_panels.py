"""The Grafana dashboard "Where the change sits", its SQL expanded as the ClickHouse plugin expands it: the
slice made worse is the first that carries the change, as ragpulse's own ranking names it; a change spread
evenly names none; topics are named by their words; conversations are counted with their interval."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from grafana_macros import ALL, TimeRange, Variable, expand_dashboard_query
from ragpulse_core.store import Store
from ragpulse_dashboards.rootcause.facts import update_facts
from ragpulse_dashboards.rootcause.figures import conversation_rates
from ragpulse_dashboards.rootcause.slices import Period, Scope, explain_scope
from ragpulse_dashboards.settings import RootCauseSettings
from ragpulse_scorers.stats import wilson_interval
from rootcause_data import StoredRequest, write_requests
from rootcause_scenarios import DEPLOYMENT, MODEL, REGION, TIER, TOPIC, TOPIC_WORDS, planted, stored_requests

BOARD = json.loads(
    (Path(__file__).resolve().parents[2] / "dashboards" / "grafana" / "json" / "root-cause.json").read_text()
)
PANELS = {panel["title"]: panel["targets"][0]["rawSql"] for panel in BOARD["panels"]}
SERVICE = "support-bot"
CONVERSATIONS = "Conversations with at least one unsupported answer"


def run(store: Store, title: str, window: TimeRange) -> list[dict[str, Any]]:
    variables = {
        "service": Variable(ALL, (SERVICE,), multi=True),
        "pipeline": Variable(ALL, ("fusion",), multi=True),
        "variant": Variable(["A"], multi=True),
        "baseline_days": Variable("1"),
    }
    return store.query_dicts(expand_dashboard_query(PANELS[title], variables, window))


def fill(store: Store, kind: str, dimension: str | None) -> TimeRange:
    """The scenario's window in the 50 minutes from the start of the last whole hour, its baseline the day
    before: the panel reads whole hours."""
    hour = datetime.now(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(hours=1)
    end = hour + timedelta(minutes=50)
    found = planted(kind, dimension)
    write_requests(store, stored_requests(found, end, timedelta(minutes=50), timedelta(days=1), SERVICE))
    update_facts(
        store, RootCauseSettings(attributes=[TIER, REGION, DEPLOYMENT]), now=end + timedelta(minutes=1)
    )
    return TimeRange(hour, end)


@pytest.mark.parametrize("dimension", [MODEL, TOPIC])
def test_the_slice_made_worse_carries_the_change_first_as_ragpulse_names_it(
    store: Store, dimension: str
) -> None:
    window = fill(store, "slice", dimension)

    rows = run(store, "Where the change sits: slices against the days before", window)

    first = rows[0]
    assert first["verdict"] == "carries the change"
    assert first["now_low"] > first["before_high"] and first["n_now"] >= 20 and 0 < first["share"] <= 1.2
    named = explain_scope(store, Scope(SERVICE, "A"), Period(window.start, window.end, 1.0), direction=1)
    key = named.slices[0].key
    assert first["slice"].startswith(f"{key.dimension} {key.value}")
    if dimension == TOPIC:
        words = first["slice"].split("(")[1].rstrip(")").split(" · ")
        assert any(set(words) <= set(topic) for topic in TOPIC_WORDS.values())


def test_a_change_spread_evenly_carries_no_slice(store: Store) -> None:
    window = fill(store, "spread", None)

    rows = run(store, "Where the change sits: slices against the days before", window)

    assert rows and all("carries" not in row["verdict"] for row in rows)


def test_topics_and_conversations_have_their_rates_and_intervals(store: Store) -> None:
    window = fill(store, "none", None)

    topics = run(store, "Topics of the questions", window)
    assert len(topics) >= 3 and all(" · " in row["topic"] for row in topics)
    assert all(row["rate_low"] <= row["rate"] <= row["rate_high"] and row["n"] > 0 for row in topics)
    [conversations] = run(store, "Conversations with at least one unsupported answer", window)
    low, high = wilson_interval(conversations["unsupported"], conversations["conversations"])
    assert conversations["share_low"] == pytest.approx(low, abs=1e-3)
    assert conversations["share_high"] == pytest.approx(high, abs=1e-3)


def test_services_sharing_session_ids_count_their_conversations_apart(store: Store) -> None:
    """Two services whose clients number sessions alike: each conversation is its own service's, in the
    panel and in the report, over whole days and the hours at either end alike."""
    now = datetime.now(UTC).replace(microsecond=0)
    unsupported = {("other-bot", 0), (SERVICE, 1), (SERVICE, 2)}
    requests = [
        StoredRequest(
            now - timedelta(days=turn % 3, minutes=5 + turn),
            hallucinated=turn == 0 and (service, session) in unsupported,
            service=service,
            session=f"s{session}",
        )
        for service in (SERVICE, "other-bot")
        for session in range(4)
        for turn in range(3)
    ]
    write_requests(store, requests)
    update_facts(store, RootCauseSettings(), now=now + timedelta(minutes=1))
    window = TimeRange(now - timedelta(days=3), now)

    panel = {
        row["ServiceName"]: (row["conversations"], row["unsupported"])
        for row in run(store, CONVERSATIONS, window)
    }
    report = {
        rate.service: (rate.conversations, rate.unsupported)
        for rate in conversation_rates(store, window.start, window.end, None)
    }

    assert panel == report == {SERVICE: (4, 2), "other-bot": (4, 1)}
