"""One collector (OTLP/HTTP and OTLP/gRPC on free loopback ports) over the session's chDB for every trial of
a module; each trial names its own services, so trials share the database without truncating it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from ragpulse_collector.server import CollectorServer
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store


@pytest.fixture(scope="module")
def shared_collector(migrated_store: Store) -> Iterator[CollectorServer]:
    settings = RagpulseSettings.load(None, collector={"host": "127.0.0.1", "port": 0, "grpc_port": 0})
    server = CollectorServer(settings, migrated_store)
    server.start()
    yield server
    server.stop()


@pytest.fixture(params=["http", "grpc"])
def endpoint(request: pytest.FixtureRequest, shared_collector: CollectorServer) -> tuple[str, str]:
    """(protocol, endpoint) of the shared collector for a stock exporter of that protocol."""
    if request.param == "grpc":
        return "grpc", f"127.0.0.1:{shared_collector.grpc_port}"
    return "http", f"{shared_collector.url}/v1/traces"
