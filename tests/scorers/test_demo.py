"""``ragpulse demo`` end to end in a subprocess (chDB allows one data path per process)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


def _run_demo(tmp_path: Path, html: Path, *flags: str) -> str:
    """The demo's stdout; without a judge endpoint, so the lexical scorer judges and the run is repeatable."""
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
            "ragpulse_core.cli",
            "demo",
            *flags,
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
    return result.stdout


@pytest.mark.slow
def test_demo_sends_scores_and_reports_measured_against_injected(tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    out = _run_demo(tmp_path, html, "--requests", "20", "--inject", "0.2")
    assert "Hallucination rate per variant" in out
    assert "extractive stand-in" in out
    assert re.search(r"variant A: injected 20\.0% \(2/10\) · measured \d+\.\d% \[", out)
    assert (tmp_path / "state" / "chdb").is_dir()
    page = html.read_text(encoding="utf-8")
    assert page.count("<svg") >= 4 and "Measured vs injected" in page
    # 2 of 10 per variant: the 95% lower bound (5.7%) is far below the 20% threshold, so nothing fires.
    assert not re.search(r"^alert firing", out, re.M)
    assert re.search(r"no alert firing \(lexical\): variant A: 95% lower bound [\d.]+% below the 20\.0%", out)
    assert "Alerts (" not in page


@pytest.mark.slow
def test_demo_with_high_injection_shows_the_hallucination_alert_firing_per_variant(tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    out = _run_demo(tmp_path, html, "--requests", "60", "--inject", "0.6")
    for variant in ("A", "B"):
        assert re.search(
            rf"^alert firing: hallucination rate [\d.]+% \(95% CI [\d.]+%–[\d.]+%, n=30\)"
            rf" for service ragpulse-example, variant {variant}, scorer lexical; threshold 20\.0%",
            out,
            re.M,
        ), out[-3000:]
    assert "no alert firing" not in out
    assert "Alerts (2 firing" in out
    page = html.read_text(encoding="utf-8")
    assert "Alerts (2 firing" in page
    assert page.count("<span class='bad'>firing</span>") == 2


def test_demo_refuses_zero_requests(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ragpulse_core.cli", "demo", "--requests", "0", "--dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "--requests must be at least 1" in result.stdout + result.stderr
