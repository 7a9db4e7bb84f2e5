"""The live page renders once for all the requests that arrive while a render runs."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from ragpulse_core.store import Store
from ragpulse_scorers.report.live import LivePage
from ragpulse_scorers.settings import ScorersSettings


class SlowPage(LivePage):
    """A page whose render waits until released, counting how often it ran."""

    def __init__(self, settings: ScorersSettings, store: Store) -> None:
        super().__init__(settings, store)
        self.renders = 0
        self.started = threading.Event()
        self.release = threading.Event()

    def _render(self) -> str:
        self.renders += 1
        self.started.set()
        self.release.wait(10)
        return f"page {self.renders}"


def test_requests_during_a_slow_render_share_it_and_the_next_one_renders_anew(store: Store) -> None:
    page = SlowPage(ScorersSettings.load(live={"host": "127.0.0.1", "port": 0}), store)
    page.start()
    try:
        with ThreadPoolExecutor(4) as readers:
            first = readers.submit(page.render)
            assert page.started.wait(10)
            waiting = [readers.submit(page.render) for _ in range(3)]
            page.release.set()
            pages = [first.result(10), *(reader.result(10) for reader in waiting)]
        assert (pages, page.renders) == (["page 1"] * 4, 1)
        assert page.render() == "page 2"
    finally:
        page.stop()
