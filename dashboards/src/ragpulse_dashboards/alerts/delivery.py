"""Posting one notification, with retries: exponential backoff with jitter, ``Retry-After`` honoured, all
within a deadline so an evaluation never waits long on a destination that is down.

Retried: network errors, timeouts, 408, 429 and 5xx (PagerDuty's and Slack's own advice). Not retried: any
other answer below 500, which says the request itself is wrong and will be wrong again. Nothing here raises:
the outcome says what happened, with every secret of the destination masked.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Final
from urllib.parse import urlsplit

import httpx
from ragpulse_core.printable import printable
from ragpulse_core.secrets import MASK, MaskingFilter, mask, read_prefix

_RETRIED_STATUSES: Final = frozenset({408, 429})
_BODY_SHOWN: Final = 200
BODY_READ_BYTES: Final = 64 * 1024
"""Of an error answer's body, only this much is ever read: the start says what went wrong, and a receiver
answering with hundreds of megabytes must not grow the process by as much."""

# httpx names each request's full URL at INFO, and the webhook's token is in it.
_HTTP_LOG_MASK: Final = MaskingFilter()
logging.getLogger("httpx").addFilter(_HTTP_LOG_MASK)


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int
    backoff_s: float
    backoff_max_s: float

    def backoff(self, retry: int, draw: Callable[[float, float], float] = random.uniform) -> float:
        """The wait before retry number ``retry`` (1 for the first): half of the doubled step for certain, the
        other half drawn at random, so senders that failed together do not retry together."""
        step = min(self.backoff_max_s, self.backoff_s * 2.0 ** (retry - 1))
        return step / 2 + draw(0.0, step / 2)


@dataclass(frozen=True)
class Post:
    """One notification to send: where, what, and which values must never be shown."""

    url: str
    payload: dict[str, Any]
    timeout_s: float
    secrets: Sequence[str] = ()
    headers: dict[str, str] | None = None


@dataclass(frozen=True)
class Outcome:
    delivered: bool
    attempts: int
    status: int
    """The last HTTP status received (0: none)."""
    error: str
    """What went wrong last, secrets masked ("" once delivered)."""
    first_at: datetime
    last_at: datetime


def send(client: httpx.Client, post: Post, policy: RetryPolicy, deadline: float) -> Outcome:
    """Post until delivered, refused, out of attempts or past ``deadline`` (a ``time.monotonic()`` value)."""
    _HTTP_LOG_MASK.hide(post.secrets)
    first_at = datetime.now(UTC)
    body = _body(post.payload)
    headers = {"Content-Type": "application/json", **(post.headers or {})}
    attempts, status, error = 0, 0, ""
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            error = f"{error}; " if error else ""
            error += "delivery deadline reached" + ("" if attempts else " before the first attempt")
            break
        attempts += 1
        wait: float | None = None
        try:
            answer = _post_once(client, post.url, body, headers, min(post.timeout_s, remaining))
        except httpx.TimeoutException:
            retried, error = True, f"no answer within {min(post.timeout_s, remaining):g} s"
        except (httpx.UnsupportedProtocol, httpx.InvalidURL) as exc:
            retried, error = False, f"unusable URL: {type(exc).__name__}: {exc}"
        except httpx.TransportError as exc:
            retried, error = True, f"unreachable: {type(exc).__name__}: {exc}"
        else:
            status = answer.status_code
            if answer.is_success:
                return Outcome(True, attempts, status, "", first_at, datetime.now(UTC))
            retried = status in _RETRIED_STATUSES or status >= 500
            error = f"answered {status}{_said(answer.body)}"
            wait = _retry_after(answer.headers)
        if not retried or attempts >= policy.attempts:
            break
        pause = wait if wait is not None else policy.backoff(attempts)
        if time.monotonic() + pause >= deadline:
            error += f"; the next try, in {pause:.1f} s, would pass the delivery deadline"
            break
        time.sleep(pause)
    tries = f"after {attempts} attempt{'s' if attempts != 1 else ''}"
    return Outcome(
        False, attempts, status, mask(f"{error} ({tries})", post.secrets), first_at, datetime.now(UTC)
    )


def shown_url(url: str) -> str:
    """Where a destination posts, for people: scheme and host, the rest (which may be a token) masked."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname}{f':{parts.port}' if parts.port else ''}/{MASK}"


def _body(payload: dict[str, Any]) -> bytes:
    # A lone surrogate in traced text cannot be UTF-8: it becomes "?" rather than failing the notification.
    return json.dumps(payload, ensure_ascii=False, allow_nan=False).encode("utf-8", "replace")


@dataclass(frozen=True)
class _Answer:
    status_code: int
    headers: httpx.Headers
    body: str
    """The start of the body (at most :data:`BODY_READ_BYTES`), as text."""

    @property
    def is_success(self) -> bool:
        return 200 <= self.status_code < 300


def _post_once(
    client: httpx.Client, url: str, body: bytes, headers: dict[str, str], timeout: float
) -> _Answer:
    with client.stream("POST", url, content=body, headers=headers, timeout=timeout) as response:
        if response.is_success:
            return _Answer(response.status_code, response.headers, "")
        start, _ = read_prefix(response.iter_bytes(), BODY_READ_BYTES)
        return _Answer(response.status_code, response.headers, start.decode("utf-8", "replace"))


def _said(body: str) -> str:
    """The start of an error answer's body (Slack says ``invalid_payload``, PagerDuty which field)."""
    text = printable(" ".join(body[: _BODY_SHOWN * 4].split()))[:_BODY_SHOWN]
    return f": {text}" if text else ""


def _retry_after(headers: httpx.Headers) -> float | None:
    """Seconds the ``Retry-After`` header asks for (delta-seconds or an HTTP date), when it is usable."""
    value = headers.get("Retry-After", "").strip()
    if not value:
        return None
    if value.isascii() and value.isdigit():  # "²" passes isdigit() alone, and float() refuses it
        return float(value)
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, (moment - datetime.now(UTC)).total_seconds())
