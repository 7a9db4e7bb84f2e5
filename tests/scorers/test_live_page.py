"""``ragpulse serve``'s live page, as the on-call engineer sees it in Debian's headless chromium, while two
services send real OTLP traffic; and what ``ragpulse report`` says about the database that serve holds (chDB
opens a path in one process at a time)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from browser_testing import Chromium, visible_text

RAGPULSE = str(Path(sys.executable).with_name("ragpulse"))
TRAFFIC = str(Path(__file__).with_name("service_traffic.py"))
START_TIMEOUT_S = 90
SCORED_TIMEOUT_S = 120
TOKEN = "on-call-7d41e0"


@dataclass(frozen=True)
class Served:
    database: Path
    collector: str
    page: str
    log: Path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAGPULSE_", "OPENAI_", "OTEL_"))}
    env.update(RAGPULSE_SCORER__INTERVAL_S="1", RAGPULSE_SCORER__SETTLE_DELAY_S="0", COLUMNS="200", **extra)
    return env


def _wait_for(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.5)
    pytest.fail(f"timed out waiting for {what}")


def _get(url: str, token: str | None = TOKEN) -> str:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return str(response.read().decode("utf-8"))
    except OSError:
        return ""


@pytest.fixture
def served(tmp_path: Path, migrated_copy: Callable[[Path], Path]) -> Iterator[Served]:
    """A running ``ragpulse serve`` whose page takes the read token from the environment."""
    database = migrated_copy(tmp_path / "db")
    collector = f"http://127.0.0.1:{_free_port()}"
    command = [RAGPULSE, "serve", "--dsn", f"chdb://{database}", "--port", collector.rsplit(":", 1)[1],
               "--live-port", "0"]  # fmt: skip
    log_path = tmp_path / "serve.log"
    log = log_path.open("w")
    process = subprocess.Popen(
        command, cwd=tmp_path, env=_environment(RAGPULSE_LIVE__READ_TOKEN=TOKEN), stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    note = tmp_path / "db.holder.json"
    try:
        _wait_for(note.exists, START_TIMEOUT_S, f"serve to start ({log_path.read_text()})")
        page = json.loads(note.read_text())["page_url"]
        _wait_for(lambda: _get(page + "healthz", None) == "ok\n", START_TIMEOUT_S, "the live page")
        yield Served(database, collector, page, log_path)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
    assert not note.exists(), "serve leaves no holder note behind"


def _send(collector: str, service: str, plan: str) -> None:
    subprocess.run([sys.executable, TRAFFIC, service, collector, plan], env=_environment(), check=True,
                   timeout=120, capture_output=True)  # fmt: skip


@pytest.mark.slow
def test_the_on_call_engineer_sees_each_service_against_its_own_baseline(
    served: Served, chromium: Chromium
) -> None:
    # search runs A against B; billing has no variant A: its B is the baseline of its unlabelled requests.
    _send(served.collector, "search", "A:30:3,B:30:18")
    _send(served.collector, "billing", "B:30:3,-:20:12")

    def all_scored() -> bool:
        text = visible_text(_get(served.page))
        return bool(re.search(r"billing 50 0 50 .* search 60 0 60 ", text))

    _wait_for(all_scored, SCORED_TIMEOUT_S, "both services scored on the live page")
    said = served.log.read_text()
    assert f"{served.page} (read token: live.read_token)" in said and TOKEN not in said

    tab = chromium.tab(1280, 800)
    try:
        tab.open(served.page)
        assert tab.evaluate("document.querySelector('form.signin') !== null")
        assert "traced questions" in tab.evaluate("document.body.innerText")

        tab.open(f"{served.page}?token={TOKEN}")
        assert tab.evaluate("location.href") == served.page  # signed in, the token gone from the address
        assert tab.evaluate("document.cookie") == ""  # HttpOnly: no script on the page can read it
        # The style sheet applies (its hash is in the policy) and the headline is above the fold, before the
        # services, the verdicts and the worst requests.
        assert tab.evaluate("getComputedStyle(document.querySelector('.tiles')).display") == "grid"
        tiles = tab.evaluate("JSON.stringify(document.querySelector('.tiles').getBoundingClientRect())")
        assert json.loads(tiles)["bottom"] <= 800
        order = tab.evaluate(
            "[...document.querySelectorAll('.tiles, .services-card, section.card h2')]"
            ".map(e => e.className || e.textContent)"
        )
        assert order[:3] == ["tiles", "card services-card", "Services (each against its own baseline)"]
        selector = tab.evaluate("[...document.querySelectorAll('nav.services a')].map(a => a.textContent)")
        assert selector == ["All services", "billing", "search"]
        text = " ".join(tab.evaluate("document.body.innerText").split())
        assert re.search(
            r"search 60 0 60 A [\d.]+% .* B − A: B higher by [\d.]+ points \[[\d.]+, [\d.]+\]", text
        )
        assert re.search(r"billing 50 0 50 B [\d.]+% .* \(no variant\) − B: \(no variant\) higher by", text)
        assert "billing: Hallucination rate: (no variant) higher by" in text
        assert "search: Hallucination rate: B higher by" in text

        tab.click("nav.services a[href='./?service=billing']")
        assert tab.evaluate("location.search") == "?service=billing"
        billing = " ".join(tab.evaluate("document.body.innerText").split())
        assert "ragpulse report · service billing" in billing
        assert "Hallucination rate: (no variant) higher by" in billing
        assert (
            "hallucination · variant B (n=30" in billing
            and "hallucination · variant (no variant) (n=20" in billing
        )
        assert "variant A" not in billing and "search" not in billing.replace("search", "", 1)
        assert tab.evaluate("document.querySelector('nav.services a[aria-current]').textContent") == "billing"

        tab.click("nav.services a[href='./?service=search']")
        search = " ".join(tab.evaluate("document.body.innerText").split())
        assert re.search(r"Hallucination rate: B higher by [\d.]+ points \[[\d.]+, [\d.]+\]", search)
        assert "(no variant)" not in search and "billing" not in search.replace("billing", "", 1)
    finally:
        tab.close()

    for argv in (["report"], ["alerts"]):
        result = subprocess.run(
            [RAGPULSE, *argv, "--dsn", f"chdb://{served.database}"],
            env=_environment(), capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        lines = (result.stdout + result.stderr).strip().splitlines()
        assert result.returncode == 1 and len(lines) == 1, lines
        assert "`ragpulse serve` (pid" in lines[0] and f"its live report is at {served.page}" in lines[0]


def test_serve_without_a_token_makes_one_and_shows_it_once_in_its_start_line(
    tmp_path: Path, migrated_copy: Callable[[Path], Path]
) -> None:
    log_path = tmp_path / "serve.log"
    database = migrated_copy(tmp_path / "db")
    command = [RAGPULSE, "serve", "--dsn", f"chdb://{database}", "--port", str(_free_port()),
               "--live-port", "0"]  # fmt: skip
    with log_path.open("w") as log:
        process = subprocess.Popen(
            command, cwd=tmp_path, env=_environment(), stdout=log, stderr=subprocess.STDOUT
        )
    try:
        _wait_for(lambda: "?token=" in log_path.read_text(), START_TIMEOUT_S, "serve's start line")
        said = log_path.read_text()
        match = re.search(
            r"live report on (http://127\.0\.0\.1:\d+/)\?token=([\w-]+) \(a token made for this run", said
        )
        assert match, said
        page, token = match.groups()
        assert said.count(token) == 1
        assert _get(page, None) == "" and "ragpulse report" in _get(page, token)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)


def test_serve_refuses_a_blank_read_token_in_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [RAGPULSE, "serve", "--dsn", f"chdb://{tmp_path / 'db'}", "--port", str(_free_port()),
         "--live-port", "0"],
        env=_environment(RAGPULSE_LIVE__READ_TOKEN=" "), cwd=tmp_path, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    lines = (result.stdout + result.stderr).strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1, lines
    assert "live.read_token is empty" in lines[0]
