"""``make compose-config`` names a docker-compose.yml problem first, in one line, before docker-compose's own
output (which puts the reason after a dump of a whole environment block, or across YAML-parser lines)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from compose_testing import compose_check

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
pytestmark = pytest.mark.skipif(
    shutil.which("docker-compose") is None,
    reason="docker-compose not installed (apt-get install docker-compose)",
)


def _yaml_error(text: str) -> str:
    return text.replace("ports:", "ports: {oops", 1)


def _bad_condition(text: str) -> str:
    return text.replace("condition: service_healthy", "condition: service_happy", 1)


def _unknown_dependency(text: str) -> str:
    return text.replace("depends_on:", "depends_on:\n      nosuch:\n        condition: service_started", 1)


def _unchanged(text: str) -> str:
    return text


BROKEN: list[tuple[Callable[[str], str], str | None, str]] = [
    (_unchanged, None, 'in service "grafana": set GRAFANA_ADMIN_PASSWORD for the Grafana admin'),
    (_yaml_error, "pw", "not valid YAML at line"),
    (_bad_condition, "pw", 'condition contains "service_happy", which is an invalid type'),
    (_unknown_dependency, "pw", "Service 'migrate' depends on service 'nosuch' which is undefined"),
]


@pytest.mark.parametrize(("breaking", "password", "problem"), BROKEN, ids=[b.__name__ for b, _, _ in BROKEN])
def test_the_problem_comes_first_in_one_line(
    breaking: Callable[[str], str], password: str | None, problem: str, tmp_path: Path
) -> None:
    broken = tmp_path / "docker-compose.yml"
    broken.write_text(breaking(COMPOSE.read_text()))
    env = {k: v for k, v in os.environ.items() if k != "GRAFANA_ADMIN_PASSWORD"}
    if password:
        env["GRAFANA_ADMIN_PASSWORD"] = password
    done = subprocess.run(
        [sys.executable, str(ROOT / "docker" / "compose_check.py"), str(broken)],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode != 0
    first, *rest = done.stderr.splitlines()
    assert problem in first
    assert first.startswith("docker-compose.yml")
    assert len(first) < 300 and "{'" not in first  # the environment dump stays in the details below
    assert rest and all(line.startswith("    ") for line in rest)


def test_the_shipped_file_is_valid_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAFANA_ADMIN_PASSWORD", "test-only")
    code, report = compose_check().check(COMPOSE, [])
    assert (code, report.splitlines()[0]) == (0, "docker-compose.yml: valid")
