"""Who may post a label, and proof that the post came from this page's own form (CSRF).

- **Who.** A browser signed in to the page may label; when ``live.write_token`` is set, it must also have
  signed in with that token (a second cookie, a keyed hash of the write token like the read cookie).
- **From where.** Each browser holds a random nonce in a ``SameSite=Strict``, HttpOnly cookie; every form
  carries a keyed hash of that nonce in a hidden field, and a post is taken only when the two match. Another
  site can neither read the cookie nor compute the field (the key never leaves this process), and a cookie
  planted from a sibling domain has no field to match. Besides, a post whose ``Origin`` (or, without one, its
  ``Sec-Fetch-Site``) names another site is refused before the field is looked at; the review pages send
  ``Referrer-Policy: same-origin`` so the browser names this origin rather than ``null``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from urllib.parse import urlsplit

NONCE_COOKIE = "ragpulse_form"
WRITE_COOKIE = "ragpulse_write"
FIELD = "form_key"
_WRITE_PURPOSE = b"ragpulse live page labelling"
_FORM_PURPOSE = b"ragpulse live page form key"


class FormGuard:
    """The form keys of one running page, and the write session when a write token is set."""

    def __init__(self, read_token: str, write_token: str | None) -> None:
        # Keyed by the token the forms serve, so a restart keeps open forms valid and another token's page
        # cannot mint keys for this one.
        secret = (write_token or read_token).encode()
        self._key = hmac.new(secret, _FORM_PURPOSE, hashlib.sha256).digest()
        self._write_token = write_token.encode() if write_token is not None else None
        self._write_cookie = (
            hmac.new(self._write_token, _WRITE_PURPOSE, hashlib.sha256).hexdigest()
            if self._write_token is not None
            else None
        )

    @property
    def needs_write_token(self) -> bool:
        return self._write_token is not None

    @property
    def write_cookie_value(self) -> str:
        if self._write_cookie is None:
            raise RuntimeError("no write token is set")
        return self._write_cookie

    def may_write(self, cookies: Mapping[str, str]) -> bool:
        """Whether a (signed-in) browser with ``cookies`` may label: always without a write token."""
        if self._write_cookie is None:
            return True
        return hmac.compare_digest(cookies.get(WRITE_COOKIE, "").encode(), self._write_cookie.encode())

    def write_token_matches(self, candidate: str | None) -> bool:
        if self._write_token is None:
            return False
        return hmac.compare_digest((candidate or "").strip().encode(), self._write_token)

    @staticmethod
    def new_nonce() -> str:
        return secrets.token_urlsafe(24)

    def field_for(self, nonce: str) -> str:
        """The hidden field a form carries for the browser holding ``nonce``."""
        return hmac.new(self._key, nonce.encode(), hashlib.sha256).hexdigest()

    def field_matches(self, nonce: str | None, field: str | None) -> bool:
        if not nonce or not field:
            return False
        return hmac.compare_digest(self.field_for(nonce).encode(), field.encode())


def same_site_post(headers: Mapping[str, str], host: str) -> bool:
    """Whether a post's ``Origin`` (or ``Sec-Fetch-Site``) says it came from this page.

    A post naming no origin at all comes from a client that is not a browser (browsers send ``Origin`` on
    every cross-site post); the form key still has to match. The scheme is not compared: behind a TLS proxy
    the browser's ``https`` origin reaches this page over plain HTTP, with the same ``Host``.
    """
    origin = headers.get("Origin")
    if origin is not None:
        parts = urlsplit(origin.strip())
        return parts.scheme in ("http", "https") and parts.netloc.lower() == host.strip().lower()
    fetch_site = headers.get("Sec-Fetch-Site")
    return fetch_site is None or fetch_site in ("same-origin", "none")
