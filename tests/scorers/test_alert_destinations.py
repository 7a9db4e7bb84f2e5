"""Alert destinations (Slack, PagerDuty Events v2, the generic webhook) against local HTTP receivers that
check every payload against the destination's documented schema; retries, refusals, rate limits and a dead
destination; failed notifications in the report and the live page; secrets never shown."""

from __future__ import annotations

import io
import json
import logging
import time
import tomllib
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from alert_receivers import Receiver, Trickle, closed_port_url, problems
from hypothesis import given, settings
from hypothesis import strategies as st
from live_testing import TOKEN, fetch, running_page
from pydantic import ValidationError
from ragpulse_core.store import Store
from ragpulse_dashboards.alerts import evaluate_alerts, load_alerts, payloads
from ragpulse_dashboards.alerts.delivery import Post, RetryPolicy, mask, send
from ragpulse_dashboards.alerts.notify import COLUMNS, TABLE, load_deliveries
from ragpulse_dashboards.alerts.rules import RULES, AlertKey
from ragpulse_dashboards.alerts.state import FIRING, RESOLVED, AlertRecord
from ragpulse_dashboards.report import render_html, render_terminal
from ragpulse_dashboards.report.collect import collect_alerting_report
from ragpulse_dashboards.settings import AlertSettings, DashboardsSettings, Severity
from rich.console import Console

SCORE_COLUMNS = ["TraceId", "RequestTime", "ScoredAt", "ServiceName", "Variant", "Scorer", "Metric", "Value"]
ROUTING_KEY = "R0UT1NGKEYSECRET0123456789abcdef"
# Retries fast enough for a test, and a deadline that still bounds every evaluation.
FAST = {"delivery_backoff_s": 0.05, "delivery_backoff_max_s": 0.2, "delivery_deadline_s": 10.0}


@pytest.fixture
def receivers() -> Iterator[list[Receiver]]:
    opened: list[Receiver] = []
    yield opened
    for receiver in opened:
        receiver.close()


def receiver(opened: list[Receiver], *args: Any, **kwargs: Any) -> Receiver:
    server = Receiver(*args, **kwargs)
    opened.append(server)
    return server


def seed(store: Store, hallucinated: int, total: int, at: datetime, service: str = "svc") -> None:
    rows = [
        [uuid.uuid4().hex, at, at, service, "B", "lexical", "hallucination", float(i < hallucinated)]
        for i in range(total)
    ]
    store.insert("ragpulse_scores", rows, SCORE_COLUMNS)


def fire_then_resolve(store: Store, settings: AlertSettings) -> tuple[AlertRecord, AlertRecord]:
    now = datetime.now(UTC).replace(microsecond=0)
    seed(store, 90, 200, now - timedelta(minutes=5))
    fired = evaluate_alerts(store, settings, now=now).fired
    evaluate_alerts(store, settings, now=now + timedelta(minutes=1))  # still firing: nothing sent
    for judged in ("ragpulse_scores", "ragpulse_request_verdicts"):  # the verdicts the rules read
        store.command(f"TRUNCATE TABLE {store.table(judged)}")
    seed(store, 2, 200, now)
    resolved = evaluate_alerts(store, settings, now=now + timedelta(minutes=2)).resolved
    assert len(fired) == 1 and len(resolved) == 1
    return fired[0], resolved[0]


def alert(
    state: str = FIRING, service: str = "svc", summary: str = "hallucination rate 45.0%"
) -> AlertRecord:
    at = datetime.now(UTC)
    return AlertRecord(
        uuid.uuid4().hex, AlertKey("hallucination_rate", service, "B"), state, at,
        at if state == RESOLVED else None, at, 0.45, 0.38, 0.52, 200, 0.2, summary,
    )  # fmt: skip


