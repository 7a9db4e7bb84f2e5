"""Alert notifications to a Slack-compatible webhook (a local HTTP server); `ragpulse alerts` listing."""

from __future__ import annotations

import json
import socket
import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest
from pydantic import ValidationError
from ragpulse_core.cli import main
from ragpulse_core.store import Store
from ragpulse_dashboards.alerts import evaluate_alerts, load_alerts
from ragpulse_dashboards.commands import alerts as alerts_command
from ragpulse_dashboards.settings import AlertSettings
from rich.console import Console

# Retries quick enough for a test.
FAST = {"delivery_backoff_s": 0.01, "delivery_backoff_max_s": 0.05}
SCORE_COLUMNS = ["TraceId", "RequestTime", "ScoredAt", "ServiceName", "Variant", "Scorer", "Metric", "Value"]


class Hook:
    """A webhook receiver on 127.0.0.1 that records every JSON body and answers ``status``."""

    def __init__(self, status: int = 200) -> None:
        self.bodies: list[dict[str, Any]] = []
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                hook.bodies.append(json.loads(self.rfile.read(length)))
                self.send_response(status)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def hook() -> Iterator[Hook]:
    server = Hook()
    yield server
    server.close()


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/hook"


def seed(store: Store, hallucinated: int, total: int, at: datetime) -> None:
    rows = [
        [uuid.uuid4().hex, at, at, "svc", "B", "lexical", "hallucination", float(i < hallucinated)]
        for i in range(total)
    ]
    store.insert("ragpulse_scores", rows, SCORE_COLUMNS)


def test_fire_and_resolve_post_slack_json(store: Store, hook: Hook) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    settings = AlertSettings(webhook_url=hook.url, min_samples=30)
    seed(store, 90, 200, now - timedelta(minutes=5))

    fired = evaluate_alerts(store, settings, now=now).fired
    assert len(fired) == 1 and fired[0].notify_error == ""
    evaluate_alerts(store, settings, now=now + timedelta(minutes=1))  # still firing: no second message
    for judged in ("ragpulse_scores", "ragpulse_request_verdicts"):  # the verdicts the rules read
        store.command(f"TRUNCATE TABLE {store.table(judged)}")
    seed(store, 2, 200, now)
    evaluate_alerts(store, settings, now=now + timedelta(minutes=2))

    assert len(hook.bodies) == 2
    firing, resolved = hook.bodies
    assert firing["text"].startswith("[FIRING] Hallucination rate above threshold")
    assert "45.0%" in firing["text"] and "variant B" in firing["text"] and "n=200" in firing["text"]
    assert [block["type"] for block in firing["blocks"]] == ["header", "section", "context"]
    assert firing["blocks"][0]["text"] == {
        "type": "plain_text",
        "text": "FIRING: Hallucination rate above threshold",
    }
    assert fired[0].alert_id in firing["blocks"][2]["elements"][0]["text"]
    assert resolved["text"].startswith("[RESOLVED] Hallucination rate above threshold")
    assert "1.0%" in resolved["text"]


def test_webhook_down_is_logged_and_state_still_recorded(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    seed(store, 90, 200, now - timedelta(minutes=5))
    settings = AlertSettings(webhook_url=closed_port_url(), webhook_timeout_s=2, **FAST)

    result = evaluate_alerts(store, settings, now=now)

    assert result.fired[0].notify_error.startswith("webhook (slack): unreachable: ConnectError")
    assert "alert notification failed" in caplog.text
    stored = load_alerts(store)
    assert [(r.state, r.notify_error) for r in stored] == [("firing", result.fired[0].notify_error)]


@pytest.mark.parametrize(
    "url", ["http://exa mple.invalid/hook", "http://h.invalid:99999/hook", "ftp://127.0.0.1/hook"]
)
def test_malformed_webhook_url_is_a_config_error_without_the_url(url: str) -> None:
    with pytest.raises(ValidationError) as raised:
        AlertSettings(webhook_url=url)
    [error] = raised.value.errors()
    assert error["loc"] == ("webhook_url",) and "must be an http:// or https:// URL" in error["msg"]
    assert "/hook" not in error["msg"]


def test_webhook_error_status_is_recorded(store: Store) -> None:
    failing = Hook(status=500)
    try:
        now = datetime.now(UTC).replace(microsecond=0)
        seed(store, 90, 200, now - timedelta(minutes=5))
        settings = AlertSettings(webhook_url=failing.url, delivery_attempts=3, **FAST)
        result = evaluate_alerts(store, settings, now=now)
    finally:
        failing.close()
    assert result.fired[0].notify_error == "webhook (slack): answered 500 (after 3 attempts)"
    assert len(failing.bodies) == 3


def test_cli_lists_firing_then_all(
    store: Store, chdb_dsn: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(alerts_command, "console", Console(width=400, no_color=True))
    monkeypatch.delenv("RAGPULSE_CONFIG", raising=False)
    now = datetime.now(UTC).replace(microsecond=0)
    seed(store, 90, 200, now - timedelta(minutes=5))

    assert main(["alerts", "--dsn", chdb_dsn]) == 0
    assert "no alerts firing" in capsys.readouterr().out

    assert main(["alerts", "--dsn", chdb_dsn, "--evaluate"]) == 0
    listing = capsys.readouterr().out
    assert "evaluated: 1 fired, 0 resolved, 1 firing" in listing
    assert "firing" in listing and "hallucination_rate" in listing and "svc" in listing
    assert "0.450" in listing and "200" in listing

    for judged in ("ragpulse_scores", "ragpulse_request_verdicts"):  # the verdicts the rules read
        store.command(f"TRUNCATE TABLE {store.table(judged)}")
    seed(store, 0, 200, now)
    assert main(["alerts", "--dsn", chdb_dsn, "--evaluate"]) == 0
    assert "no alerts firing" in capsys.readouterr().out
    assert main(["alerts", "--dsn", chdb_dsn, "--all"]) == 0
    history = capsys.readouterr().out
    assert "resolved" in history and "hallucination_rate" in history


def test_cli_reports_an_unreachable_store(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["alerts", "--dsn", "http://127.0.0.1:9/"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "error: cannot connect to http://127.0.0.1:9/: Connection refused",
        "start the database, or pass --dsn (store.dsn) naming one that runs",
    ]
