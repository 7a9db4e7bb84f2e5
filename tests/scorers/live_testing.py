"""A live page over the session's store, and raw HTTP to it: any Host header, any cookie, nothing followed."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ragpulse_core.store import Store
from ragpulse_dashboards.live import LivePage, ReadToken, TokenSource
from ragpulse_dashboards.settings import DashboardsSettings

TOKEN = "read-s3cret-9f2c"


@dataclass(frozen=True)
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: str


@contextmanager
def running_page(store: Store, token: str = TOKEN, **live: Any) -> Iterator[LivePage]:
    settings = DashboardsSettings.load(None, live={"host": "127.0.0.1", "port": 0, **live})
    page = LivePage(settings, store, ReadToken(token, TokenSource.READ_TOKEN))
    page.start()
    try:
        yield page
    finally:
        page.stop()


def fetch(
    url: str,
    path: str = "/",
    *,
    host: str | None = None,
    headers: dict[str, str] | None = None,
    method: str = "GET",
    body: bytes | None = None,
    timeout: float = 30,
) -> Answer:
    """One request; ``host`` replaces the Host header (as a forged one would)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host if host is not None else parts.netloc)
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        return Answer(response.status, response.headers, response.read().decode("utf-8", "replace"))
    finally:
        connection.close()


def signed_in_cookie(url: str, token: str = TOKEN) -> str:
    """The ``Cookie`` header a browser holds after opening the page with ``?token=``."""
    answer = fetch(url, f"/?token={token}")
    assert answer.status == 303, answer
    cookie = answer.headers["Set-Cookie"].split(";", 1)[0]
    return cookie
