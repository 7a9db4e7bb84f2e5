"""The HTML report in Debian's headless chromium: it renders, and a reader finds the story in it."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from browser_testing import Chromium, is_png, visible_text
from ragpulse_core.store import Store
from ragpulse_dashboards.report import collect_report, render_html
from ragpulse_scorers import metric_names
from report_data import SCORE_COLUMNS, SPAN_COLUMNS, request_spans, score_rows

HOUR_AGO = datetime.now(UTC) - timedelta(hours=1)


def fill_a_b(store: Store, *, hallucinated_a: int = 4, hallucinated_b: int = 20, n: int = 40) -> None:
    """Variants A and B with ``n`` scored requests each, all at one moment (one time bucket, whatever the
    clock: requests stamped as they are built could straddle a bucket's edge)."""
    moment = datetime.now(UTC) - timedelta(seconds=60)
    spans: list[list[object]] = []
    scores: list[list[object]] = []
    for variant, bad in (("A", hallucinated_a), ("B", hallucinated_b)):
        for index in range(n):
            number = index + (0 if variant == "A" else n)
            traced, request = request_spans(number, variant=variant, at=moment)
            spans += request
            hallucinated = index < bad
            scores += score_rows(
                traced,
                hallucinated=hallucinated,
                support=0.0 if hallucinated else 1.0,
                utilization=0.4 if variant == "A" else 0.7,
                unsupported=2 if hallucinated else 0,
            )
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    store.insert("ragpulse_scores", scores, SCORE_COLUMNS)


def _chart(dom: str, label: str) -> str:
    match = re.search(rf'<svg[^>]*aria-label="{re.escape(label)}".*?</svg>', dom, re.S)
    assert match, f"no chart {label!r}"
    return match.group(0)


def test_the_report_in_a_browser_leads_with_the_difference_and_shows_each_variant(
    store: Store, chromium: Chromium, tmp_path: Path
) -> None:
    fill_a_b(store)
    page = tmp_path / "report.html"
    page.write_text(
        render_html(collect_report(store, HOUR_AGO, hallucination_threshold=0.2)), encoding="utf-8"
    )

    dom = chromium.dump_dom(page.as_uri())
    text = visible_text(dom)
    # The verdict leads, with the rates it compares.
    assert re.search(r"Hallucination rate: B higher by 40\.0 points \[\d+\.\d, \d+\.\d\]", text), text[:600]
    assert "A 10.0% (n=40) → B 50.0% (n=40)" in text
    assert text.index("Is B better than A?") < text.index("Hallucination rate per variant")
    assert "all times are UTC" in text
    # B's rate is above the alert threshold: marked bad, and the threshold is drawn on both rate charts.
    assert '<span class="bad">50.0% [' in dom
    for label in ("Hallucination rate", "Hallucination rate per variant"):
        assert 'class="threshold"' in _chart(dom, label)
    # One time bucket: each variant still shows a marker of its own shape, side by side, with its interval.
    series = _chart(dom, "Hallucination rate")
    circle = re.search(r'<circle cx="([\d.]+)"[^>]*class="marker"', series)
    square = re.search(r'<rect x="([\d.]+)"[^>]*class="marker"', series)
    assert circle and square
    assert abs(float(circle.group(1)) - (float(square.group(1)) + 3.5)) >= 4
    assert series.count('class="errorbar"') == 2
    # Counts have their own chart; the 0-1 chart has no bar for them.
    assert "unsupported_sentences" in _chart(dom, "Mean count per answer and variant")
    assert "unsupported_sentences" not in _chart(dom, "Mean score per metric and variant (0–1)")
    assert re.search(
        r"unsupported_sentences lexical B − A \+0\.80 sentences \[[\d.]+, [\d.]+\] B higher by 0\.80"
        r" sentences \[[\d.]+, [\d.]+\]",
        text,
    ), text[text.index("unsupported_sentences") :][:300]
    # Units on the latency axis and bars; every metric explained.
    latency = _chart(dom, "Latency per step")
    assert re.findall(r">(\d+) ms<", latency)
    assert "What the metrics mean" in text
    for name in (
        value for key, value in vars(metric_names).items() if key.isupper() and isinstance(value, str)
    ):
        assert name in text, name

    shot = chromium.screenshot(page.as_uri(), tmp_path / "report.png")
    assert is_png(shot) and shot.stat().st_size > 50_000


def test_no_detectable_difference_is_said_plainly(store: Store, chromium: Chromium, tmp_path: Path) -> None:
    fill_a_b(store, hallucinated_a=4, hallucinated_b=5)
    page = tmp_path / "report.html"
    page.write_text(render_html(collect_report(store, HOUR_AGO)), encoding="utf-8")
    text = visible_text(chromium.dump_dom(page.as_uri()))
    assert "Hallucination rate: no detectable difference at n = 40" in text
