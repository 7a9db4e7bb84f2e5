"""Running a route's store work on the live page's one reader thread (embedded chDB handles are per thread),
bounded in time: a store that fails or takes too long answers 503 saying why."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final, TypeVar

from aiohttp import web
from ragpulse_core.errors import StoreUnavailable

logger = logging.getLogger(__name__)

T = TypeVar("T")
READ_TIMEOUT_S: Final = 30.0


async def on_reader(
    reader: ThreadPoolExecutor, work: Callable[[], T], unavailable: Callable[[str], str], what: str
) -> T:
    """``work``'s result; else 503 with ``unavailable``'s page for the reason (``what`` names the routes in
    the log)."""
    try:
        async with asyncio.timeout(READ_TIMEOUT_S):
            return await asyncio.wrap_future(reader.submit(work))
    except TimeoutError:
        reason = f"the store took over {READ_TIMEOUT_S:g} s; it may be busy"
    except StoreUnavailable as exc:
        logger.warning("%s: %s", what, exc)
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    raise web.HTTPServiceUnavailable(text=unavailable(reason), content_type="text/html")
