"""Calling the ``ragpulse serve`` that holds the embedded database, through its live page.

chDB opens an embedded database in one process at a time. When ``serve`` holds it, its note beside the
database says where its live page is, and a command asks the page (``/api/v1/...``) with the read token the
page takes: ``live.read_token``, else the collector's ingest token, else the token ``serve`` made for its run,
which its note holds for the same user (:mod:`ragpulse_core.holder`). A call that stores labels carries the
write token too when one is configured, as the page's own label form needs it.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from ragpulse_core.holder import Holder, current_holder
from ragpulse_core.store import embedded_path
from ragpulse_core.tokens import TokenError

from ragpulse_dashboards.live import ReadToken, TokenSource, page_token
from ragpulse_dashboards.settings import DashboardsSettings


class ServeCallFailed(Exception):
    """A call serve did not answer, or refused: the message says why in one line, and what to do."""


@dataclass(frozen=True)
class Held:
    """A ``ragpulse serve`` (or other command) that holds the embedded database at ``path``."""

    path: Path
    holder: Holder

    def describe(self) -> str:
        return self.holder.describe(self.path)


def held_by_another(settings: DashboardsSettings) -> Held | None:
    """The process holding the configured embedded database, or None (a server DSN, or nobody holds it)."""
    path = embedded_path(settings.store.dsn)
    holder = current_holder(path) if path is not None else None
    return Held(path, holder) if path is not None and holder is not None else None


def call_serve(
    held: Held,
    settings: DashboardsSettings,
    path: str,
    params: dict[str, str],
    *,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout_s: float,
) -> dict[str, Any]:
    """The JSON answer of serve's page to ``GET path?params`` (``POST`` with a ``body``, empty or not),
    authenticated with the read token; :class:`ServeCallFailed` when it cannot be asked or refuses."""
    held_line = held.describe()
    url_base = held.holder.page_url
    if not url_base:
        raise ServeCallFailed(f"{held_line}, and serves no live page to ask")
    token = _read_token(held, settings)
    url = f"{url_base.rstrip('/')}{path}?{urlencode(params)}"
    sent = {"Authorization": f"Bearer {token.value}", **(headers or {})}
    if body is not None:
        sent["Content-Type"] = "application/octet-stream"
    request = urllib.request.Request(
        url, data=body, headers=sent, method="POST" if body is not None else "GET"
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            answer: dict[str, Any] = json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        raise ServeCallFailed(
            f"{held_line}; its page answered {exc.code}: {_why(exc, token.source)}"
        ) from None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise ServeCallFailed(f"{held_line}, and its page cannot be read: {reason}") from None
    return answer


def _read_token(held: Held, settings: DashboardsSettings) -> ReadToken:
    try:
        token = page_token(settings)
    except TokenError as exc:
        raise ServeCallFailed(str(exc)) from None
    if token.source is not TokenSource.GENERATED:
        return token
    if held.holder.page_token:
        return ReadToken(held.holder.page_token, TokenSource.GENERATED)
    raise ServeCallFailed(
        f"{held.describe()}, and asking it takes the read token serve uses: give this command the same"
        " live.read_token (RAGPULSE_LIVE__READ_TOKEN, live.read_token_file) or collector.auth_token"
    )


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