def test_slack_gets_valid_block_kit_messages_on_fire_and_resolve(
    store: Store, receivers: list[Receiver]
) -> None:
    slack = receiver(receivers, "slack_incoming_webhook")
    settings = AlertSettings(
        destinations=[{"kind": "slack", "name": "team", "url": slack.url}],
        link_url="http://ragpulse.internal:4319/",
        **FAST,
    )
    fired, resolved = fire_then_resolve(store, settings)

    assert slack.invalid == [] and len(slack.bodies) == 2
    firing, cleared = slack.bodies
    assert firing["blocks"][0]["text"]["text"] == "FIRING: Hallucination rate above threshold"
    assert cleared["blocks"][0]["text"]["text"] == "RESOLVED: Hallucination rate above threshold"
    assert "45.0%" in firing["text"] and "n=200" in firing["text"]
    fields = {
        field["text"].split("\n")[0]: field["text"].split("\n")[1] for field in firing["blocks"][1]["fields"]
    }
    assert fields["*Service*"] == "svc" and fields["*Variant*"] == "B" and fields["*Threshold*"] == "20.0%"
    assert fields["*Scorer*"] == "lexical"  # the judge whose verdicts the rate counted
    context = " ".join(element["text"] for element in firing["blocks"][2]["elements"])
    assert fired.alert_id in context and "<http://ragpulse.internal:4319/?service=svc|" in context
    assert fired.notify_error == "" and resolved.notify_error == ""
    delivered = load_deliveries(store, datetime.now(UTC) - timedelta(hours=1), None)
    assert sorted((row.event, row.destination, row.delivered, row.attempts) for row in delivered) == [
        ("firing", "team (slack)", True, 1),
        ("resolved", "team (slack)", True, 1),
    ]


def test_pagerduty_trigger_then_resolve_share_the_dedup_key(store: Store, receivers: list[Receiver]) -> None:
    pagerduty = receiver(receivers, "pagerduty_events_v2", ok=202)
    settings = AlertSettings(
        destinations=[{"kind": "pagerduty", "routing_key": ROUTING_KEY, "url": pagerduty.url}],
        link_url="https://ragpulse.example.com/live",
        **FAST,
    )
    fired, _ = fire_then_resolve(store, settings)

    assert pagerduty.invalid == [] and len(pagerduty.bodies) == 2
    trigger, resolve = pagerduty.bodies
    assert trigger["event_action"] == "trigger" and resolve["event_action"] == "resolve"
    assert trigger["dedup_key"] == resolve["dedup_key"] and fired.alert_id in trigger["dedup_key"]
    assert trigger["routing_key"] == resolve["routing_key"] == ROUTING_KEY
    event = trigger["payload"]
    assert (
        event["severity"] == "error" and event["source"] == "svc" and event["class"] == "hallucination_rate"
    )
    assert datetime.fromisoformat(event["timestamp"]) == fired.fired_at
    assert (
        event["custom_details"]["value"] == pytest.approx(0.45) and event["custom_details"]["samples"] == 200
    )
    assert event["custom_details"]["scorer"] == event["component"] == "lexical"
    assert trigger["links"] == [
        {"href": "https://ragpulse.example.com/live?service=svc", "text": "ragpulse: service svc"}
    ]


def test_each_alert_episode_gets_its_own_dedup_key() -> None:
    first, second = alert(), alert()
    keys = [payloads.pagerduty_event(record, ROUTING_KEY)["dedup_key"] for record in (first, second)]
    assert keys[0] != keys[1]
    resolved = AlertRecord(**{**first.__dict__, "state": RESOLVED, "resolved_at": datetime.now(UTC)})
    assert payloads.pagerduty_event(resolved, ROUTING_KEY)["dedup_key"] == keys[0]


def test_generic_webhook_follows_its_shipped_schema(store: Store, receivers: list[Receiver]) -> None:
    hook = receiver(receivers, "webhook")
    settings = AlertSettings(
        destinations=[
            {"kind": "webhook", "url": hook.url, "headers": {"Authorization": "Bearer hdr-secret-token"}}
        ],
        **FAST,
    )
    fired, resolved = fire_then_resolve(store, settings)

    assert hook.invalid == [] and len(hook.bodies) == 2
    firing, cleared = hook.bodies
    assert (
        firing["schema"] == "ragpulse.alert.v1"
        and firing["alert_id"] == cleared["alert_id"] == fired.alert_id
    )
    assert (firing["state"], cleared["state"]) == ("firing", "resolved")
    assert firing["rule"] == "hallucination_rate" and firing["threshold"] == pytest.approx(0.2)
    assert firing["scorer"] == cleared["scorer"] == "lexical"  # was "": the key names no scorer
    assert firing["value"] == pytest.approx(0.45) and firing["resolved_at"] is None
    assert datetime.fromisoformat(cleared["resolved_at"]) == resolved.resolved_at
    assert all(headers["Authorization"] == "Bearer hdr-secret-token" for headers in hook.headers)


