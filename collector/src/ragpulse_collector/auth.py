"""Bearer-token checks shared by the HTTP and gRPC receivers."""

from __future__ import annotations

import hmac

from ragpulse_core.settings import CollectorSettings


def configured_token(settings: CollectorSettings) -> str | None:
    """The token from ``auth_token`` (flag, env or TOML), else from ``auth_token_file``, else None.

    A file keeps the secret out of argv and the environment; surrounding whitespace (a trailing newline)
    is not part of it.
    """
    if settings.auth_token is not None:
        return settings.auth_token.get_secret_value()
    if settings.auth_token_file is not None:
        token = settings.auth_token_file.read_text(encoding="utf-8").strip()
        if not token:
            raise ValueError(f"auth token file {settings.auth_token_file} is empty")
        return token
    return None


class BearerAuth:
    def __init__(self, token: str | None) -> None:
        self._expected = token.encode() if token is not None else None

    def allows(self, authorization: str | None) -> bool:
        """Whether an ``Authorization`` value carries the token; the scheme is case-insensitive (RFC 9110)."""
        if self._expected is None:
            return True
        scheme, _, credentials = (authorization or "").strip().partition(" ")
        # Compared in constant time whatever the scheme, so timing says nothing about the token.
        matches = hmac.compare_digest(credentials.strip().encode(), self._expected)
        return matches and scheme.lower() == "bearer"
