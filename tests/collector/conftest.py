"""A collector on a free loopback port over the session's chDB store, stopped after each test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from ragpulse_collector.server import CollectorServer
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store

StartCollector = Callable[..., CollectorServer]


@pytest.fixture
def start_collector(store: Store, chdb_dsn: str) -> Iterator[StartCollector]:
    """``start_collector(store=..., **collector_settings)`` starts one; all are stopped at teardown."""
    started: list[CollectorServer] = []

    def start(store_override: Store | None = None, **collector: Any) -> CollectorServer:
        settings = RagpulseSettings.load(None, store={"dsn": chdb_dsn}, collector={"port": 0, **collector})
        server = CollectorServer(settings, store_override or store)
        server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
