"""A service that adds the decorators installs OpenTelemetry and nothing of ragpulse's back end."""

from __future__ import annotations

import os
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
SDK_PREFIXES = ("opentelemetry.sdk", "opentelemetry.exporter", "requests", "google.protobuf")


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


def test_import_loads_the_opentelemetry_api_and_configure_loads_the_sdk() -> None:
    script = (
        "import sys, ragpulse\n"
        "def heavy(): return sorted(m for m in sys.modules if m.startswith(SDK_PREFIXES))\n"
        f"SDK_PREFIXES = {SDK_PREFIXES!r}\n"
        "print(heavy())\n"
        "ragpulse.configure(service_name='lazy')\n"
        "print(bool(heavy()))\n"
    )
    env = {**os.environ, "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"}
    after_import, after_configure = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60, env=env
    ).stdout.splitlines()
    assert after_import == "[]"
    assert after_configure == "True"
