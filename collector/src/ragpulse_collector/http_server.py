"""The OTLP/HTTP receiver: ``POST /v1/traces``, ``/v1/logs`` and ``/v1/metrics``, ``GET /healthz``,
``GET /metrics``, served by aiohttp.

Why aiohttp: parsing HTTP is not this project's job. aiohttp is maintained, parses with llhttp (C),
rejects malformed framing itself (negative or garbled ``Content-Length``, bad chunk sizes: 400), bounds the
request line, header fields and header count, takes a listen backlog, and streams bodies with flow control,
so a body is only read as far as the handler asks. One event loop holds any number of slow connections
without a thread each (slowloris starves no one); decoding and mapping run on a few worker threads.

Status codes follow the OTLP/HTTP spec, so stock exporters retry exactly what is worth retrying: 200 (with
``partial_success`` for refused spans or log records), 400 for a body that cannot be decoded, 413 when too
large, 415 for an unknown content type, 401 for a missing or wrong bearer token, 408 for a body that does not
arrive, and 429/503 with ``Retry-After`` when the write queue is full or the write did not happen. A path or
method it does not serve gets a 404 or 405 that names the right one (:mod:`ragpulse_collector.hints`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from ragpulse_core.log_budget import LogBudget
from ragpulse_core.settings import CollectorSettings

from ragpulse_collector import hints, otlp
from ragpulse_collector.auth import BearerAuth
from ragpulse_collector.exports import (
    HTTP_STATUS,
    RETRY_AFTER_S,
    ExportHandler,
    ExportResult,
    ExportStatus,
    Queued,
)
from ragpulse_collector.metrics import CollectorMetrics
from ragpulse_collector.signals import SIGNALS, Signal

logger = logging.getLogger(__name__)

# Decoding and mapping hold the GIL, so threads do not add CPU; a few let concurrent requests finish close
# together and reach the writer as one batch (one insert). Measured side by side: 1 thread cost ~20% more CPU
# per span than 4; 8 were no better than 4.
DECODE_THREADS = 4
# How long stopping waits for handlers still awaiting their acks before cancelling them.
SHUTDOWN_GRACE_S = 20.0
DRAIN_POLL_S = 0.05
READ_CHUNK = 256 * 1024

RPC_CODE: dict[ExportStatus, int] = {
    ExportStatus.OK: 0,
    ExportStatus.INVALID: otlp.RPC_INVALID_ARGUMENT,
    ExportStatus.TOO_LARGE: otlp.RPC_INVALID_ARGUMENT,
    ExportStatus.QUEUE_FULL: otlp.RPC_RESOURCE_EXHAUSTED,
    ExportStatus.UNAVAILABLE: otlp.RPC_UNAVAILABLE,
}

Health = Callable[[], tuple[bool, dict[str, Any]]]


class _BodyTooLarge(Exception):
    pass


class _BodiesBuffered(Exception):
    """All requests together hold as many body bytes as the collector lets them (429)."""


class _ConnectionLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """aiohttp's connection log. A malformed request (already answered 400 or 431) is one info line naming
    the kind of error and nothing of the request: aiohttp's message and traceback quote the request line
    and headers, which may carry a token. Such lines come from senders nobody vouches for, so they are kept
    within a :class:`LogBudget` (a flood of malformed requests costs a few lines a minute, as on the live
    page). Errors in the handlers stay errors, with their traceback."""

    def __init__(self, logger: logging.Logger, budget: LogBudget) -> None:
        super().__init__(logger, {})
        self._budget = budget

    def exception(self, msg: object, *args: object, exc_info: Any = True, **kwargs: Any) -> None:
        if isinstance(exc_info, HttpProcessingError):
            note = self._budget.admit()
            if note is not None:
                self.log(
                    logging.INFO,
                    "malformed HTTP request answered %s (%s)%s",
                    exc_info.code,
                    type(exc_info).__name__,
                    note,
                )
            return
        self.log(logging.ERROR, msg, *args, exc_info=exc_info, **kwargs)


class HttpReceiver:
    """aiohttp on its own event-loop thread; ``start()`` returns once it listens."""

    def __init__(
        self,
        settings: CollectorSettings,
        exports: ExportHandler,
        auth: BearerAuth,
        metrics: CollectorMetrics,
        health: Health,
    ) -> None:
        self._settings = settings
        self._exports = exports
        self._auth = auth
        self._metrics = metrics
        self._health = health
        self._decoders = ThreadPoolExecutor(DECODE_THREADS, thread_name_prefix="ragpulse-decode")
        self._loop = asyncio.new_event_loop()
        self._runner: web.AppRunner | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, name="ragpulse-http", daemon=True)
        self.address: tuple[str, int] | None = None
        self._decoding: asyncio.Semaphore | None = None
        # Body bytes held by requests being read or waiting to be decoded; only the event loop changes it.
        self._buffered_bytes = 0
        # Requests whose handler runs (their body may still be arriving); only the event loop changes it.
        self._in_flight = 0
        self._draining = False
        metrics.gauge(
            "http_body_bytes_buffered",
            "Request body bytes read and not yet decoded",
            lambda: self._buffered_bytes,
        )

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(timeout=30)

    def stop(self) -> None:
        if self._runner is not None:
            cleanup = asyncio.run_coroutine_threadsafe(self._drain(self._runner), self._loop)
            self._runner = None
            try:
                cleanup.result(timeout=SHUTDOWN_GRACE_S + 10)
            except TimeoutError:
                logger.warning("the HTTP receiver did not close in %.0f s; stopping anyway", SHUTDOWN_GRACE_S)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        if not self._thread.is_alive():
            self._loop.close()
        self._decoders.shutdown(wait=False, cancel_futures=True)

    async def _drain(self, runner: web.AppRunner) -> None:
        """Stop accepting connections, let the requests under way finish, then close the rest.

        aiohttp's own cleanup stops reading every connection at once, so a request whose body was still
        arriving could never finish: it waited out the grace, was cancelled, and its client got no answer.
        """
        self._draining = True
        for site in list(runner.sites):
            await site.stop()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SHUTDOWN_GRACE_S
        while self._in_flight and loop.time() < deadline:
            await asyncio.sleep(DRAIN_POLL_S)
        await runner.cleanup()

    async def _listen(self) -> None:
        settings = self._settings
        self._decoding = asyncio.Semaphore(settings.max_concurrent_requests)
        app = web.Application(
            middlewares=[self._count_in_flight, self._close_unread_bodies, self._hint_wrong_paths]
        )
        for signal in SIGNALS:
            app.router.add_post(signal.path, self._exporting(signal))
        app.router.add_get(hints.HEALTH_PATH, self._healthz)
        app.router.add_get(hints.METRICS_PAGE_PATH, self._metrics_page)
        self._runner = web.AppRunner(
            app,
            access_log=None,
            handle_signals=False,
            logger=_ConnectionLog(logger, LogBudget()),
            keepalive_timeout=settings.keepalive_timeout_s,
            max_line_size=settings.max_header_bytes,
            max_field_size=settings.max_header_bytes,
            # Anything unread when the answer is sent is not drained: the connection is closed instead.
            lingering_time=0,
            # Bodies arrive as sent; otlp.decompress inflates them within the limit (no gzip bombs).
            auto_decompress=False,
            # Stopping cancels handlers still waiting for their acks after this long; their clients retry.
            shutdown_timeout=SHUTDOWN_GRACE_S,
        )
        await self._runner.setup()
        site = web.TCPSite(
            self._runner, settings.host, settings.port, backlog=settings.backlog, reuse_address=True
        )
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.address = (str(host), int(port))

    @web.middleware
    async def _count_in_flight(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if self._draining:
            # A request that starts once stopping began, on a kept-alive connection: not written, retry later
            # (elsewhere), and the connection closes so a busy client cannot keep the drain waiting.
            self._metrics.count_response(HTTPStatus.SERVICE_UNAVAILABLE)
            refused = web.Response(
                status=HTTPStatus.SERVICE_UNAVAILABLE,
                text="the collector is stopping\n",
                headers={"Retry-After": str(RETRY_AFTER_S[ExportStatus.UNAVAILABLE])},
            )
            refused.force_close()
            return refused
        self._in_flight += 1
        try:
            return await handler(request)
        finally:
            self._in_flight -= 1

    @web.middleware
    async def _close_unread_bodies(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Every answer sent before its body was read (404, 405, 401, 413...) closes the connection."""
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            self._metrics.count_response(exc.status)
            if _body_unread(request):
                exc.force_close()
            raise
        if _body_unread(request):
            response.force_close()
        return response

    @web.middleware
    async def _hint_wrong_paths(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """A 404 or 405 that says what the sender probably meant."""
        try:
            return await handler(request)
        except web.HTTPNotFound:
            answer = hints.unknown_path(request.path)
            self._metrics.count_response(404)
            return web.Response(status=404, reason=answer.reason, text=answer.text)
        except web.HTTPMethodNotAllowed as exc:
            answer = hints.wrong_method(request.method, request.path, exc.allowed_methods)
            self._metrics.count_response(405)
            return web.Response(
                status=405,
                reason=answer.reason,
                text=answer.text,
                headers={"Allow": ",".join(sorted(exc.allowed_methods))},
            )

    def _exporting(self, signal: Signal) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def export(request: web.Request) -> web.StreamResponse:
            return await self._export(signal, request)

        return export

    async def _export(self, signal: Signal, request: web.Request) -> web.StreamResponse:
        try:
            kind, unsupported = otlp.media_type(request.headers.get("Content-Type")), None
        except otlp.UnsupportedMediaType as exc:
            kind, unsupported = otlp.PROTOBUF, exc
        if not self._auth.allows(request.headers.get("Authorization")):
            return self._status_reply(
                401,
                kind,
                otlp.RPC_UNAUTHENTICATED,
                "missing or wrong bearer token",
                {"WWW-Authenticate": "Bearer"},
            )
        if unsupported is not None:
            return self._status_reply(415, kind, otlp.RPC_INVALID_ARGUMENT, str(unsupported))
        assert self._decoding is not None
        try:
            async with asyncio.timeout(self._settings.body_timeout_s):
                body = await self._read_body(request)
        except _BodyTooLarge as exc:
            return self._status_reply(413, kind, otlp.RPC_INVALID_ARGUMENT, str(exc))
        except _BodiesBuffered as exc:
            headers = {"Retry-After": str(RETRY_AFTER_S[ExportStatus.QUEUE_FULL])}
            return self._status_reply(429, kind, otlp.RPC_RESOURCE_EXHAUSTED, f"{exc}; retry later", headers)
        except TimeoutError:
            message = f"body not received within {self._settings.body_timeout_s:g} s"
            return self._status_reply(408, kind, otlp.RPC_INVALID_ARGUMENT, message)
        try:
            async with self._decoding:
                loop = asyncio.get_running_loop()
                encoding = request.headers.get("Content-Encoding")
                accepted = await loop.run_in_executor(
                    self._decoders, self._exports.accept, signal, body, kind, encoding
                )
        finally:
            self._buffered_bytes -= len(body)
        del body  # not kept alive while the ack is awaited
        result = await self._settle(accepted) if isinstance(accepted, Queued) else accepted
        return self._export_reply(signal, result, kind)

    async def _read_body(self, request: web.Request) -> bytes:
        """The body, within the per-request limit and the budget of all bodies held at once.

        Only bytes received count against the budget, so slow senders hold little of it and cannot starve
        the others. The caller gives the body's length back to the budget once it is decoded.
        """
        limit = self._settings.max_body_bytes
        declared = request.content_length
        if declared is not None and declared > limit:
            raise _BodyTooLarge(f"body of {declared} bytes exceeds {limit} bytes")
        parts: list[bytes] = []
        held = 0
        try:
            while chunk := await request.content.read(READ_CHUNK):
                if held + len(chunk) > limit:
                    raise _BodyTooLarge(f"body exceeds {limit} bytes")
                if self._buffered_bytes + len(chunk) > self._settings.max_buffered_bytes:
                    raise _BodiesBuffered(f"request bodies in progress hold {self._buffered_bytes} bytes")
                self._buffered_bytes += len(chunk)
                held += len(chunk)
                parts.append(chunk)
        except BaseException:
            self._buffered_bytes -= held
            raise
        return b"".join(parts)

    async def _settle(self, queued: Queued) -> ExportResult:
        loop = asyncio.get_running_loop()
        resolved = loop.create_future()

        def wake() -> None:
            if not resolved.done():
                resolved.set_result(None)

        queued.ticket.add_done_callback(lambda: _call_soon(loop, wake))
        timeout = self._settings.ack_timeout_s
        try:
            await asyncio.wait_for(asyncio.shield(resolved), timeout)
        except TimeoutError:
            if not self._exports.withdraw_if_queued(queued):
                # Already inside an insert: that insert's outcome is the answer, if it comes in time.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(resolved), timeout)
        return self._exports.conclude(queued)

    def _export_reply(self, signal: Signal, result: ExportResult, kind: str) -> web.Response:
        status, rpc_code = HTTP_STATUS[result.status], RPC_CODE[result.status]
        if result.status is ExportStatus.OK:
            self._metrics.count_response(status)
            body = otlp.encode_response(signal, kind, result.rejected, result.message)
            return web.Response(status=200, body=body, content_type=kind)
        headers = {}
        if result.status in RETRY_AFTER_S:
            headers["Retry-After"] = str(RETRY_AFTER_S[result.status])
        return self._status_reply(status, kind, rpc_code, result.message, headers)

    def _status_reply(
        self, status: int, kind: str, rpc_code: int, message: str, headers: dict[str, str] | None = None
    ) -> web.Response:
        self._metrics.count_response(status)
        return web.Response(
            status=status,
            body=otlp.encode_status(kind, rpc_code, message),
            content_type=kind,
            headers=headers,
        )

    async def _healthz(self, request: web.Request) -> web.Response:
        loop = asyncio.get_running_loop()
        # Not on the decoding thread: /healthz must answer while requests queue for it.
        ok, report = await loop.run_in_executor(None, self._health)
        return web.Response(
            status=200 if ok else 503, text=json.dumps(report), content_type="application/json"
        )

    async def _metrics_page(self, request: web.Request) -> web.Response:
        if self._settings.metrics_require_auth and not self._auth.allows(
            request.headers.get("Authorization")
        ):
            return web.Response(
                status=401, text="missing or wrong bearer token\n", headers={"WWW-Authenticate": "Bearer"}
            )
        return web.Response(
            body=self._metrics.render().encode(),
            headers={"Content-Type": "text/plain; version=0.0.4; charset=utf-8"},
        )


def _body_unread(request: web.Request) -> bool:
    return request.can_read_body and not request.content.is_eof()


def _call_soon(loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> None:
    """Run ``callback`` on the event loop's thread (ticket callbacks come from the writer's).

    A loop closed by ``stop()`` has no handler left to wake, so its callbacks are dropped.
    """
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(callback)
