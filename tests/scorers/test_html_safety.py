"""Traced text is untrusted wherever it is shown: in the HTML report and the live page, control characters
(ESC, NUL, C1), bidirectional overrides, invisible tag characters and lone surrogates come out as visible
escapes, and markup comes out as text, never as elements or attributes; the terminal report likewise."""

from __future__ import annotations

import io
import unicodedata
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

from hypothesis import given
from hypothesis import strategies as st
from ragpulse_core.printable import printable
from ragpulse_dashboards.alerts import AlertKey, AlertRecord
from ragpulse_dashboards.alerts.notify import NotificationLog, Notified
from ragpulse_dashboards.alerts.state import FIRING
from ragpulse_dashboards.report import render_html, render_terminal
from ragpulse_dashboards.report.format import html_text
from ragpulse_dashboards.report.html import ServiceSelector
from ragpulse_dashboards.report.model import (
    AlertLimits,
    Difference,
    HallucinationRow,
    LatencyRow,
    MetricRow,
    NotScored,
    Rate,
    ReportData,
    ScoringHealth,
    SeriesPoint,
    SpendRow,
    VariantTraffic,
    WorstRequest,
)
from rich.console import Console

ATTACKS = [
    "\x1b[2J\x1b[H",
    "\x1b]8;;https://evil.invalid\x1b\\click\x1b]8;;\x1b\\",
    "\x00",
    "\x9b31m",
    "\u202eevil\u202c",
    "\u2066isolate\u2069",
    "\U000e0049\U000e0067\U000e006e",  # "Ign" in invisible tag characters
    "\ud800",  # a lone surrogate: cannot even be encoded as UTF-8
    "\u2028",
    "<script>alert(1)</script>",
    "' onmouseover='alert(1)",
    '" autofocus onfocus="alert(1)',
    "</title><img src=x>",
]
HOSTILE = st.lists(st.one_of(st.sampled_from(ATTACKS), st.text(max_size=10)), min_size=1, max_size=4).map(
    "".join
)
BIDI = {"\u061c", "\u200e", "\u200f", *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))}


def unsafe(output: str) -> list[str]:
    return [
        c
        for c in output
        if (unicodedata.category(c) in ("Cc", "Cs") and c != "\n") or c in BIDI or 0xE0000 <= ord(c) < 0xE0080
    ]


class Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attributes: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes.update(name for name, _ in attrs)


def report(text: str) -> ReportData:
    now = datetime.now(UTC)
    alert = AlertRecord(
        alert_id="a1", key=AlertKey("hallucination_rate", text, text, text), state=FIRING,
        fired_at=now - timedelta(minutes=5), resolved_at=None, updated_at=now, value=0.5, lower=0.3,
        upper=0.7, samples=40, threshold=0.2, summary=f"rate for {text}", notify_error=text,
    )  # fmt: skip
    return ReportData(
        generated_at=now, since=now - timedelta(hours=1), service=None, primary_scorer=text, bucket_s=60,
        variants=[VariantTraffic(text, 10, 1, 8, text), VariantTraffic("A", 10, 1, 8, "other")],
        hallucination=[HallucinationRow(text, text, Rate(2, 8), text),
                       HallucinationRow(text, "", Rate(6, 8), text)],
        metrics=[MetricRow(text, text, text, 8, 0.5, 0.1, text)],
        latency=[LatencyRow(text, 10, 5.0, 9.0)],
        hallucination_series=[SeriesPoint(int(now.timestamp()), text, Rate(2, 8), text)], traffic_series=[],
        worst=[WorstRequest(text, text, text, text, True, 0.0, [text], text)],
        spend=[SpendRow("2026-01-01", text, 0.1, 10, 5, 8)],
        scoring=ScoringHealth(10, 8, 1.0, 2.0, text, 0, {text: 3}),
        alerts=[alert],
        notifications=NotificationLog(
            [Notified("a1", FIRING, text, "slack", text, text, text, text, text, False, 3, 500, text, now)],
            failed_total=2,
            delivered_total=1,
        ),
        differences=[Difference(text, "hallucination", text, "", 0.5, 0.1, 0.8, 8, 8, True, text)],
        hallucination_threshold=0.2, alert_limits=AlertLimits(30, 60), not_scored=[NotScored(text, text, 2)],
    )  # fmt: skip


@given(HOSTILE)
def test_the_html_report_shows_hostile_text_as_text(text: str) -> None:
    page = render_html(report(text), refresh_s=15, selector=ServiceSelector([text, "other"], text))
    page.encode("utf-8")  # a lone surrogate would make this raise, and the page fail to serve
    assert unsafe(page) == []
    elements = Elements()
    elements.feed(page)
    assert not elements.tags & {"script", "img", "iframe", "object"}
    assert not {name for name in elements.attributes if name.startswith("on") or name == "autofocus"}


@given(HOSTILE)
def test_the_terminal_report_shows_hostile_text_as_text(text: str) -> None:
    buffer = io.StringIO()
    render_terminal(report(text), Console(file=buffer, width=160, color_system=None))
    assert unsafe(buffer.getvalue()) == []


@given(st.text())
def test_neutralising_keeps_ordinary_text_and_escapes_the_rest(text: str) -> None:
    shown = printable(text)
    assert unsafe(shown) == [] and "\n" not in shown
    if not unsafe(text) and not set(text) & {"\n", "\t", "\u2028", "\u2029"}:
        assert shown == text
    assert "<" not in html_text(text) and "'" not in html_text(text)


def test_an_escape_and_an_override_are_visible_in_the_page() -> None:
    page = render_html(report("svc\x1b[2J\u202eB\x00"))
    assert "svc\\x1b[2J\\u202eB\\x00" in page
