"""``ragpulse demo`` end to end in a subprocess (chDB allows one data path per process)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from browser_testing import Chromium
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ("report.png", "live.png", "review.png", "request.png")


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


@dataclass(frozen=True)
class DemoRun:
    state: Path
    html: Path
    out: str


@pytest.fixture(scope="module")
def default_demo(tmp_path_factory: pytest.TempPathFactory) -> DemoRun:
    """One default ``ragpulse demo``, shared by its story test, its time charts and the screenshots made from
    its data."""
    tmp_path = tmp_path_factory.mktemp("default-demo")
    html = tmp_path / "report.html"
    return DemoRun(tmp_path / "state", html, _run_demo(tmp_path, html))


@pytest.mark.slow
def test_default_demo_tells_the_story_b_got_worse_and_the_alert_fires_for_b_only(
    default_demo: DemoRun,
) -> None:
    html, out = default_demo.html, default_demo.out
    lead, _, rest = out.partition("ragpulse report ·")
    # The lead comes first: B − A with an interval above 0, B's alerts (with value and interval), A quiet.
    verdict = re.search(
        r"hallucination rate \(lexical\): B higher than A by ([\d.]+) points \[([\d.]+), ([\d.]+)\]", lead
    )
    assert verdict, out[-4000:]
    difference, lower, upper = map(float, verdict.groups())
    assert 0 < lower < difference < upper
    assert re.search(
        r"alert firing for B: hallucination rate [\d.]+% \(95% CI [\d.]+%–[\d.]+%, n=\d+\)"
        r" for service ragpulse-example, variant B, judged by lexical; threshold 20\.0%",
        lead,
    )
    assert re.search(
        r"alert firing for B: support rate [\d.]+% \(95% CI [\d.]+%–[\d.]+%, n=\d+\) .*variant B.*;"
        r" baseline [\d.]+% \(lower bound [\d.]+%, n=\d+\)",
        lead,
    )
    assert "alert firing for A" not in out and "no alert for A" in lead
    assert "the support-drop baseline is the run's first" in lead
    # Why: B's worst requests, each traced to what the service did to it.
    why = lead.partition("why, worst first (variant B):")[2]
    assert re.search(r"1\. [0-9a-f]{16} · support [\d.]+ · (planted statement|degraded retrieval)", why)
    assert "✗" in why
    # The truth table: A had no degraded retrieval, B some; the judge caught what was caused.
    assert re.search(r"variant A: planted 5\.0% \(5/100\), degraded retrieval 0/100 ·", rest)
    assert re.search(r"variant B: planted 10\.0% \(10/100\), degraded retrieval [1-9]\d*/100 ·", rest)
    alerts = re.findall(r"^alert firing: (.*)$", rest, re.M)
    assert alerts and all("variant B" in alert for alert in alerts)
    page = html.read_text(encoding="utf-8")
    story = page.index("What this run shows")
    assert story < page.index("Alerts (") and story < page.index("Hallucination rate per variant")
    assert re.search(r"B higher than A by [\d.]+ points \[[\d.]+, [\d.]+\]", page)
    assert "alert firing for B: hallucination rate" in page and "no alert for A" in page
    assert "Measured vs injected" in page and "ragpulse.example.degraded_retrieval" in page


@pytest.mark.slow
def test_demo_sends_scores_and_reports_measured_against_injected(tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    # Nothing here reads the time charts: the requests go as fast as the service answers, not over 20 s.
    out = _run_demo(
        tmp_path, html, "--requests", "20", "--inject", "0.2", "--drift", "none", "--duration", "0"
    )
    assert "Hallucination rate per variant" in out
    assert "extractive stand-in" in out
    assert re.search(
        r"variant A: planted 20\.0% \(2/10\), degraded retrieval 0/10 · measured \d+\.\d% \[", out
    )
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
    # Without drift the alerts are evaluated over the whole run, however long: no need to spread it over 20 s.
    out = _run_demo(
        tmp_path, html, "--requests", "60", "--inject", "0.6", "--drift", "none", "--duration", "0"
    )
    for variant in ("A", "B"):
        assert re.search(
            rf"^alert firing: hallucination rate [\d.]+% \(95% CI [\d.]+%–[\d.]+%, n=30\)"
            rf" for service ragpulse-example, variant {variant}, judged by lexical; threshold 20\.0%",
            out,
            re.M,
        ), out[-3000:]
    assert "no alert firing" not in out
    assert "Alerts (2 firing" in out
    page = html.read_text(encoding="utf-8")
    assert "Alerts (2 firing" in page
    assert page.count("<span class='bad'>firing</span>") == 2


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--requests", "0"], "--requests must be at least 1"),
        (["--inject", "B=half"], "--inject: 'B=half' is not a rate"),
        (["--drift", "Z=0.5"], "--drift: unknown variant 'Z'"),
    ],
)
def test_demo_refuses_bad_input_with_one_clear_line(tmp_path: Path, flags: list[str], message: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ragpulse_core.cli", "demo", *flags, "--dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert message in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_the_demos_time_charts_have_a_bucket_a_second_over_the_traffic(default_demo: DemoRun) -> None:
    # The default run, as a user sees it: its traffic spread over the default --duration 20 s.
    page = default_demo.html.read_text()
    start = page.index("Hallucination rate over time")
    chart = page[start : page.index("</section>", start)]
    assert "buckets of 1.0 s" in chart
    # Each variant has a marker per bucket it was scored in: most of the traffic's twenty seconds, before and
    # after the drift point, not two or three bars.
    for variant in ("A", "B"):
        assert len(re.findall(rf"<title>variant {variant}: ", chart)) >= 12


@pytest.mark.slow
def test_the_docs_screenshots_are_made_from_the_demos_data(
    default_demo: DemoRun, chromium: Chromium, tmp_path: Path
) -> None:
    """scripts/screenshots.py on the default demo's data: the report, and under `ragpulse serve` the live
    page, the review queue and a request's page. The script fails on a page that errors or lacks what it
    shows, and on a blank screenshot; here each PNG must exist, be the viewport's width and hold a picture."""
    out = tmp_path / "img"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "screenshots.py"), "--out", str(out), "--demo",
         str(default_demo.state), "--report", str(default_demo.html), "--chromium", chromium.binary],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(path.name for path in out.iterdir()) == sorted(SHOTS)
    for name in SHOTS:
        with Image.open(out / name) as image:
            assert image.format == "PNG" and image.width == 1280 and image.height >= 800, name
            colours = image.convert("RGB").getcolors(maxcolors=1 << 24) or []
            assert len(colours) > 16, f"{name}: {len(colours)} colours, not a rendered page"
    assert {path.name for path in (ROOT / "docs" / "img").glob("*.png")} >= set(SHOTS)
