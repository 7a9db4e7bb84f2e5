"""A service that adds the decorators installs OpenTelemetry and nothing of ragpulse's back end."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[2] / "instrumentation" / "pyproject.toml"
BACK_END_MODULES = (
    "clickhouse_connect",
    "chdb",
    "openai",
    "apscheduler",
    "pydantic",
    "ragpulse_core",
    "ragpulse_collector",
    "ragpulse_scorers",
)


def test_the_distribution_depends_on_opentelemetry_only() -> None:
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    names = [re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0] for requirement in project["dependencies"]]
    assert names and all(name.startswith("opentelemetry-") for name in names), names


def test_importing_and_using_ragpulse_loads_no_back_end_module() -> None:
    script = (
        "import sys, ragpulse\n"
        "@ragpulse.rag\n"
        "def answer(question): return 'yes'\n"
        "answer('why?')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules}))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert "'ragpulse'" in loaded
    assert [module for module in BACK_END_MODULES if f"'{module}'" in loaded] == []
