"""Secrets that guard an endpoint (the collector's ingest token, the live page's read token).

A token comes from a setting (flag, environment or TOML) or from a file, which keeps it out of argv and the
environment. An empty or blank token is an error, never "no auth": a variable set to nothing by mistake must
not open the door.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import SecretStr


class TokenError(ValueError):
    """A token was configured but is empty or unreadable (a ValueError: the command front prints one line)."""


def checked_token(value: SecretStr | None, what: str) -> SecretStr | None:
    """``value`` with surrounding whitespace removed; :class:`TokenError` when nothing is left."""
    if value is None:
        return None
    token = value.get_secret_value().strip()
    if not token:
        raise TokenError(f"{what} is empty: set a token, or leave it unset")
    return SecretStr(token)


def read_token(value: SecretStr | None, path: Path | None, what: str) -> str | None:
    """The token from ``value``, else from the file at ``path`` (its trailing newline is not part of it),
    else None when neither is set."""
    if value is not None:
        checked = checked_token(value, what)
        assert checked is not None
        return checked.get_secret_value()
    if path is None:
        return None
    try:
        token = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise TokenError(f"{what} file {path} cannot be read: {exc.strerror or exc}") from None
    if not token:
        raise TokenError(f"{what} file {path} is empty")
    return token