def test_a_destination_failing_twice_is_retried_until_delivered(
    store: Store, receivers: list[Receiver]
) -> None:
    flaky = receiver(receivers, "slack_incoming_webhook", script=[(503, {}), (500, {})])
    settings = AlertSettings(destinations=[{"kind": "slack", "url": flaky.url}], **FAST)
    now = datetime.now(UTC).replace(microsecond=0)
    seed(store, 90, 200, now - timedelta(minutes=5))

    fired = evaluate_alerts(store, settings, now=now).fired

    assert len(flaky.bodies) == 3 and flaky.bodies[0] == flaky.bodies[2]
    assert fired[0].notify_error == ""
    [row] = load_deliveries(store, now - timedelta(hours=1), None)
    assert (row.delivered, row.attempts, row.status, row.error) == (True, 3, 200, "")
    waits = [later - earlier for earlier, later in zip(flaky.times, flaky.times[1:], strict=False)]
    assert all(wait >= 0.025 for wait in waits)  # half the first backoff step at least


def test_a_refused_payload_is_not_retried_and_is_recorded(
    store: Store, receivers: list[Receiver], caplog: pytest.LogCaptureFixture
) -> None:
    refusing = receiver(receivers, None, script=[(400, {})])
    settings = AlertSettings(destinations=[{"kind": "slack", "name": "team", "url": refusing.url}], **FAST)
    now = datetime.now(UTC).replace(microsecond=0)
    seed(store, 90, 200, now - timedelta(minutes=5))

    fired = evaluate_alerts(store, settings, now=now).fired

    assert len(refusing.bodies) == 1
    [row] = load_deliveries(store, now - timedelta(hours=1), None)
    assert (row.delivered, row.attempts, row.status) == (False, 1, 400)
    assert row.error == "answered 400: not now (after 1 attempt)"
    assert fired[0].notify_error == "team (slack): answered 400: not now (after 1 attempt)"
    assert load_alerts(store)[0].notify_error == fired[0].notify_error
    assert "alert notification failed: firing hallucination_rate to team (slack)" in caplog.text


def test_429_waits_as_long_as_retry_after_says(store: Store, receivers: list[Receiver]) -> None:
    limited = receiver(receivers, "pagerduty_events_v2", script=[(429, {"Retry-After": "1"})], ok=202)
    settings = AlertSettings(
        destinations=[{"kind": "pagerduty", "routing_key": ROUTING_KEY, "url": limited.url}], **FAST
    )
    now = datetime.now(UTC).replace(microsecond=0)
    seed(store, 90, 200, now - timedelta(minutes=5))

    evaluate_alerts(store, settings, now=now)

    assert len(limited.bodies) == 2 and limited.invalid == []
    assert limited.times[1] - limited.times[0] >= 0.95  # the backoff alone would have waited < 0.05 s
    [row] = load_deliveries(store, now - timedelta(hours=1), None)
    assert (row.delivered, row.attempts, row.status) == (True, 2, 202)


def test_retry_after_past_the_deadline_gives_up_at_once(store: Store, receivers: list[Receiver]) -> None:
    limited = receiver(receivers, None, script=[(429, {"Retry-After": "3600"})])
    settings = AlertSettings(
        destinations=[{"kind": "slack", "url": limited.url}], **{**FAST, "delivery_deadline_s": 5}
    )
    now = datetime.now(UTC).replace(microsecond=0)
    seed(store, 90, 200, now - timedelta(minutes=5))

    started = time.monotonic()
    fired = evaluate_alerts(store, settings, now=now).fired

    assert time.monotonic() - started < 4 and len(limited.bodies) == 1
    assert (
        "answered 429" in fired[0].notify_error
        and "would pass the delivery deadline" in fired[0].notify_error
    )


