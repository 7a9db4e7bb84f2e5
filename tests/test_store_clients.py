"""The Store releases its clients on every failure path: a long outage retried every second, or a query that
keeps failing, holds no more clients or sockets after a thousand tries than after one; close() closes the
clients every thread opened; threads that first use an embedded store at the same moment all get it."""

from __future__ import annotations

import gc
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import clickhouse_connect
import pytest
from clickhouse_connect.driver.client import Client
from ragpulse_core.store import Store, StoreUnavailable

RETRIES = 200
FAILED_QUERIES = 50


class Opened:
    """Every client ``clickhouse_connect.get_client`` opened (real ones), and which of them were closed."""

    def __init__(self) -> None:
        self.clients: list[Client] = []
        self.closed: set[int] = set()

    @property
    def open(self) -> int:
        return sum(id(client) not in self.closed for client in self.clients)

    def spy(self, real: Callable[..., Client]) -> Callable[..., Client]:
        def get_client(**options: Any) -> Client:
            client = real(**options)
            close = client.close

            def closing() -> None:
                self.closed.add(id(client))
                close()

            client.close = closing  # type: ignore[method-assign]
            self.clients.append(client)
            return client

        return get_client


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Opened:
    spy = Opened()
    monkeypatch.setattr(clickhouse_connect, "get_client", spy.spy(clickhouse_connect.get_client))
    return spy


def _sockets() -> int:
    """Open sockets of this process (not files: chDB's merges open and close those meanwhile)."""
    links = []
    for name in os.listdir("/proc/self/fd"):
        try:
            links.append(os.readlink(f"/proc/self/fd/{name}"))
        except OSError:  # the directory's own descriptor, closed by now
            continue
    return sum(link.startswith("socket:") for link in links)


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # closed again when the block ends: nothing listens there


def test_a_long_outage_of_a_server_leaks_no_client_and_no_socket() -> None:
    store = Store(f"http://default:@127.0.0.1:{_closed_port()}/ragpulse")
    with pytest.raises(StoreUnavailable, match="cannot connect"):
        store.query("SELECT 1")
    before = _sockets()
    for _ in range(RETRIES):
        with pytest.raises(StoreUnavailable):
            store.query("SELECT 1")
    gc.collect()
    alive = [
        obj for obj in gc.get_objects() if isinstance(obj, Client) and store.dsn.split("@")[1] in obj.uri
    ]
    # A leak would hold one per try; a socket or two of other tests' servers may still be closing.
    assert alive == [] and _sockets() <= before + 2
    store.close()


def test_a_client_whose_query_failed_is_closed_before_the_next_one_opens(
    chdb_dsn: str, opened: Opened
) -> None:
    store = Store(chdb_dsn)
    with pytest.raises(StoreUnavailable):
        store.query("SELECT * FROM nowhere.nothing")
    for _ in range(FAILED_QUERIES):
        with pytest.raises(StoreUnavailable, match="nowhere"):
            store.query("SELECT * FROM nowhere.nothing")
    assert store.query("SELECT 1") == [(1,)]
    assert (len(opened.clients), opened.open) == (FAILED_QUERIES + 2, 1)
    store.close()
    assert opened.open == 0


def test_close_closes_the_clients_of_every_thread_and_the_store_opens_new_ones_after(
    chdb_dsn: str, opened: Opened
) -> None:
    store = Store(chdb_dsn)
    readers = [threading.Thread(target=store.query, args=("SELECT 1",)) for _ in range(3)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    store.query("SELECT 1")
    assert opened.open == 4
    store.close()
    assert opened.open == 0
    assert store.query("SELECT 2") == [(2,)]
    store.close()
    assert (len(opened.clients), opened.open) == (5, 0)


_FIRST_USE_TOGETHER = """
import sys, threading
from ragpulse_core.store import Store

store = Store(sys.argv[1])
together = threading.Barrier(4)
failures = []

def first_query():
    together.wait()
    try:
        store.query("SELECT 1")
    except Exception as exc:
        failures.append(str(exc))

threads = [threading.Thread(target=first_query) for _ in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(failures)
"""


def test_threads_first_using_an_embedded_store_together_all_get_it(tmp_path: Path) -> None:
    """A service's workers start at once on a fresh chDB path: none is told another process holds it (a fresh
    process, since chDB opens one path per process)."""
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_USE_TOGETHER, f"chdb://{tmp_path / 'db'}"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
