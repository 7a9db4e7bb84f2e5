"""``ragpulse demo`` end to end in a subprocess (chDB allows one data path per process)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.slow
def test_demo_sends_scores_and_reports_measured_against_injected(tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "RAGPULSE_CONFIG")
    }
    env["COLUMNS"] = "200"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "ragpulse_collector.cli",
            "demo",
            "--requests",
            "20",
            "--inject",
            "0.5",
            "--dir",
            str(tmp_path / "state"),
            "--html",
            str(html),
            "--timeout",
            "120",
        ],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    assert "Hallucination rate per variant" in out
    assert "extractive stand-in" in out
    assert re.search(r"variant A: injected 50\.0% \(5/10\) · measured \d+\.\d% \[", out)
    assert (tmp_path / "state" / "chdb").is_dir()
    page = html.read_text(encoding="utf-8")
    assert page.count("<svg") >= 4 and "Measured vs injected" in page


def test_demo_refuses_zero_requests(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ragpulse_collector.cli", "demo", "--requests", "0", "--dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "--requests must be at least 1" in result.stdout + result.stderr
