"""Span data is untrusted: escape sequences and control characters in it are shown, never obeyed, in the
terminal report and the alerts listing (a traced answer must not clear the screen, retitle the window, forge
a hyperlink or overwrite the line that says an alert is firing)."""

from __future__ import annotations

import io
import unicodedata
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st
from ragpulse_core.printable import printable
from ragpulse_dashboards.alerts import AlertKey, AlertRecord
from ragpulse_dashboards.alerts.state import FIRING
from ragpulse_dashboards.commands.alerts import listing
from ragpulse_dashboards.report import render_terminal
from ragpulse_dashboards.report.model import (
    HallucinationRow,
    LatencyRow,
    MetricRow,
    Rate,
    ReportData,
    ScoringHealth,
    SpendRow,
    VariantTraffic,
    WorstRequest,
)
from rich.console import Console

ATTACKS = [
    "\x1b[2J\x1b[H",  # clear the screen
    "\x1b]0;pwned\x07",  # retitle the window
    "\x1b]8;;https://evil.invalid\x1b\\click\x1b]8;;\x1b\\",  # OSC 8 hyperlink
    "\x9b31m",  # C1 CSI in one character
    "\r\x1b[Kresolved",  # overwrite the line
    "\x08\x08\x08",
    "\u202eevil\u202c",  # right-to-left override
    "\x00\x7f\x85",
]
HOSTILE = st.lists(st.one_of(st.sampled_from(ATTACKS), st.text(max_size=12)), max_size=4).map("".join)
BIDI = {"\u061c", "\u200e", "\u200f", *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))}


def _unsafe(output: str) -> list[str]:
    return [c for c in output if (unicodedata.category(c) == "Cc" and c != "\n") or c in BIDI]


def _alert(text: str) -> AlertRecord:
    now = datetime.now(UTC)
    return AlertRecord(
        alert_id="a1", key=AlertKey("hallucination_rate", text, text, text), state=FIRING,
        fired_at=now - timedelta(minutes=5), resolved_at=None, updated_at=now, value=0.5, lower=0.3,
        upper=0.7, samples=40, threshold=0.2, summary=f"rate for {text}", notify_error=text,
    )  # fmt: skip


def _report(text: str) -> ReportData:
    now = datetime.now(UTC)
    return ReportData(
        generated_at=now, since=now - timedelta(hours=1), service=text, primary_scorer=text, bucket_s=60,
        variants=[VariantTraffic(text, 10, 1, 8)],
        hallucination=[HallucinationRow(text, text, Rate(2, 8))],
        metrics=[MetricRow(text, text, text, 8, 0.5)],
        latency=[LatencyRow(text, 10, 5.0, 9.0)],
        hallucination_series=[], traffic_series=[],
        worst=[WorstRequest(text, text, text, text, True, 0.0, [text])],
        spend=[SpendRow("2026-01-01", text, 0.1, 10, 5, 8)],
        scoring=ScoringHealth(10, 8, 1.0, 2.0, text, 0, {text: 3}),
        alerts=[_alert(text)],
    )  # fmt: skip


@given(HOSTILE)
def test_printable_leaves_no_control_character_and_keeps_plain_text(text: str) -> None:
    shown = printable(text)
    assert _unsafe(shown) == [] and "\n" not in shown
    if not _unsafe(text) and "\n" not in text and "\t" not in text:
        assert shown == text


@given(HOSTILE)
def test_terminal_report_neutralises_escape_sequences_from_span_data(text: str) -> None:
    buffer = io.StringIO()
    render_terminal(_report(text), Console(file=buffer, width=120, color_system=None))
    assert _unsafe(buffer.getvalue()) == []


@given(HOSTILE)
def test_alerts_listing_neutralises_escape_sequences_from_span_data(text: str) -> None:
    buffer = io.StringIO()
    Console(file=buffer, width=80, color_system=None).print(listing([_alert(text)]))
    assert _unsafe(buffer.getvalue()) == []


def test_an_escape_sequence_is_shown_as_text() -> None:
    buffer = io.StringIO()
    Console(file=buffer, width=120, color_system=None).print(listing([_alert("svc\x1b[2J")]))
    assert "svc\\x1b[2J" in buffer.getvalue()
