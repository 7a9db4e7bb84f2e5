"""The Store releases its clients on every failure path: a long outage retried every second, or a query that
keeps failing, holds no more clients or sockets after a thousand tries than after one; close() closes the
clients every thread opened, and the clients of threads that ended are closed; threads that first use an
embedded store at the same moment all get it."""

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
SHORT_LIVED_THREADS = 200
TICKS = 500


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
    done = threading.Event()
    read = threading.Barrier(4)

    def read_and_wait() -> None:
        store.query("SELECT 1")
        read.wait()
        done.wait()

    readers = [threading.Thread(target=read_and_wait) for _ in range(3)]
    for reader in readers:
        reader.start()
    read.wait()
    store.query("SELECT 1")
    assert opened.open == 4
    store.close()
    assert opened.open == 0
    done.set()
    for reader in readers:
        reader.join()
    assert store.query("SELECT 2") == [(2,)]
    store.close()
    assert (len(opened.clients), opened.open) == (5, 0)


def test_threads_that_ended_leave_no_client_open(chdb_dsn: str, opened: Opened) -> None:
    """A serve process scores on a fresh thread every tick, and reports read on threads of their own: each
    thread's client is closed once the thread has ended and another opens one."""
    store = Store(chdb_dsn)
    store.query("SELECT 1")
    for _ in range(SHORT_LIVED_THREADS):
        _query_on_a_thread_of_its_own(store)

    # The main thread's and the last thread's; every earlier one closed.
    assert (len(opened.clients), opened.open) == (SHORT_LIVED_THREADS + 1, 2)
    assert store.query("SELECT 2") == [(2,)]
    store.close()
    assert opened.open == 0


def test_a_thread_a_tick_for_hours_keeps_memory_flat(chdb_dsn: str) -> None:
    """An embedded client holds a quarter to half a MiB: kept for every ended thread, 500 ticks grew a process
    by 120-250 MiB."""
    store = Store(chdb_dsn)
    store.query("SELECT 1")
    _query_on_a_thread_of_its_own(store)
    before = _resident_mib()
    for _ in range(TICKS):
        _query_on_a_thread_of_its_own(store)
    grown = _resident_mib() - before
    store.close()
    assert grown < 30, f"resident memory grew {grown:.0f} MiB over {TICKS} threads"


def _query_on_a_thread_of_its_own(store: Store) -> None:
    thread = threading.Thread(target=store.query, args=("SELECT 1",))
    thread.start()
    thread.join()


def _resident_mib() -> float:
    gc.collect()
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


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