def test_an_unreachable_destination_is_recorded_and_the_others_still_told(
    store: Store, receivers: list[Receiver], caplog: pytest.LogCaptureFixture
) -> None:
    working = receiver(receivers, "slack_incoming_webhook")
    dead = closed_port_url()
    settings = AlertSettings(
        destinations=[
            {"kind": "webhook", "name": "down", "url": dead},
            {"kind": "slack", "name": "up", "url": working.url},
        ],
        delivery_attempts=3,
        **FAST,
    )
    now = datetime.now(UTC).replace(microsecond=0)
    seed(store, 90, 200, now - timedelta(minutes=5))

    started = time.monotonic()
    fired = evaluate_alerts(store, settings, now=now).fired

    assert time.monotonic() - started < settings.delivery_deadline_s
    assert len(working.bodies) == 1
    assert [(record.state, record.key.service) for record in load_alerts(store)] == [("firing", "svc")]
    rows = {row.destination: row for row in load_deliveries(store, now - timedelta(hours=1), None)}
    assert rows["up (slack)"].delivered and not rows["down (webhook)"].delivered
    assert rows["down (webhook)"].attempts == 3 and rows["down (webhook)"].status == 0
    assert rows["down (webhook)"].error.startswith("unreachable: ConnectError")
    assert fired[0].notify_error.startswith("down (webhook): unreachable")
    for secret in ("downsecrettoken42", "T0SECRET1", "B0SECRET2"):
        assert secret not in caplog.text and secret not in fired[0].notify_error


def test_the_deadline_bounds_an_evaluation_whose_destination_keeps_failing(
    store: Store, receivers: list[Receiver]
) -> None:
    failing = receiver(receivers, None, ok=503)
    settings = AlertSettings(
        destinations=[{"kind": "slack", "url": failing.url}],
        delivery_attempts=100,
        delivery_backoff_s=0.1,
        delivery_backoff_max_s=0.4,
        delivery_deadline_s=1.5,
    )
    now = datetime.now(UTC).replace(microsecond=0)
    seed(store, 90, 200, now - timedelta(minutes=5))

    started = time.monotonic()
    fired = evaluate_alerts(store, settings, now=now).fired

    assert time.monotonic() - started < 3.0
    assert 2 <= len(failing.bodies) < 100
    assert "answered 503" in fired[0].notify_error
    assert load_alerts(store)[0].state == "firing"


