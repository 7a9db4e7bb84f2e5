"""The live page of ``ragpulse serve``: the report per service, reloading itself, served by aiohttp.

aiohttp is the maintained server the collector already uses: one event loop holds any number of slow or idle
connections without a thread each, and a connection that sends no complete request head (or idles) for
``live.header_timeout_s`` is closed, so slow clients neither starve readers nor pile up sockets. Renders are
shared and reused briefly (:mod:`ragpulse_dashboards.live.renders`). Every request passes the Host allowlist
and the read token (:mod:`ragpulse_dashboards.live.access`), and every answer carries headers that keep other
sites from framing, sniffing or reading it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from urllib.parse import quote

from aiohttp import web
from ragpulse_core.log_budget import LogBudget
from ragpulse_core.store import Store
from ragpulse_scorers.services import services_since

from ragpulse_dashboards.commands.read_query import ReadQuery, Shown
from ragpulse_dashboards.commands.views import show
from ragpulse_dashboards.live import pages
from ragpulse_dashboards.live.access import COOKIE, COOKIE_MAX_AGE_S, Access, ReadToken, write_token
from ragpulse_dashboards.live.forms import FormGuard
from ragpulse_dashboards.live.label_api import LabelApi
from ragpulse_dashboards.live.limits import ConnectionLog, SignInLimit
from ragpulse_dashboards.live.redirects import form_target, same_site_target
from ragpulse_dashboards.live.renders import SharedRenders
from ragpulse_dashboards.live.review import ReviewRoutes
from ragpulse_dashboards.live.rootcause import RootCauseRoutes
from ragpulse_dashboards.live.terminals import printed, terminal_console, terminal_of
from ragpulse_dashboards.report.collect import collect_alerting_report
from ragpulse_dashboards.report.html import CONTENT_SECURITY_POLICY, ServiceSelector, render_html
from ragpulse_dashboards.review.html import QUEUE_PATH, WRITE_SIGN_IN_PATH
from ragpulse_dashboards.settings import DashboardsSettings

logger = logging.getLogger(__name__)

RENDER_TIMEOUT_S = 30.0
BACKLOG = 1024
SIGN_IN_BODY_BYTES = 4096
READ_API_PATH = "/api/v1/{view}"
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
}
_SERVICES_KEY = "services"
# Paths OTLP exporters post to: on this port they were meant for the collector.
_OTLP_PATHS = frozenset({"/v1/traces", "/v1/logs", "/v1/metrics"})

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class LivePage:
    """``GET /`` (all services) and ``GET /?service=NAME``: the report; ``GET /healthz``: ``ok``."""

    def __init__(self, settings: DashboardsSettings, store: Store, token: ReadToken) -> None:
        self._settings = settings
        self._store = store
        self._token = token
        self._access = Access(token.value, settings.live.allowed_hosts)
        live = settings.live
        self._sign_ins = SignInLimit(live.sign_in_attempts, live.sign_in_window_s)
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ragpulse-live-reader")
        self._pages: SharedRenders[bytes] = SharedRenders(self._reader, live.cache_s, RENDER_TIMEOUT_S)
        self._services: SharedRenders[list[str]] = SharedRenders(self._reader, live.cache_s, RENDER_TIMEOUT_S)
        forms = FormGuard(token.value, write_token(settings))
        self._review = ReviewRoutes(settings, store, self._reader, forms, self._sign_ins)
        self._labels = LabelApi(store, self._reader, self._access, forms, self._sign_ins)
        self._rootcause = RootCauseRoutes(settings, store, self._reader)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="ragpulse-live-http", daemon=True)
        self._runner: web.AppRunner | None = None
        self._address: tuple[str, int] | None = None

    @property
    def url(self) -> str:
        """The page's address, without any token (for notes and logs)."""
        if self._address is None:
            raise RuntimeError("the live page is not started")
        host, port = self._address
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"

    @property
    def token(self) -> ReadToken:
        return self._token

    def sign_in_url(self) -> str:
        """The address that signs a browser in (it holds the token: show it to the operator only)."""
        return f"{self.url}?token={quote(self._token.value, safe='')}"

    def start(self) -> None:
        """Listen; a port already in use raises OSError (and leaves nothing running)."""
        self._thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(timeout=30)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(timeout=30)
            self._runner = None
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
        if not self._thread.is_alive():
            self._loop.close()
        self._reader.shutdown(wait=True, cancel_futures=True)

    async def _listen(self) -> None:
        live = self._settings.live
        app = web.Application(middlewares=[self._guard], client_max_size=SIGN_IN_BODY_BYTES)
        app.on_response_prepare.append(_secure)
        app.router.add_get("/", self._report)
        app.router.add_get("/healthz", _healthz)
        app.router.add_post(pages.SIGN_IN_PATH, self._sign_in)
        app.router.add_get(READ_API_PATH, self._read)
        self._review.add_to(app)
        self._labels.add_to(app)
        self._rootcause.add_to(app)
        # access_log off and aiohttp's own log rewritten: a request line can hold ?token=, and nothing here
        # may write the token down.
        self._runner = web.AppRunner(
            app,
            access_log=None,
            logger=ConnectionLog(logger, LogBudget()),
            handle_signals=False,
            keepalive_timeout=live.header_timeout_s,
            shutdown_timeout=2.0,
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, live.host, live.port, backlog=BACKLOG, reuse_address=True)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self._address = (str(host), int(port))

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The Host allowlist, then the read token (cookie, bearer, or ``?token=`` which sets the cookie);
        a client that guessed wrong too often waits before any token of its is looked at."""
        host = request.headers.get("Host")
        if not self._access.host_allowed(host):
            # The header is not quoted: nothing a client sends is written down as it was sent.
            logger.debug("live page: refused a Host not in live.allowed_hosts from %s", request.remote)
            return web.Response(
                status=421,
                text="this page answers only to the host names in live.allowed_hosts (and IP addresses)\n",
            )
        if request.path in _OTLP_PATHS:
            return self._wrong_port(request)
        if request.path == "/healthz":
            return await handler(request)
        client = request.remote or "unknown"
        presented = _presents_token(request)
        if presented:
            wait_s = self._sign_ins.retry_after(client)
            if wait_s is not None:
                return _too_many_sign_ins(wait_s)
        if request.path == pages.SIGN_IN_PATH:
            response = await handler(request)
        elif "token" in request.query:
            response = self._token_in_url(request)
        elif self._access.cookie_matches(request.cookies.get(COOKIE)) or self._access.bearer_matches(
            request.headers.get("Authorization")
        ):
            return await handler(request)
        else:
            response = _sign_in_page(_view_target(request), refused=False)
        if presented and response.status == 401:
            self._sign_ins.failed(client)
        return response

    def _wrong_port(self, request: web.Request) -> web.StreamResponse:
        """OTLP sent here was meant for the collector: say where it listens (nothing else about this page)."""
        collector = self._settings.collector
        port = f":{collector.port}" if collector.port else "the collector's port"
        hint = f"this is the ragpulse live page; send OTLP to {port}{request.path}"
        return web.Response(status=404, reason=f"Not Found. {hint}", text=f"404: {hint}\n")

    def _token_in_url(self, request: web.Request) -> web.StreamResponse:
        """A correct ``?token=`` signs the browser in and sends it to the same view without the token, so the
        token leaves the address bar and the history."""
        target = _view_target(request)
        if not self._access.token_matches(request.query.get("token")):
            return _sign_in_page(target, refused=True)
        return self._signed_in(target, _over_https(request))

    async def _sign_in(self, request: web.Request) -> web.StreamResponse:
        async with asyncio.timeout(self._settings.live.header_timeout_s):
            form = await request.post()
        target = form_target(str(form.get("next", "/")))
        token = form.get("token")
        if not isinstance(token, str) or not self._access.token_matches(token):
            return _sign_in_page(target, refused=True)
        return self._signed_in(target, _over_https(request))

    def _signed_in(self, target: str, secure: bool) -> web.StreamResponse:
        response = web.Response(status=303, headers={"Location": target})
        cookie = self._access.cookie_value
        response.set_cookie(
            COOKIE, cookie, max_age=COOKIE_MAX_AGE_S, path="/", httponly=True, samesite="Lax", secure=secure
        )
        return response

    async def _report(self, request: web.Request) -> web.StreamResponse:
        service = request.query.get("service")
        try:
            services = await self._services.get(_SERVICES_KEY, self._read_services)
            if service is not None and service not in services:
                selector = ServiceSelector(services, None)
                body = pages.unknown_service(service, selector, self._settings.live.window_hours)
                return web.Response(status=404, text=body, content_type="text/html")
            page = await self._pages.get(service, functools.partial(self._render, service, services))
        except TimeoutError:
            return _unavailable(f"reading the report took over {RENDER_TIMEOUT_S:g} s; the store may be busy")
        except Exception as exc:  # the page says what failed; the next reload tries again
            logger.warning("live report failed: %s", exc)
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            return _unavailable(f"report unavailable: {reason}")
        return web.Response(body=page, content_type="text/html", charset="utf-8")

    async def _read(self, request: web.Request) -> web.StreamResponse:
        """A command's view (report, requests, alerts) rendered for its terminal, while this process holds the
        embedded database: ``{"exit": 0, "output": "...", "html": null}``."""
        try:
            query = ReadQuery.from_params(request.match_info["view"], request.query)
            width, colour = terminal_of(request.query)
        except ValueError as exc:
            return web.json_response({"error": str(exc)}, status=400)
        render = functools.partial(self._render_view, query, width, colour)
        try:
            async with asyncio.timeout(RENDER_TIMEOUT_S):
                output, shown = await asyncio.wrap_future(self._reader.submit(render))
        except TimeoutError:
            error = f"reading took over {RENDER_TIMEOUT_S:g} s; the store may be busy"
            return web.json_response({"error": error}, status=503)
        except ValueError as exc:  # a parameter only the view can check (its rule, what an evaluator reads)
            return web.json_response({"error": str(exc)[:300]}, status=400)
        return web.json_response({"exit": shown.code, "output": output, "html": shown.html})

    def _render_view(self, query: ReadQuery, width: int, colour: str) -> tuple[str, Shown]:
        console = terminal_console(width, colour)
        shown = show(query, self._store, self._settings, console)
        return printed(console), shown

    def _since(self) -> datetime:
        return datetime.now(UTC) - timedelta(hours=self._settings.live.window_hours)

    def _read_services(self) -> list[str]:
        return services_since(self._store, self._since())

    def _render(self, service: str | None, services: list[str]) -> bytes:
        settings = self._settings
        data = collect_alerting_report(
            self._store, self._since(), service, settings.alerts, settings.judge.prices
        )
        selector = ServiceSelector(services, service)
        return render_html(data, refresh_s=settings.live.refresh_s, selector=selector).encode("utf-8")


async def _healthz(request: web.Request) -> web.Response:
    return web.Response(text="ok\n")


async def _secure(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(SECURITY_HEADERS)
    if request.path == QUEUE_PATH or request.path.startswith(f"{QUEUE_PATH}/"):
        # A review page's form must name this origin when it posts (a no-referrer page's post says "null").
        response.headers["Referrer-Policy"] = "same-origin"


def _over_https(request: web.Request) -> bool:
    """Whether the reader came over TLS, here or at a proxy in front: then the cookie is sent over TLS only.
    Trusting the proxy's header is safe here, since it can only make the cookie stricter."""
    return request.secure or request.headers.get("X-Forwarded-Proto", "").lower() == "https"


def _presents_token(request: web.Request) -> bool:
    """Whether the request tries a token (the sign-in form, ``?token=`` or an Authorization header)."""
    return (
        (request.path in (pages.SIGN_IN_PATH, WRITE_SIGN_IN_PATH) and request.method == "POST")
        or "token" in request.query
        or "Authorization" in request.headers
    )


def _view_target(request: web.Request) -> str:
    """The view a request asked for, as a target that stays on this site."""
    return same_site_target(request.path, request.query.items())


def _sign_in_page(target: str, refused: bool) -> web.Response:
    return web.Response(
        status=401,
        text=pages.sign_in(target, refused),
        content_type="text/html",
        headers={"WWW-Authenticate": 'Bearer realm="ragpulse live report"'},
    )


def _too_many_sign_ins(wait_s: int) -> web.Response:
    return web.Response(
        status=429,
        text=f"too many wrong tokens from this address: try again in {wait_s} s\n",
        headers={"Retry-After": str(wait_s)},
    )


def _unavailable(reason: str) -> web.Response:
    return web.Response(status=503, text=pages.unavailable(reason), content_type="text/html")
