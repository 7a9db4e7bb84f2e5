"""Reading a view from the store, or through the ``ragpulse serve`` that holds it.

chDB opens an embedded database in one process at a time. When ``serve`` holds it, its note beside the
database says where its live page is, and the view is read there (``GET /api/v1/<view>``) with the same read
token the page takes: ``live.read_token``, else the collector's ingest token, else the token ``serve`` made
for its run, which its note holds for the same user (:mod:`ragpulse_core.holder`).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from ragpulse_core.holder import Holder, current_holder
from ragpulse_core.store import embedded_path
from ragpulse_core.store_access import open_for_reading
from ragpulse_core.tokens import TokenError
from rich.console import Console
from rich.markup import escape

from ragpulse_dashboards.commands.views import ReadQuery, Shown, show
from ragpulse_dashboards.live import ReadToken, TokenSource, page_token
from ragpulse_dashboards.settings import DashboardsSettings

API_PREFIX = "/api/v1/"
READ_TIMEOUT_S = 60.0


def read(
    settings: DashboardsSettings, query: ReadQuery, console: Console, errors: Console | None = None
) -> Shown:
    """Print ``query``'s view: from the store, or through ``serve`` when it holds the embedded database.
    A store that cannot be read is said on ``errors`` (default ``console``)."""
    path = embedded_path(settings.store.dsn)
    holder = current_holder(path) if path is not None else None
    if path is not None and holder is not None and holder.page_url:
        return through_serve(path, holder, settings, query, console)
    store = open_for_reading(settings, console)
    if store is None:
        return Shown(1)
    try:
        return show(query, store, settings, console, errors)
    finally:
        store.close()


def through_serve(
    path: Path, holder: Holder, settings: DashboardsSettings, query: ReadQuery, console: Console
) -> Shown:
    held = holder.describe(path)
    try:
        token = page_token(settings)
    except TokenError as exc:
        return _failed(console, str(exc))
    if token.source is TokenSource.GENERATED and holder.page_token:
        token = ReadToken(holder.page_token, TokenSource.GENERATED)
    elif token.source is TokenSource.GENERATED:
        return _failed(
            console,
            f"{held}, and reading through it takes the read token serve uses: give this command the same"
            " live.read_token (RAGPULSE_LIVE__READ_TOKEN, live.read_token_file) or collector.auth_token",
        )
    params = {**query.params(), "width": str(console.width), "color": console.color_system or ""}
    assert holder.page_url is not None
    url = f"{holder.page_url.rstrip('/')}{API_PREFIX}{query.view}?{urlencode(params)}"
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token.value}"})
    try:
        with urllib.request.urlopen(request, timeout=READ_TIMEOUT_S) as response:
            answer: dict[str, Any] = json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        return _failed(console, f"{held}; its page answered {exc.code}: {_why(exc, token.source)}")
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        return _failed(console, f"{held}, and its page cannot be read: {reason}")
    console.file.write(str(answer.get("output", "")))
    console.file.flush()
    html = answer.get("html")
    return Shown(int(answer.get("exit", 1)), html if isinstance(html, str) else None)


def _why(exc: urllib.error.HTTPError, source: TokenSource) -> str:
    if exc.code == 401:
        return (
            f"it does not take this read token ({source.value}): give this command the token serve uses"
            " (live.read_token, else collector.auth_token)"
        )
    if exc.code == 429:
        return (
            f"too many wrong tokens from this address; try again in {exc.headers.get('Retry-After', '?')} s"
        )
    try:
        detail = json.loads(exc.read().decode("utf-8")).get("error", "")
    except (OSError, ValueError, AttributeError):
        detail = ""
    return str(detail or exc.reason)


def _failed(console: Console, message: str) -> Shown:
    console.print(f"[red]error:[/red] {escape(message)}", soft_wrap=True)
    return Shown(1)
