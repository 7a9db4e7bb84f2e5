"""Who may read the live page: the Host it was asked for, and the read token.

The page shows traced questions and answers, so it is never open:

- **Host allowlist.** DNS rebinding lets a web page the on-call engineer visits point its own name at this
  machine and read the answer as same-origin; the browser still sends that name as ``Host``. Names not in
  ``live.allowed_hosts`` are refused. An IP address is always accepted: rebinding needs a name, and a page
  served from an address is not another site's origin.
- **Read token.** ``live.read_token`` (or ``read_token_file``), else the collector's ingest token, else one
  made for this run. A browser signs in once, with ``?token=`` or the form, and then carries a cookie that
  proves it knew the token without holding it; scripts send ``Authorization: Bearer``.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import ipaddress
import secrets
from dataclasses import dataclass

from ragpulse_core.tokens import TokenError, read_token

from ragpulse_dashboards.settings import DashboardsSettings

COOKIE = "ragpulse_live"
COOKIE_MAX_AGE_S = 7 * 24 * 3600
_COOKIE_PURPOSE = b"ragpulse live page session"


class TokenSource(enum.Enum):
    READ_TOKEN = "live.read_token"
    INGEST_TOKEN = "the collector's ingest token"
    GENERATED = "a token made for this run"


@dataclass(frozen=True)
class ReadToken:
    value: str
    source: TokenSource


def page_token(settings: DashboardsSettings) -> ReadToken:
    """The token that opens the page; a blank one configured anywhere is an error, never "no token"."""
    live, collector = settings.live, settings.collector
    token = read_token(live.read_token, live.read_token_file, "live.read_token")
    if token is not None:
        return ReadToken(token, TokenSource.READ_TOKEN)
    ingest = read_token(collector.auth_token, collector.auth_token_file, "collector.auth_token")
    if ingest is not None:
        return ReadToken(ingest, TokenSource.INGEST_TOKEN)
    return ReadToken(secrets.token_urlsafe(24), TokenSource.GENERATED)


def write_token(settings: DashboardsSettings) -> str | None:
    """The token labelling needs besides the read session, or None when every reader may label."""
    live = settings.live
    return read_token(live.write_token, live.write_token_file, "live.write_token")


class Access:
    """The checks every request to the page passes."""

    def __init__(self, token: str, allowed_hosts: list[str]) -> None:
        if not token.strip():
            raise TokenError("an empty read token would open the page to anyone")
        self._token = token.encode()
        self._cookie = hmac.new(self._token, _COOKIE_PURPOSE, hashlib.sha256).hexdigest()
        self._allowed = {_normalised(name) for name in allowed_hosts}

    @property
    def cookie_value(self) -> str:
        """What the session cookie holds: a keyed hash of the token, so the cookie never carries it."""
        return self._cookie

    def host_allowed(self, host: str | None) -> bool:
        """Whether the ``Host`` header names this page: an allowed name, or any IP address."""
        if not host:
            return False
        name = _hostname(host)
        if name is None:
            return False
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return name in self._allowed
        return True

    def token_matches(self, candidate: str | None) -> bool:
        """Constant-time comparison (timing says nothing about the token)."""
        return hmac.compare_digest((candidate or "").strip().encode(), self._token)

    def bearer_matches(self, authorization: str | None) -> bool:
        scheme, _, credentials = (authorization or "").strip().partition(" ")
        return self.token_matches(credentials) and scheme.lower() == "bearer"

    def cookie_matches(self, cookie: str | None) -> bool:
        return hmac.compare_digest((cookie or "").encode(), self._cookie.encode())


def _normalised(name: str) -> str:
    return name.strip().lower().rstrip(".")


def _hostname(host: str) -> str | None:
    """``example.org:4319`` → ``example.org``; ``[::1]:4319`` → ``::1``; None when malformed."""
    host = host.strip()
    if host.startswith("["):
        end = host.find("]")
        port = host[end + 2 :] if host[end + 1 : end + 2] == ":" else host[end + 1 :]
        if end < 0 or (port and not (port.isascii() and port.isdigit())):
            return None
        return host[1:end].lower()
    name, colon, port = host.rpartition(":")
    if not colon:
        name = port
    elif not (port.isascii() and port.isdigit()):
        return None
    return _normalised(name) or None
