"""The compose stack's ragpulse services, as configured: credentials that survive any character, judges that
follow the LLM settings, a scorer healthcheck that sees ticks, steady example traffic, pinned installs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
import yaml
from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_EXECUTED
from apscheduler.schedulers.background import BackgroundScheduler
from packaging.requirements import Requirement
from ragpulse_scorers.pipeline import heartbeat
from ragpulse_scorers.settings import ScorersSettings

ROOT = Path(__file__).resolve().parents[1]
DOCKER_COMPOSE = shutil.which("docker-compose")
HOSTILE_PASSWORD = "p@ss/w:rd#?%"
PARTS = ("instrumentation", "core", "collector", "scorers", "examples")


@pytest.fixture(scope="module")
def rendered() -> dict[str, Any]:
    """``docker-compose config`` with a password full of URL delimiters."""
    if DOCKER_COMPOSE is None:
        pytest.skip("docker-compose not installed (apt-get install docker-compose)")
    env = {**os.environ, "GRAFANA_ADMIN_PASSWORD": "test-only", "CLICKHOUSE_PASSWORD": HOSTILE_PASSWORD}
    result = subprocess.run(
        [DOCKER_COMPOSE, "-f", str(ROOT / "docker-compose.yml"), "config"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    document: dict[str, Any] = yaml.safe_load(result.stdout)
    return document


def _settings(environment: dict[str, Any], monkeypatch: pytest.MonkeyPatch, **extra: str) -> ScorersSettings:
    for name in list(os.environ):
        if name.startswith(("RAGPULSE_", "OPENAI_")):
            monkeypatch.delenv(name)
    for name, value in {**environment, **extra}.items():
        if value is not None and name.startswith(("RAGPULSE_", "OPENAI_")):
            monkeypatch.setenv(name, str(value))
    return ScorersSettings.load()


@pytest.mark.parametrize("service", ["migrate", "collector", "scorer"])
def test_a_password_with_url_delimiters_reaches_clickhouse_intact(
    rendered: dict[str, Any], service: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    environment = rendered["services"][service]["environment"]
    assert HOSTILE_PASSWORD not in environment["RAGPULSE_STORE__DSN"]
    dsn = urlsplit(_settings(environment, monkeypatch).store.dsn)
    assert (dsn.hostname, dsn.port, dsn.path) == ("clickhouse", 8123, "/ragpulse")
    assert unquote(dsn.username or "") == "ragpulse" and unquote(dsn.password or "") == HOSTILE_PASSWORD


def test_openai_settings_turn_on_the_llm_judge(
    rendered: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    environment = rendered["services"]["scorer"]["environment"]
    assert _settings(environment, monkeypatch).scorer.scorers == ["lexical"]
    judged = _settings(environment, monkeypatch, OPENAI_BASE_URL="http://llm.internal:8000/v1")
    assert judged.scorer.scorers == ["lexical", "support"]
    chosen = _settings(environment, monkeypatch, OPENAI_API_KEY="k", RAGPULSE_SCORER__SCORERS='["lexical"]')
    assert chosen.scorer.scorers == ["lexical"]


def test_the_scorer_healthcheck_reads_the_heartbeat_its_ticks_write(rendered: dict[str, Any]) -> None:
    scorer = rendered["services"]["scorer"]
    test = scorer["healthcheck"]["test"]
    assert test[:4] == ["CMD", "python", "-m", "ragpulse_scorers.pipeline.heartbeat"]
    assert test[4] == scorer["environment"]["RAGPULSE_SCORER__HEARTBEAT_FILE"]
    assert float(test[5]) >= 3 * float(scorer["environment"]["RAGPULSE_SCORER__INTERVAL_S"])


def test_the_example_service_sends_traffic_continuously(rendered: dict[str, Any]) -> None:
    command = rendered["services"]["example"]["command"]
    assert "--forever" in command and float(command[command.index("--rate") + 1]) > 0


def _run_job_once(job: Any, path: Path) -> None:
    scheduler = BackgroundScheduler()
    done = threading.Event()
    scheduler.add_listener(lambda _event: done.set(), EVENT_JOB_EXECUTED | EVENT_JOB_ERROR)
    heartbeat.add_heartbeat(scheduler, "tick", path)
    # An interval job is kept after its run (a one-off job is removed, racing the shutdown below).
    scheduler.add_job(job, "interval", hours=1, id="tick", next_run_time=datetime.now(UTC))
    scheduler.start()
    try:
        assert done.wait(30)
    finally:
        scheduler.shutdown(wait=True)


def test_heartbeat_is_fresh_after_a_finished_tick_and_stale_without_one(tmp_path: Path) -> None:
    beat = tmp_path / "beat"
    _run_job_once(lambda: None, beat)
    assert heartbeat.main([str(beat), "90"]) == 0
    assert not heartbeat.is_fresh(beat, 90, now=beat.stat().st_mtime + 91)
    failing = tmp_path / "failing"

    def tick_that_fails() -> None:
        raise RuntimeError("store unavailable")

    _run_job_once(tick_that_fails, failing)
    assert heartbeat.main([str(failing), "90"]) == 1


def test_the_image_installs_pinned_dependencies() -> None:
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    installs = re.findall(r"pip install ([^\n]+)", dockerfile)
    assert installs and all("-c /tmp/constraints.txt" in line for line in installs), installs
    assert re.search(r"COPY docker/constraints.txt /tmp/constraints.txt", dockerfile)
    pins = {}
    for line in (ROOT / "docker" / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            requirement = Requirement(line)
            assert str(requirement.specifier).startswith("=="), line
            pins[requirement.name.lower().replace("_", "-")] = requirement
    for part in PARTS:
        project = tomllib.loads((ROOT / part / "pyproject.toml").read_text())["project"]
        for dependency in project.get("dependencies", []):
            name = Requirement(dependency).name.lower().replace("_", "-")
            if name.startswith("ragpulse"):
                continue
            assert name in pins, f"{part} depends on {name}, which docker/constraints.txt does not pin"
