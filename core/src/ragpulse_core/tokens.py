"""Secrets that guard an endpoint (the collector's ingest token, the live page's read token).

A token comes from a setting (flag, environment or TOML) or from a file, which keeps it out of argv and the
environment. An empty or blank token is an error, never "no auth": a variable set to nothing by mistake must
not open the door. So is a token with a control character or a line break inside: no HTTP header can carry
it, so every client would be refused after a start that looked fine.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from pydantic import SecretStr


class TokenError(ValueError):
    """A token was configured but is empty or unreadable (a ValueError: the command front prints one line)."""


# Control and format characters, and line or paragraph separators: none survives a header or a form intact.
_UNSENDABLE = frozenset({"Cc", "Cf", "Zl", "Zp"})


def unsendable(token: str) -> str | None:
    """Why no client could send ``token`` (naming the character's position, never the token), or None."""
    for position, character in enumerate(token, 1):
        if unicodedata.category(character) in _UNSENDABLE:
            name = unicodedata.name(character, f"U+{ord(character):04X}")
            return f"has a control character ({name}) at position {position}, which no client can send"
    return None


def checked_token(value: SecretStr | None, what: str) -> SecretStr | None:
    """``value`` with surrounding whitespace removed; :class:`TokenError` when nothing is left."""
    if value is None:
        return None
    token = value.get_secret_value().strip()
    if not token:
        raise TokenError(f"{what} is empty: set a token, or leave it unset")
    problem = unsendable(token)
    if problem:
        raise TokenError(f"{what} {problem}: set one without it")
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
    except UnicodeDecodeError:
        raise TokenError(f"{what} file {path} is not UTF-8 text") from None
    if not token:
        raise TokenError(f"{what} file {path} is empty")
    problem = unsendable(token)
    if problem:
        raise TokenError(f"{what} file {path} {problem}: keep the token on one line")
    return token
