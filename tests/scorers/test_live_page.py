"""``ragpulse serve``'s live page, in Debian's headless chromium, while real OTLP traffic arrives; and what
``ragpulse report`` says about the database that serve holds (chDB opens a path in one process at a time)."""

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
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_testing import Chromium, visible_text

RAGPULSE = str(Path(sys.executable).with_name("ragpulse"))
START_TIMEOUT_S = 90
SCORED_TIMEOUT_S = 90


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAGPULSE_", "OPENAI_"))}
    env.update(RAGPULSE_SCORER__INTERVAL_S="1", RAGPULSE_SCORER__SETTLE_DELAY_S="0", COLUMNS="200")
    return env


def _wait_for(predicate: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(0.5)
    pytest.fail(f"timed out waiting for {what}")


def _get(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return str(response.read().decode("utf-8"))
    except OSError:
        return ""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str, str]]:
    """A running ``ragpulse serve``: its chDB path, collector URL and live page URL."""
    database = tmp_path / "db"
    collector = f"http://127.0.0.1:{_free_port()}"
    command = [RAGPULSE, "serve", "--dsn", f"chdb://{database}", "--port", collector.rsplit(":", 1)[1],
               "--live-port", "0"]  # fmt: skip
    log = (tmp_path / "serve.log").open("w")
    process = subprocess.Popen(
        command, cwd=tmp_path, env=_environment(), stdout=log, stderr=subprocess.STDOUT
    )
    note = tmp_path / "db.holder.json"
    try:
        _wait_for(note.exists, START_TIMEOUT_S, f"serve to start ({(tmp_path / 'serve.log').read_text()})")
        page = json.loads(note.read_text())["page_url"]
        _wait_for(lambda: _get(page + "healthz") == "ok\n", START_TIMEOUT_S, "the live page")
        yield database, collector, page
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
    assert not note.exists(), "serve leaves no holder note behind"


@pytest.mark.slow
def test_live_page_shows_each_variant_and_the_difference_and_report_points_to_it(
    served: tuple[Path, str, str], chromium: Chromium
) -> None:
    database, collector, page = served
    traffic = subprocess.run(
        [sys.executable, "-m", "ragpulse_example", "--endpoint", collector, "--requests", "40",
         "--inject", "0.3"],
        env=_environment(), capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    assert "variant B: 20 sent" in traffic.stdout

    def both_scored() -> bool:
        text = visible_text(_get(page))
        return bool(re.search(r"A [\d.]+% \(n=20\) → B [\d.]+% \(n=20\)", text))

    _wait_for(both_scored, SCORED_TIMEOUT_S, "both variants scored on the live page")

    dom = chromium.dump_dom(page)
    text = visible_text(dom)
    assert "reloads every 15 s" in text and 'http-equiv="refresh" content="15"' in dom
    verdict = r"Hallucination rate: (B (higher|lower) by [\d.]+ points|no detectable difference at n = 20)"
    assert re.search(verdict, text)
    assert re.search(r"hallucination rate lexical B − A [+-][\d.]+ points \[-?[\d.]+, -?[\d.]+\]", text)
    for variant in ("A", "B"):
        assert re.search(rf"lexical {variant} 20 \d+ [\d.]+% \[[\d.]+%, [\d.]+%\]", text), variant
    assert "What the metrics mean" in text

    for argv in (["report"], ["alerts"]):
        result = subprocess.run(
            [RAGPULSE, *argv, "--dsn", f"chdb://{database}"],
            env=_environment(), capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        said = (result.stdout + result.stderr).strip().splitlines()
        assert result.returncode == 1 and len(said) == 1, said
        assert "`ragpulse serve` (pid" in said[0] and f"its live report is at {page}" in said[0]