def test_an_answer_trickling_in_does_not_hold_the_evaluation_past_its_deadline(
    store: Store, receivers: list[Receiver], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    slow = Trickle(every_s=0.2)
    working = receiver(receivers, "pagerduty_events_v2", ok=202)
    try:
        settings = AlertSettings(
            destinations=[
                {"kind": "slack", "name": "slow", "url": slow.url, "timeout_s": 1},
                {"kind": "pagerduty", "routing_key": ROUTING_KEY, "url": working.url},
            ],
            delivery_deadline_s=2,
        )
        now = datetime.now(UTC).replace(microsecond=0)
        seed(store, 90, 200, now - timedelta(minutes=5))

        started = time.monotonic()
        fired = evaluate_alerts(store, settings, now=now).fired
        took = time.monotonic() - started
    finally:
        slow.close()

    assert took < 2 + 1 + 1.5  # the deadline, the grace, the evaluation's own queries
    assert len(working.bodies) == 1
    rows = {row.destination: row for row in load_deliveries(store, now - timedelta(hours=1), None)}
    assert rows["pagerduty"].delivered and not rows["slow (slack)"].delivered
    assert "still sending when the delivery deadline passed" in rows["slow (slack)"].error
    assert fired[0].notify_error.startswith("slow (slack): still sending")
    assert load_alerts(store)[0].state == "firing"
    assert "slowsecret42" not in caplog.text and ROUTING_KEY not in caplog.text


def test_httpx_request_logs_never_show_a_destination_url(
    store: Store, receivers: list[Receiver], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    # The CLI quiets httpx to WARNING (unless -v); a command run earlier in this process may have done so.
    caplog.set_level(logging.DEBUG, logger="httpx")
    slack = receiver(receivers, "slack_incoming_webhook")
    settings = AlertSettings(destinations=[{"kind": "slack", "url": slack.url}], **FAST)
    fire_then_resolve(store, settings)

    requests = [record.getMessage() for record in caplog.records if record.name == "httpx"]
    assert len(requests) == 2 and all("HTTP Request: POST" in line for line in requests)
    assert "hooksecrettoken42" not in caplog.text and "T0SECRET1" not in caplog.text


def test_failed_notifications_show_in_both_reports_without_secrets(
    store: Store, receivers: list[Receiver]
) -> None:
    refusing = receiver(receivers, None, script=[(404, {})])
    settings = AlertSettings(
        destinations=[
            {"kind": "slack", "name": "team", "url": refusing.url},
            {"kind": "pagerduty", "name": "oncall", "routing_key": ROUTING_KEY, "url": closed_port_url()},
        ],
        delivery_attempts=2,
        **FAST,
    )
    now = datetime.now(UTC).replace(microsecond=0)
    seed(store, 90, 200, now - timedelta(minutes=5))
    evaluate_alerts(store, settings, now=now)

    data = collect_alerting_report(store, now - timedelta(hours=1), None, settings)
    page = render_html(data)
    console = Console(width=300, record=True, file=io.StringIO())
    render_terminal(data, console)
    terminal = console.export_text()

    for shown in (page[page.index("Notifications") :], terminal[terminal.index("Notifications") :]):
        assert "2 failed" in shown and "team (slack)" in shown and "oncall (pagerduty)" in shown
        assert "answered 404" in shown and "unreachable" in shown
    for secret in (ROUTING_KEY, "hooksecrettoken42", "T0SECRET1", "B0SECRET2"):
        assert secret not in page and secret not in terminal


def test_failed_notifications_show_on_the_live_page(store: Store, receivers: list[Receiver]) -> None:
    refusing = receiver(receivers, None, script=[(410, {})])
    settings = AlertSettings(
        destinations=[{"kind": "slack", "name": "archived", "url": refusing.url}], **FAST
    )
    now = datetime.now(UTC).replace(microsecond=0)
    seed(store, 90, 200, now - timedelta(minutes=5))
    evaluate_alerts(store, settings, now=now)

    with running_page(store) as page:
        answer = fetch(page.url, "/", headers={"Authorization": f"Bearer {TOKEN}"})

    assert answer.status == 200
    section = answer.body[answer.body.index("Notifications (1 failed)") :]
    assert "archived (slack)" in section and "answered 410" in section
    assert "hooksecrettoken42" not in answer.body and "T0SECRET1" not in answer.body


def test_the_old_webhook_url_is_a_slack_destination(store: Store, receivers: list[Receiver]) -> None:
    slack = receiver(receivers, "slack_incoming_webhook")
    settings = AlertSettings(webhook_url=slack.url, **FAST)
    assert [(destination.kind, destination.label) for destination in settings.notified()] == [
        ("slack", "webhook (slack)")
    ]
    fire_then_resolve(store, settings)
    assert len(slack.bodies) == 2 and slack.invalid == []


@pytest.mark.parametrize(
    ("destination", "said"),
    [
        ({"kind": "slack", "url": "ftp://hooks.example/T0SECRET1"}, "must be an http:// or https:// URL"),
        ({"kind": "pagerduty"}, "routing_key"),
        ({"kind": "pagerduty", "routing_key": "   "}, "blank"),
        ({"kind": "sms", "url": "https://x.example/T0SECRET1"}, "slack"),
        ({"kind": "slack", "url": "https://x.example/T0SECRET1", "chanel": "#x"}, "chanel"),
    ],
)
def test_a_wrong_destination_is_a_clear_config_error(destination: dict[str, Any], said: str) -> None:
    with pytest.raises(ValidationError) as raised:
        AlertSettings(destinations=[destination])
    messages = " ".join(f"{error['loc']} {error['msg']}" for error in raised.value.errors())
    assert said in messages and "T0SECRET1" not in messages


def test_destinations_need_distinct_names() -> None:
    twice = [{"kind": "slack", "url": "https://a.example/1"}, {"kind": "slack", "url": "https://a.example/2"}]
    with pytest.raises(ValidationError, match="two alert destinations are named slack"):
        AlertSettings(destinations=twice)
    named = [{**twice[0], "name": "a"}, {**twice[1], "name": "b"}]
    assert [d.label for d in AlertSettings(destinations=named).notified()] == ["a (slack)", "b (slack)"]


def test_destinations_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAGPULSE_CONFIG", raising=False)
    monkeypatch.setenv(
        "RAGPULSE_ALERTS__DESTINATIONS",
        json.dumps([{"kind": "pagerduty", "routing_key": ROUTING_KEY, "severity": "critical"}]),
    )
    [destination] = DashboardsSettings().alerts.notified()
    assert destination.kind == "pagerduty" and ROUTING_KEY not in repr(destination)
    assert destination.secrets()[0] == ROUTING_KEY


def test_secrets_are_masked_even_in_pieces() -> None:
    url = "https://hooks.slack.com/services/T0SECRET1/B0SECRET2/hooksecrettoken42"
    said = mask(
        f"failed posting to {url}, path /services/T0SECRET1/B0SECRET2/hooksecrettoken42, B0SECRET2", [url]
    )
    assert said == "failed posting to ***, path ***, ***"


@settings(max_examples=60, deadline=None)
@given(retry=st.integers(1, 30), base=st.floats(0.01, 5), cap=st.floats(0.01, 60), share=st.floats(0, 1))
def test_backoff_doubles_with_jitter_and_stays_under_its_cap(
    retry: int, base: float, cap: float, share: float
) -> None:
    policy = RetryPolicy(attempts=retry + 1, backoff_s=base, backoff_max_s=cap)
    step = min(cap, base * 2 ** (retry - 1))
    wait = policy.backoff(retry, lambda low, high: low + share * (high - low))
    assert step / 2 <= wait <= step + 1e-9
    assert policy.backoff(retry, lambda low, high: low) <= policy.backoff(retry + 1, lambda low, high: low)


names = st.text(min_size=0, max_size=400)


@settings(max_examples=80, deadline=None)
@given(
    service=names,
    summary=st.text(min_size=0, max_size=5000),
    rule=st.sampled_from([*RULES, "a_rule_from_a_later_version"]),
    state=st.sampled_from([FIRING, RESOLVED]),
    value=st.floats(allow_nan=True, allow_infinity=True),
    link=st.one_of(st.none(), st.just("https://ragpulse.example/live"), st.just("http://h:1/?a=b")),
)
def test_every_alert_maps_to_payloads_each_schema_accepts(
    service: str, summary: str, rule: str, state: str, value: float, link: str | None
) -> None:
    at = datetime.now(UTC)
    record = AlertRecord(
        uuid.uuid4().hex, AlertKey(rule, service, "B", "support"), state, at,
        at if state == RESOLVED else None, at, value, 0.0, value, 7, 0.2, summary,
    )  # fmt: skip
    documents = {
        "slack_incoming_webhook": payloads.slack_message(record, link),
        "pagerduty_events_v2": payloads.pagerduty_event(record, ROUTING_KEY, None, link),
        "webhook": payloads.webhook_event(record, link),
    }
    for name, document in documents.items():
        encoded = json.dumps(document, allow_nan=False, ensure_ascii=False).encode("utf-8", "replace")
        assert problems(json.loads(encoded), name) == [], name


def test_a_hostile_service_name_pings_nobody_in_slack() -> None:
    message = payloads.slack_message(alert(service="<!channel> & co", summary="rate for <!here>"))
    rendered = json.dumps(message)
    assert "<!channel>" not in rendered and "<!here>" not in rendered
    assert "&lt;!channel&gt; &amp; co" in rendered
    header = message["blocks"][0]["text"]["text"]
    assert header == "FIRING: Hallucination rate above threshold"


def test_long_text_is_cut_within_each_limit() -> None:
    record = alert(summary="x" * 5000)
    record = AlertRecord(**{**record.__dict__, "key": AlertKey("r" * 400, "s" * 3000, "B")})
    slack = payloads.slack_message(record)
    assert len(slack["blocks"][0]["text"]["text"]) == 150 and slack["blocks"][0]["text"]["text"].endswith("…")
    assert len(slack["blocks"][1]["text"]["text"]) == 3000
    event = payloads.pagerduty_event(record, ROUTING_KEY)
    assert len(event["payload"]["summary"]) == 1024
    assert problems(slack, "slack_incoming_webhook") == [] and problems(event, "pagerduty_events_v2") == []


def test_no_destination_sends_nothing_and_records_nothing(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    now = datetime.now(UTC).replace(microsecond=0)
    seed(store, 90, 200, now - timedelta(minutes=5))
    fired = evaluate_alerts(store, AlertSettings(), now=now).fired
    assert fired[0].notify_error == "" and load_deliveries(store, now - timedelta(hours=1), None) == []


ROOT = Path(__file__).resolve().parents[2]


def test_the_documented_example_configures_all_three_kinds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RAGPULSE_CONFIG", raising=False)
    page = (ROOT / "docs" / "dashboards.md").read_text()
    section = page[page.index("## Alert destinations") :]
    block = section[
        section.index("```toml\n") + len("```toml\n") : section.index("\n```", section.index("```toml"))
    ]
    config = tmp_path / "ragpulse.toml"
    config.write_text(block)

    alerts = DashboardsSettings.load(config).alerts

    assert [(d.kind, d.label) for d in alerts.notified()] == [
        ("slack", "rag-team (slack)"),
        ("pagerduty", "on-call (pagerduty)"),
        ("webhook", "ops (webhook)"),
    ]
    assert alerts.link_url == "https://ragpulse.internal:4319/"


def test_the_example_config_destinations_work_once_uncommented() -> None:
    example = (ROOT / "ragpulse.example.toml").read_text()
    start = example.index("# [[alerts.destinations]]")
    commented = example[start : example.index("\n[", start)]
    document = tomllib.loads(
        "\n".join(line.removeprefix("#").removeprefix(" ") for line in commented.splitlines())
    )
    kinds = [d.kind for d in AlertSettings(**document["alerts"]).notified()]
    assert kinds == ["slack", "pagerduty", "webhook"]


@pytest.mark.parametrize(
    ("status", "attempts"),
    [
        (408, 2),
        (429, 2),
        (500, 2),
        (502, 2),
        (503, 2),
        (400, 1),
        (401, 1),
        (403, 1),
        (404, 1),
        (410, 1),
        (301, 1),
    ],
)
def test_which_answers_are_retried(status: int, attempts: int, receivers: list[Receiver]) -> None:
    server = receiver(receivers, None, script=[(status, {})])
    policy = RetryPolicy(attempts=3, backoff_s=0.01, backoff_max_s=0.02)
    with httpx.Client() as client:
        outcome = send(
            client, Post(server.url, {"text": "hi"}, 2.0, [server.url]), policy, time.monotonic() + 10
        )
    assert len(server.bodies) == attempts and outcome.attempts == attempts
    assert outcome.delivered == (attempts == 2) and outcome.status == (200 if attempts == 2 else status)


def test_pagerduty_severity_by_rule_unless_the_destination_sets_one() -> None:
    def severity(rule: str, chosen: Severity | None = None) -> str:
        record = AlertRecord(**{**alert().__dict__, "key": AlertKey(rule, "svc")})
        return str(payloads.pagerduty_event(record, ROUTING_KEY, chosen)["payload"]["severity"])

    assert [severity(rule) for rule in RULES] == ["error", "warning", "error", "warning", "error", "warning"]
    assert severity("judge_errors", "critical") == "critical"


def test_the_report_counts_every_notification_and_lists_the_newest_failures(store: Store) -> None:
    now = datetime.now(UTC)
    rows = [
        [f"a{i}", "firing", "team (slack)", "slack", "hallucination_rate", "svc", "B", "", f"alert {i}",
         i >= 70, 1, 500 if i < 70 else 200, f"answered 500 #{i}" if i < 70 else "",
         now - timedelta(seconds=i), now - timedelta(seconds=i)]
        for i in range(75)
    ]  # fmt: skip
    store.insert(TABLE, rows, COLUMNS)

    data = collect_alerting_report(store, now - timedelta(hours=1), None, AlertSettings())
    page = render_html(data)

    assert (data.notifications.failed_total, data.notifications.delivered_total) == (70, 5)
    assert "Notifications (70 failed, 5 delivered)" in page and "the newest 50 of 70 listed" in page
    assert "answered 500 #0<" in page and "answered 500 #49<" in page and "answered 500 #50<" not in page


@pytest.mark.parametrize("link", ["ragpulse.internal:4319", "javascript:alert(1)", "http://h:99999/"])
def test_a_link_url_must_be_http(link: str) -> None:
    with pytest.raises(ValidationError, match="must be an http:// or https:// URL"):
        AlertSettings(link_url=link)
