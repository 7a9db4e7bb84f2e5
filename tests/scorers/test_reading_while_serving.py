"""While ``ragpulse serve`` holds the embedded database, ``requests``, ``report``, ``alerts`` and ``assembly
preview`` read through its live page with the same read token, and say in one line what to do when they
cannot (issue 27, item 4); ``requests`` reads well at 80 columns with each request's verdict, question and
answer; the live page lists unscored requests with their reasons."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from live_testing import TOKEN, fetch, running_page
from ragpulse_core.store import Store
from report_data import insert_request, insert_scores
from serve_process import otlp_root_spans

RAGPULSE = str(Path(sys.executable).with_name("ragpulse"))
START_TIMEOUT_S = 90
SCORED_TIMEOUT_S = 120
SCORED = ["5c" * 16, "6d" * 16, "7e" * 16]
NO_CONTEXT = "8f" * 16


@dataclass(frozen=True)
class Serving:
    database: Path
    page: str
    env: dict[str, str]


def _environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAGPULSE_", "OPENAI_", "OTEL_"))}
    env.update(RAGPULSE_SCORER__INTERVAL_S="1", RAGPULSE_SCORER__SETTLE_DELAY_S="0", COLUMNS="80", **extra)
    return env


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait(predicate, timeout: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.5)
    pytest.fail(f"timed out waiting for {what}")


def _traffic(collector: str) -> None:
    body = json.loads(otlp_root_spans([*SCORED, NO_CONTEXT]))
    spans = body["resourceSpans"][0]["scopeSpans"][0]["spans"]
    spans[-1]["attributes"] = [a for a in spans[-1]["attributes"] if a["key"] != "ragpulse.context"]
    request = urllib.request.Request(
        f"{collector}/v1/traces", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200


@contextmanager
def _serve(tmp_path: Path, env: dict[str, str], migrated_copy: Callable[[Path], Path]) -> Iterator[Serving]:
    database = migrated_copy(tmp_path / "db")
    port = _free_port()
    log = (tmp_path / "serve.log").open("w")
    process = subprocess.Popen(
        [RAGPULSE, "serve", "--dsn", f"chdb://{database}", "--port", str(port), "--live-port", "0"],
        cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    note = tmp_path / "db.holder.json"
    try:
        _wait(note.exists, START_TIMEOUT_S, "serve to start")
        _traffic(f"http://127.0.0.1:{port}")
        yield Serving(database, json.loads(note.read_text())["page_url"], env)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture
def serving(tmp_path: Path, migrated_copy: Callable[[Path], Path]) -> Iterator[Serving]:
    with _serve(tmp_path, _environment(RAGPULSE_LIVE__READ_TOKEN=TOKEN), migrated_copy) as running:
        yield running


def _run(serving: Serving, *argv: str, **env: str) -> tuple[int, str]:
    done = subprocess.run(
        [RAGPULSE, *argv, "--dsn", f"chdb://{serving.database}"], env={**serving.env, **env},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def test_requests_report_and_alerts_read_through_serve(serving: Serving, tmp_path: Path) -> None:
    def scored() -> bool:
        code, said = _run(serving, "requests")
        return code == 0 and said.count("supported (judge: lexical)") == len(SCORED)

    _wait(scored, SCORED_TIMEOUT_S, "the requests scored, read through serve")
    code, said = _run(serving, "requests")
    assert code == 0 and "holds" not in said
    assert max(len(line) for line in said.splitlines()) <= 80, said
    for trace in [*SCORED, NO_CONTEXT]:
        assert trace[:16] in said
    assert said.count("Q What is the capital of France?") == 4 and said.count("A Paris.") == 4
    assert "not scored: " in said and "1 not scored: " in said

    code, unscored = _run(serving, "requests", "--unscored")
    assert code == 0 and NO_CONTEXT[:16] in unscored and SCORED[0][:16] not in unscored

    page = tmp_path / "page.html"
    code, report = _run(serving, "report", "--html", str(page))
    assert code == 0 and "ragpulse report" in report and f"HTML report: {page}" in report
    html = page.read_text()
    assert "Requests not scored" in html and NO_CONTEXT in html

    code, alerts = _run(serving, "alerts", "--all")
    assert code == 0 and ("no alerts" in alerts or "ragpulse alerts" in alerts), alerts

    code, preview = _run(serving, "assembly", "preview", "--service", "billing-bot")
    assert code == 0 and "holds" not in preview, preview
    assert "No traces of service 'billing-bot' from other instrumentations" in " ".join(preview.split())

    code, refused = _run(serving, "requests", RAGPULSE_LIVE__READ_TOKEN="not-the-token")
    lines = refused.strip().splitlines()
    assert code == 1 and len(lines) == 1 and "answered 401" in lines[0] and "not-the-token" not in lines[0]

    env = {k: v for k, v in serving.env.items() if k != "RAGPULSE_LIVE__READ_TOKEN"}
    done = subprocess.run(
        [RAGPULSE, "report", "--dsn", f"chdb://{serving.database}"], env=env, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode == 1 and len(lines) == 1 and "RAGPULSE_LIVE__READ_TOKEN" in lines[0]
    assert f"its live report is at {serving.page}" in lines[0]


def test_the_read_api_takes_the_token_and_checks_its_parameters(store: Store) -> None:
    traced = insert_request(store, 1, variant="A", question="Which port does the collector use?")
    insert_scores(store, traced, hallucinated=True, support=0.1)
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    with running_page(store) as page:
        answer = fetch(page.url, "/api/v1/requests?since=1h&width=80", headers=bearer)
        assert answer.status == 200 and answer.headers["Content-Type"].startswith("application/json")
        read = json.loads(answer.body)
        assert read["exit"] == 0 and "Which port does the collector use?" in read["output"]
        assert "hallucinated (judge: lexical)" in read["output"]
        assert max(len(line) for line in read["output"].splitlines()) <= 80

        coloured = json.loads(fetch(page.url, "/api/v1/alerts?color=truecolor", headers=bearer).body)
        assert coloured["exit"] == 0
        report = json.loads(fetch(page.url, "/api/v1/report?html=1&width=120", headers=bearer).body)
        assert "ragpulse report" in report["output"] and report["html"].startswith("<!DOCTYPE html>")

        unsigned = fetch(page.url, "/api/v1/requests")
        assert unsigned.status == 401 and "Which port" not in unsigned.body
        for wrong in (
            "/api/v1/secrets",
            "/api/v1/requests?limit=0",
            "/api/v1/requests?since=soon",
            "/api/v1/requests?width=5",
            "/api/v1/report?html=yes",
            "/api/v1/report?color=neon",
            # These answered 500 (an OverflowError, a ValueError raised while the view was read).
            "/api/v1/requests?since=" + "9" * 400 + "d",
            "/api/v1/evaluator-requests?reads=%7Bnot-json",
            "/api/v1/rules-preview?rule=nope",
        ):
            refused = fetch(page.url, wrong, headers=bearer)
            assert refused.status == 400 and json.loads(refused.body)["error"], wrong


def test_a_token_serve_made_for_its_run_is_shared_with_the_same_user_only(
    tmp_path: Path, migrated_copy: Callable[[Path], Path]
) -> None:
    with _serve(tmp_path, _environment(), migrated_copy) as running:
        note = tmp_path / "db.holder.json"
        assert note.stat().st_mode & 0o777 == 0o600
        code, said = _run(running, "alerts")
        assert code == 0 and "no alerts" in said, said
        code, said = _run(running, "requests", "--unscored")
        assert code == 0 and NO_CONTEXT[:16] in said, said
