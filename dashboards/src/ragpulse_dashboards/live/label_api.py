"""The live page's label API: ``ragpulse label``, ``label --next``, ``labels import`` and ``export
--labelled`` sent by a command while this process holds the embedded database
(:mod:`ragpulse_dashboards.commands.labels`).

``POST /api/v1/labels/<call>?<parameters>`` (an import's file is the body) runs the call on the page's reader
thread, on this process's store, and answers ``{"exit": 0, "output": "...", "stdout": "..."}``: what the
command would have printed, rendered for its terminal. Only a script's ``Authorization: Bearer`` read token
reaches it (a browser's session cookie does not, even beside another Authorization header, so no other
site can make a signed-in browser post here),
and a call that stores labels also needs the write token in ``X-Ragpulse-Write-Token`` when
``live.write_token`` is set, as the page's own label form does.
"""

from __future__ import annotations

import asyncio
import io
import logging
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import IO

from aiohttp import web
from ragpulse_core.errors import StoreUnavailable
from ragpulse_core.store import Store

from ragpulse_dashboards.commands.label_calls import (
    IMPORT_MAX_BYTES,
    LABEL_API_PREFIX,
    WRITE_TOKEN_HEADER,
    LabelCall,
    call_named,
)
from ragpulse_dashboards.live.access import Access
from ragpulse_dashboards.live.forms import FormGuard
from ragpulse_dashboards.live.limits import SignInLimit
from ragpulse_dashboards.live.terminals import printed, terminal_console, terminal_of

logger = logging.getLogger(__name__)

CALL_TIMEOUT_S = 60.0
IMPORT_TIMEOUT_S = 600.0
_SPOOLED_BYTES = 1024 * 1024
_CHUNK_BYTES = 64 * 1024


class LabelApi:
    def __init__(
        self,
        store: Store,
        reader: ThreadPoolExecutor,
        access: Access,
        guard: FormGuard,
        sign_ins: SignInLimit,
    ) -> None:
        self._store = store
        self._access = access
        self._reader = reader
        self._guard = guard
        self._sign_ins = sign_ins

    def add_to(self, app: web.Application) -> None:
        app.router.add_post(f"{LABEL_API_PREFIX}{{call}}", self._call)

    async def _call(self, request: web.Request) -> web.StreamResponse:
        if not self._access.bearer_matches(request.headers.get("Authorization")):
            return _refused(403, "the label API takes a command's bearer token, not a browser's session")
        try:
            call = call_named(request.match_info["call"], request.query)
            width, colour = terminal_of(request.query)
        except ValueError as exc:
            return _refused(400, str(exc))
        if call.writes and self._guard.needs_write_token:
            presented = request.headers.get(WRITE_TOKEN_HEADER)
            if not self._guard.write_token_matches(presented):
                if presented is not None:
                    self._sign_ins.failed(request.remote or "unknown")
                return _refused(
                    403,
                    "this page takes labels only with its write token: give the command the same"
                    " live.write_token (RAGPULSE_LIVE__WRITE_TOKEN, live.write_token_file)",
                )
        body: IO[bytes] | None = None
        if call.takes_file:
            body = await _body(request)
            if body is None:
                return _refused(413, f"an import of over {IMPORT_MAX_BYTES // 2**20} MiB is not taken here")
        timeout_s = IMPORT_TIMEOUT_S if body is not None else CALL_TIMEOUT_S
        try:
            async with asyncio.timeout(timeout_s):
                code, output, data = await asyncio.wrap_future(
                    self._reader.submit(_perform, call, self._store, body, width, colour)
                )
        except TimeoutError:
            return _refused(503, f"the store took over {timeout_s:g} s; it may be busy (some may be stored)")
        except StoreUnavailable as exc:
            return _refused(
                503, str(exc).strip().splitlines()[0] if str(exc).strip() else "store unavailable"
            )
        finally:
            if body is not None:
                body.close()
        if call.writes:
            logger.info("live page: a command's %s call through the label API ended with %d", call.name, code)
        return web.json_response({"exit": code, "output": output, "stdout": data})


def _perform(
    call: LabelCall, store: Store, body: IO[bytes] | None, width: int, colour: str
) -> tuple[int, str, str]:
    console = terminal_console(width, colour)
    out = io.StringIO()
    code = call.perform(store, console, out, body)
    return code, printed(console), out.getvalue()


async def _body(request: web.Request) -> IO[bytes] | None:
    """The posted file (empty when nothing was posted), spooled to disk past a megabyte; None past
    :data:`IMPORT_MAX_BYTES` (nothing of it is stored then)."""
    spooled: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=_SPOOLED_BYTES)  # noqa: SIM115 - closed by the caller
    size = 0
    async for chunk in request.content.iter_chunked(_CHUNK_BYTES):
        size += len(chunk)
        if size > IMPORT_MAX_BYTES:
            spooled.close()
            return None
        spooled.write(chunk)
    spooled.seek(0)
    return spooled


def _refused(status: int, reason: str) -> web.Response:
    return web.json_response({"error": reason}, status=status)
