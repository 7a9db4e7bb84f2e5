"""Bearer-token checks shared by the HTTP and gRPC receivers."""

from __future__ import annotations

import hmac

from ragpulse_core.settings import CollectorSettings
from ragpulse_core.tokens import TokenError, read_token


def configured_token(settings: CollectorSettings) -> str | None:
    """The token from ``auth_token`` (flag, env or TOML), else from ``auth_token_file``, else None (no auth).

    An empty or blank token is an error, never "no auth".
    """
    return read_token(settings.auth_token, settings.auth_token_file, "collector.auth_token")


class BearerAuth:
    """``None`` turns auth off, explicitly; any other token must be sent, and an empty one is refused."""

    def __init__(self, token: str | None) -> None:
        if token is not None and not token.strip():
            raise TokenError("an empty bearer token would let anyone in: set a token, or none for no auth")
        self._expected = token.encode() if token is not None else None

    def allows(self, authorization: str | None) -> bool:
        """Whether an ``Authorization`` value carries the token; the scheme is case-insensitive (RFC 9110)."""
        if self._expected is None:
            return True
        scheme, _, credentials = (authorization or "").strip().partition(" ")
        # Compared in constant time whatever the scheme, so timing says nothing about the token.
        matches = hmac.compare_digest(credentials.strip().encode(), self._expected)
        return matches and scheme.lower() == "bearer"
