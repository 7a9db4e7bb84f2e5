"""The request page and the conversation pages in Debian's headless chromium, on the demo's traffic: the
example RAG-Fusion service sends its questions over real OTLP/HTTP to the collector, the free judge scores
them, the root-cause job writes their facts, and a person signed in to the live page opens a request (its
waterfall, its variations and rankings, the fused chunks and each sentence's evidence) and a conversation
(its turns and their verdicts). Screenshots are written next to the test's temporary files, and under
$RAGPULSE_SCREENSHOTS when set."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from browser_testing import Chromium, DevTools, is_png
from ragpulse_collector.server import CollectorServer
from ragpulse_core.store import Store
from ragpulse_dashboards.live import LivePage
from ragpulse_dashboards.rootcause.facts import update_facts
from ragpulse_dashboards.settings import DashboardsSettings, RootCauseSettings
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.pipeline.tick import ScoringJob

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scorers"))
from live_testing import TOKEN, running_page

REQUESTS = 24


@pytest.fixture
def demo_page(store: Store, collector: CollectorServer) -> Iterator[LivePage]:
    """The demo's kind of traffic, judged, with its facts; and the live page over it."""
    subprocess.run(
        [sys.executable, "-m", "ragpulse_example", "--endpoint", collector.url, "--requests", str(REQUESTS),
         "--inject", "A=0.1,B=0.3", "--seed", "3"],
        check=True, capture_output=True, timeout=180,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while store.query(f"SELECT count() FROM {store.table('ragpulse_requests')}")[0][0] < REQUESTS:
        assert time.monotonic() < deadline, "the example's requests did not land"
        time.sleep(0.2)
    # A request's row can land before the last of its spans (the collector writes in batches).
    spans, landed = -1, store.query(f"SELECT count() FROM {store.table('otel_traces')}")[0][0]
    while landed != spans:
        assert time.monotonic() < deadline, "the example's spans did not stop landing"
        time.sleep(1.0)
        spans, landed = landed, store.query(f"SELECT count() FROM {store.table('otel_traces')}")[0][0]
    settings = DashboardsSettings.load(store={"dsn": "chdb:///unused"}, scorer={"settle_delay_s": 0})
    ScoringJob(settings, store, [LexicalScorer()]).run(datetime.now(UTC))
    update_facts(store, RootCauseSettings())
    with running_page(store) as page:
        yield page


def _text(tab: DevTools) -> str:
    return " ".join(str(tab.evaluate("document.body.innerText")).split())


def _screenshot(tab: DevTools, path: Path) -> Path:
    """The whole page as the signed-in tab shows it; also under RAGPULSE_SCREENSHOTS when that names a folder
    (``RAGPULSE_SCREENSHOTS=docs/img`` refreshes the documentation's pictures)."""
    shot = tab.command("Page.captureScreenshot", format="png", captureBeyondViewport=True)
    png = base64.b64decode(shot["data"])
    path.write_bytes(png)
    kept = os.environ.get("RAGPULSE_SCREENSHOTS")
    if kept:
        Path(kept, path.name).write_bytes(png)
    return path


@pytest.mark.slow
def test_a_request_opens_as_its_waterfall_variations_and_sentence_evidence(
    demo_page: LivePage, store: Store, chromium: Chromium, tmp_path: Path
) -> None:
    tab = chromium.tab(1280, 1000)
    try:
        tab.open(f"{demo_page.url}?token={TOKEN}")
        # From the report's worst requests, a RAG-Fusion one (variant B: the question and three variations).
        tab.open(demo_page.url)
        links = tab.evaluate("[...document.querySelectorAll('a[href*=\"review/request\"]')].map(a => a.href)")
        assert links, _text(tab)[:2000]
        opened = False
        for link in links:
            tab.open(link)
            if tab.evaluate("document.querySelectorAll('ol.ranking').length") > 1:
                opened = True
                break
        assert opened, "no request of variant B among the report's links"
        text = _text(tab)
        # The waterfall: the root span and its steps, each with its time.
        assert "How it ran: spans and judges" in text
        waterfall = str(tab.evaluate("document.querySelector('svg.waterfall').textContent"))
        for step in ("variations", "retrieve", "fuse", "generate"):
            assert step in waterfall, (step, waterfall[:500])
        assert tab.evaluate("document.querySelectorAll('svg.waterfall rect').length") >= 7
        assert "ms" in waterfall and "lexical" in text and "after the request" in text
        # Each variation with its ranking; the documents that made the fused context are marked.
        variations = tab.evaluate("[...document.querySelectorAll('ol.ranking')].length")
        assert variations == 4, variations
        assert tab.evaluate("document.querySelectorAll('ol.ranking b').length") > 0
        # The fused chunks, marked with the answer sentences that used them, and each sentence's evidence.
        assert "Fused context: what the generator saw" in text
        assert tab.evaluate("document.querySelectorAll('ol.chunks .used').length") > 0
        evidence = str(
            tab.evaluate("[...document.querySelectorAll('.evidence')].map(e => e.innerText).join('|')")
        )
        assert "lexical:" in evidence and ("supported" in evidence or "no claim" in evidence), evidence
        path = _screenshot(tab, tmp_path / "request-page.png")
        assert is_png(path) and path.stat().st_size > 40_000
    finally:
        tab.close()


@pytest.mark.slow
def test_conversations_are_listed_and_one_opens_with_its_turns_and_verdicts(
    demo_page: LivePage, chromium: Chromium, tmp_path: Path
) -> None:
    tab = chromium.tab(1280, 900)
    try:
        tab.open(f"{demo_page.url}?token={TOKEN}")
        tab.open(f"{demo_page.url}conversations")
        text = _text(tab)
        assert "Conversations · all services" in text
        # Each variant's questions come three to a conversation.
        assert text.count("ragpulse-example") >= REQUESTS // 3
        tab.click("table a")
        text = _text(tab)
        assert "Turns and their verdicts" in text and "3 turn(s)" in text
        assert "lexical:" in text
        tab.click("table a")  # a turn opens as its request
        assert "How it ran: spans and judges" in _text(tab)
        assert "Turn of conversation" in _text(tab)
        tab.evaluate("history.back()")
        time.sleep(1)
        assert is_png(_screenshot(tab, tmp_path / "conversation.png"))
    finally:
        tab.close()
