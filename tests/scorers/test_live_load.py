"""The live page under load, as functional checks (timings live in benchmarks/bench_live.py): 500 concurrent
reloads all get the page and share its renders; 300 slow clients do not keep a normal reader out, and are
disconnected once the header deadline passes; a failed render is reported and not kept."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack

import aiohttp
import pytest
from live_testing import TOKEN, fetch, running_page
from ragpulse_core.store import Store
from ragpulse_dashboards.live import LivePage, ReadToken, TokenSource
from ragpulse_dashboards.settings import DashboardsSettings
from report_data import SCORE_COLUMNS, insert_requests, score_rows

CONCURRENT = 500
SLOW_CLIENTS = 300
BEARER = {"Authorization": f"Bearer {TOKEN}"}


class CountedPage(LivePage):
    """The real page, counting its renders; each render takes at least ``render_s`` (a busy store)."""

    def __init__(self, store: Store, render_s: float = 0.0, **live: object) -> None:
        settings = DashboardsSettings.load(None, live={"host": "127.0.0.1", "port": 0, **live})
        super().__init__(settings, store, ReadToken(TOKEN, TokenSource.READ_TOKEN))
        self.renders: list[str | None] = []
        self.render_s = render_s
        self.fail = False

    def _render(self, service: str | None, services: list[str]) -> bytes:
        self.renders.append(service)
        time.sleep(self.render_s)
        if self.fail:
            raise RuntimeError("the store went away")
        return super()._render(service, services)


@pytest.fixture
def two_services(store: Store) -> Store:
    services = ["search", "billing"] * 5
    requests = insert_requests(
        store, [{"index": index, "variant": "A", "service": name} for index, name in enumerate(services)]
    )
    scores = [
        row
        for index, (traced, service) in enumerate(zip(requests, services, strict=True))
        for row in score_rows(traced, hallucinated=index < 2, support=1.0, service=service)
    ]
    store.insert("ragpulse_scores", scores, SCORE_COLUMNS)
    return store


@pytest.fixture
def counted(two_services: Store) -> Iterator[CountedPage]:
    page = CountedPage(two_services, render_s=0.5, cache_s=60)
    page.start()
    yield page
    page.stop()


async def _many_gets(url: str, paths: list[str]) -> list[int | str]:
    async def one(session: aiohttp.ClientSession, path: str) -> int | str:
        try:
            async with session.get(url.rstrip("/") + path, headers=BEARER) as response:
                body = await response.text()
                return (
                    response.status if "ragpulse report" in body else f"{response.status} without the report"
                )
        except (aiohttp.ClientError, TimeoutError) as exc:
            return repr(exc)

    connector = aiohttp.TCPConnector(limit=0, force_close=True)
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        return await asyncio.gather(*(one(session, path) for path in paths))


def test_500_concurrent_reloads_all_get_the_page_and_share_one_render_per_view(counted: CountedPage) -> None:
    paths = ["/", "/?service=search"] * (CONCURRENT // 2)
    statuses = asyncio.run(_many_gets(counted.url, paths))
    assert statuses == [200] * CONCURRENT
    assert sorted(counted.renders, key=str) == [None, "search"]


def test_a_render_is_reused_for_cache_s_then_read_again(two_services: Store) -> None:
    # The default 5 s: a render's age counts from its start, and on a loaded machine a first render of the
    # page took over a second, so a 1 s cache had expired by the second fetch.
    page = CountedPage(two_services, cache_s=5.0)
    page.start()
    try:
        for _ in range(3):
            assert fetch(page.url, headers=BEARER).status == 200
        assert page.renders == [None]
        time.sleep(5.2)
        assert fetch(page.url, headers=BEARER).status == 200
        assert page.renders == [None, None]
    finally:
        page.stop()


def test_a_failed_render_is_said_on_the_page_and_not_kept(two_services: Store) -> None:
    page = CountedPage(two_services, cache_s=60)
    page.start()
    try:
        page.fail = True
        failed = fetch(page.url, headers=BEARER)
        assert failed.status == 503 and "report unavailable: the store went away" in failed.body
        page.fail = False
        assert fetch(page.url, headers=BEARER).status == 200
        assert page.renders == [None, None]
    finally:
        page.stop()


def _slow_client(port: int) -> socket.socket:
    """A connection that sends half a request head and then nothing (slowloris)."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=30)
    connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return connection


def _closed_by_server(connection: socket.socket) -> bool:
    """Whether the server closed it (end of stream or reset) before our own timeout ran out."""
    try:
        return connection.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_a_reader_gets_the_page_while_300_slow_clients_hang_and_they_are_cut_off(two_services: Store) -> None:
    with running_page(two_services, header_timeout_s=3.0) as page, ExitStack() as slow:
        port = int(page.url.rsplit(":", 1)[1].strip("/"))
        clients = [slow.enter_context(_slow_client(port)) for _ in range(SLOW_CLIENTS)]
        answer = fetch(page.url, headers=BEARER, timeout=60)
        assert answer.status == 200 and "ragpulse report" in answer.body
        for client in clients:
            client.settimeout(30)
        assert all(_closed_by_server(client) for client in clients)


def test_a_client_trickling_its_head_is_cut_off_at_the_deadline(store: Store) -> None:
    with running_page(store, header_timeout_s=2.0) as page:
        port = int(page.url.rsplit(":", 1)[1].strip("/"))
        cut_off = threading.Event()

        def trickle() -> None:
            with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
                try:
                    for byte in b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Pad: " + b"a" * 200:
                        connection.sendall(bytes([byte]))
                        time.sleep(0.1)
                except OSError:  # writing fails once the server has closed the connection
                    cut_off.set()
                    return
                if _closed_by_server(connection):
                    cut_off.set()

        sender = threading.Thread(target=trickle)
        started = time.monotonic()
        sender.start()
        sender.join(60)
        assert cut_off.is_set() and time.monotonic() - started < 20  # 200+ bytes at 10/s would take 24 s


def test_an_idle_keep_alive_connection_is_closed_after_the_deadline(store: Store) -> None:
    with running_page(store, header_timeout_s=1.0) as page:
        port = int(page.url.rsplit(":", 1)[1].strip("/"))
        with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert connection.recv(65536).startswith(b"HTTP/1.1 200")
            assert _closed_by_server(connection)
