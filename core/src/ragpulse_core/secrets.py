"""Configured secrets kept out of every text a person or a log may see.

A receiver's error body, an exception's message, a URL in a log line or a header echoed back can quote a
secret whole, in part, percent-encoded, or as the credentials inside a Basic header. :class:`SecretMask`
replaces all of these: each secret whole, the pieces of a secret URL (user info, password, path segments,
query values) and of a header value (the credentials after the scheme word, decoded Basic credentials), and
any run of at least :data:`PARTIAL_CHARS` characters copied out of one of them, in any letter case.
"""

from __future__ import annotations

import base64
import binascii
import logging
from collections.abc import Iterable, Iterator, Sequence
from typing import Final
from urllib.parse import parse_qsl, quote, unquote, urlsplit

MASK: Final = "***"
SHORTEST_MASKED: Final = 6
"""Secret pieces shorter than this are not masked on their own: masking "a" would mangle every message."""
PARTIAL_CHARS: Final = 8
"""A run this long copied out of a secret is masked: fewer characters give a guess nothing worth having,
and shorter runs would match ordinary words."""


class SecretMask:
    """Masks the given secrets (and their pieces, and partial copies) in any text."""

    def __init__(self, secrets: Iterable[str]) -> None:
        pieces: set[str] = set()
        copied: set[str] = set()
        for secret in secrets:
            whole, parts = secret_pieces(secret)
            pieces.update(piece for piece in whole | parts if len(piece) >= SHORTEST_MASKED)
            copied.update(parts)
        self._pieces = sorted(pieces, key=len, reverse=True)
        self._grams = {
            part[start : start + PARTIAL_CHARS].casefold()
            for part in copied
            for start in range(len(part) - PARTIAL_CHARS + 1)
        }

    def __bool__(self) -> bool:
        return bool(self._pieces)

    def __call__(self, text: str) -> str:
        if not self._pieces or not text:
            return text
        for piece in self._pieces:
            text = text.replace(piece, MASK)
        return self._mask_partial(text)

    def _mask_partial(self, text: str) -> str:
        folded = text.casefold()
        if len(folded) != len(text):  # casefold changed lengths (ß -> ss): positions would not line up
            folded = text.lower() if len(text.lower()) == len(text) else text
        hidden = [False] * len(text)
        found = False
        for start in range(len(text) - PARTIAL_CHARS + 1):
            if folded[start : start + PARTIAL_CHARS] in self._grams:
                hidden[start : start + PARTIAL_CHARS] = [True] * PARTIAL_CHARS
                found = True
        if not found:
            return text
        return "".join(_joined(text, hidden))


def _joined(text: str, hidden: list[bool]) -> Iterator[str]:
    previous = False
    for character, masked in zip(text, hidden, strict=True):
        if not masked:
            yield character
        elif not previous:
            yield MASK
        previous = masked


def mask(text: str, secrets: Sequence[str]) -> str:
    """``text`` with ``secrets`` masked (see :class:`SecretMask`)."""
    return SecretMask(secrets)(text)


def secret_pieces(secret: str) -> tuple[set[str], set[str]]:
    """What of ``secret`` is masked whole, and the parts of it whose partial copies are masked too.

    A URL's scheme and host are no secret, so only its user info, path segments and query values count as
    parts; a header value's parts are its credentials after the scheme word.
    """
    whole = {secret, unquote(secret), quote(secret, safe="")}
    parts: set[str] = set()
    words = secret.split()
    url = urlsplit(secret)
    if url.scheme and url.netloc and len(words) == 1:
        segments = [segment for segment in url.path.split("/") if segment]
        whole.update([url.path, unquote(url.path), url.query])
        parts.update(segments)
        parts.update(unquote(segment) for segment in segments)
        for value in (url.password, url.username):
            if value:
                parts.update([value, unquote(value)])
        for query in (url.query, url.fragment):
            parts.update(value for _, value in parse_qsl(query, keep_blank_values=True) if value)
    elif len(words) == 2:  # a header value: "Bearer <token>", "Basic <base64>", "Splunk <token>"
        parts.add(words[1])
        parts.update(_basic_credentials(words[1]))
    else:
        parts.add(secret)
    return whole, parts


def _basic_credentials(encoded: str) -> set[str]:
    try:
        decoded = base64.b64decode(encoded, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return set()
    _user, _, password = decoded.partition(":")
    return {decoded, password} if password else {decoded}


def shown_endpoint(url: str) -> str:
    """An endpoint for people: its user info and query values masked, scheme, host, port and path kept."""
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return MASK if url else url
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ""
    userinfo = f"{MASK}@" if parts.username or parts.password else ""
    query = "&".join(f"{quote(name)}={MASK}" for name, _ in parse_qsl(parts.query, keep_blank_values=True))
    return f"{parts.scheme}://{userinfo}{host}{port}{parts.path}{f'?{query}' if query else ''}"


class MaskingFilter(logging.Filter):
    """Masks secrets in the log records that pass it (their message and their exception's text).

    Attached to a logger that names request URLs or quotes answers (httpx's, the OTLP exporter's). Secrets
    are added while the process runs; the mask is replaced whole, so a thread logging meanwhile reads one mask
    or the other, never half of one.
    """

    def __init__(self) -> None:
        super().__init__()
        self._secrets: frozenset[str] = frozenset()
        self._mask = SecretMask(())

    def hide(self, secrets: Iterable[str]) -> None:
        wanted = self._secrets | {secret for secret in secrets if secret}
        if wanted != self._secrets:
            self._secrets = wanted
            self._mask = SecretMask(wanted)

    def filter(self, record: logging.LogRecord) -> bool:
        hiding = self._mask
        if not hiding:
            return True
        message = record.getMessage()
        masked = hiding(message)
        if masked != message:
            record.msg, record.args = masked, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = hiding(logging.Formatter().formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = hiding(record.exc_text)
        return True


def read_prefix(chunks: Iterable[bytes], limit: int) -> tuple[bytes, bool]:
    """At most ``limit`` bytes of a body arriving as ``chunks``, and whether more was left unread.

    An answer's body is read to this bound and no further: a receiver answering an error with 300 MB must
    cost no more memory than the bound.
    """
    kept = bytearray()
    for chunk in chunks:
        room = limit - len(kept)
        if len(chunk) > room:
            kept += chunk[:room]
            return bytes(kept), True
        kept += chunk
    return bytes(kept), False
