"""An alert on answers says where its change sits: in the stored alert, the ``ragpulse alerts`` listing, and
what Slack, PagerDuty and a webhook receive (each body valid against the destination's schema)."""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from ragpulse_core.store import Store
from ragpulse_dashboards.alerts import evaluate_alerts, load_alerts
from ragpulse_dashboards.alerts.rules import HALLUCINATION_RATE, SUPPORT_DROP
from ragpulse_dashboards.commands.views import listing
from ragpulse_dashboards.report import collect_report, render_html, render_terminal
from ragpulse_dashboards.rootcause.cause import Cause
from ragpulse_dashboards.rootcause.facts import update_facts
from ragpulse_dashboards.rootcause.ranking import Finding
from ragpulse_dashboards.settings import AlertSettings, RootCauseSettings
from rich.console import Console
from rootcause_data import write_requests
from rootcause_scenarios import DEPLOYMENT, MODEL, REGION, TIER, planted, stored_requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scorers"))
from alert_receivers import Receiver

SERVICE = "support-bot"


@pytest.fixture
def receivers() -> list[Receiver]:
    opened = [Receiver("slack_incoming_webhook"), Receiver("pagerduty_events_v2"), Receiver("webhook")]
    yield opened  # type: ignore[misc]
    for receiver in opened:
        receiver.close()


def settings(receivers: list[Receiver]) -> AlertSettings:
    slack, pagerduty, webhook = receivers
    return AlertSettings(
        hallucination_threshold=0.15,
        window_minutes=60,
        baseline_days=1,
        destinations=[
            {"kind": "slack", "url": slack.url},
            {"kind": "pagerduty", "routing_key": "R0UTING" * 4 + "k" * 4, "url": pagerduty.url},
            {"kind": "webhook", "url": webhook.url},
        ],
    )


def fill(store: Store, kind: str, dimension: str | None, now: datetime) -> str | None:
    found = planted(kind, dimension)
    write_requests(store, stored_requests(found, now, timedelta(hours=1), timedelta(days=1), SERVICE))
    update_facts(store, RootCauseSettings(attributes=[TIER, REGION, DEPLOYMENT]), now=now)
    return found.expected.value if found.expected is not None else None


def test_the_alert_names_the_model_version_made_worse_everywhere_it_is_told(
    store: Store, receivers: list[Receiver]
) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    version = fill(store, "slice", MODEL, now)

    fired = evaluate_alerts(store, settings(receivers), now=now).fired

    [alert] = [record for record in fired if record.key.rule == HALLUCINATION_RATE]
    cause = Cause.from_json(alert.cause)
    assert cause is not None and cause.finding is Finding.FOUND
    first = cause.slices[0]
    assert (first.dimension, first.value) == (MODEL, version)
    assert first.window.low > first.baseline.high and first.window.n >= 20
    said = f"Where: model version {version}: {first.window.text()}"
    assert cause.text().startswith(said)

    slack, pagerduty, webhook = receivers
    assert all(receiver.invalid == [] for receiver in receivers)
    [message] = [body for body in slack.bodies if "Hallucination rate above" in body["text"]]
    assert said in message["text"]
    assert any(said in block.get("text", {}).get("text", "") for block in message["blocks"])
    [event] = [body for body in pagerduty.bodies if body["payload"]["class"] == HALLUCINATION_RATE]
    assert said in event["payload"]["summary"]
    assert event["payload"]["custom_details"]["cause"]["slices"][0]["value"] == version
    [document] = [body for body in webhook.bodies if body["rule"] == HALLUCINATION_RATE]
    named = document["cause"]["slices"][0]
    assert (named["dimension"], named["value"], named["new"]) == (MODEL, version, False)
    assert named["window"]["low"] > named["baseline"]["high"] and named["share"] > 0

    # Stored with the alert, in `ragpulse alerts` and in the report's alerts, terminal and HTML.
    [stored] = [record for record in load_alerts(store) if record.key.rule == HALLUCINATION_RATE]
    assert stored.cause == alert.cause
    for printed in (listing([stored]), None):
        console = Console(width=100, record=True)
        if printed is None:
            render_terminal(collect_report(store, now - timedelta(hours=1)), console)
        else:
            console.print(printed)
        assert f"Where: model version {version}" in " ".join(console.export_text().split())
    assert said in render_html(collect_report(store, now - timedelta(hours=1)))


def test_a_change_spread_over_the_traffic_names_no_slice(store: Store, receivers: list[Receiver]) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    fill(store, "spread", None, now)

    fired = evaluate_alerts(store, settings(receivers), now=now).fired

    for alert in fired:
        if alert.key.rule in (HALLUCINATION_RATE, SUPPORT_DROP):
            cause = Cause.from_json(alert.cause)
            assert cause is not None and cause.slices == () and cause.finding is Finding.SPREAD
            assert cause.text().startswith("Where: no single slice explains it")
    _, _, webhook = receivers
    assert webhook.bodies and all(body["cause"]["slices"] == [] for body in webhook.bodies)


@pytest.mark.parametrize("text", ["", "{", "[]", '{"finding": "found"}', '{"finding": "nope", "slices": []}'])
def test_a_stored_cause_that_is_not_one_is_none(text: str) -> None:
    assert Cause.from_json(text) is None
