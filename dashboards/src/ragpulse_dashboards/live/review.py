"""The live page's review routes: the queue, a request's view, and the label form's post.

Reading and writing run on the page's one reader thread (embedded chDB handles are per thread). Nothing here
is shared or cached between readers: a label changes the queue at once. Every route sits behind the page's
guard (Host allowlist, read token); posting a label also needs the write session when a write token is set,
and the form key (:mod:`ragpulse_dashboards.live.forms`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import TypeVar
from urllib.parse import parse_qsl, quote, unquote

from aiohttp import web
from ragpulse_core.store import Store
from ragpulse_scorers.review import REASONS, review_queue

from ragpulse_dashboards.live.forms import FIELD, NONCE_COOKIE, WRITE_COOKIE, FormGuard, same_site_post
from ragpulse_dashboards.live.limits import SignInLimit
from ragpulse_dashboards.live.reader import on_reader
from ragpulse_dashboards.live.redirects import form_target
from ragpulse_dashboards.review import html
from ragpulse_dashboards.review.figures import figures_html
from ragpulse_dashboards.review.label_form import LabelForm
from ragpulse_dashboards.review.labelling import save_label
from ragpulse_dashboards.review.request import RequestId, RequestView, read_request
from ragpulse_dashboards.review.request_details import RequestDetails, read_request_details
from ragpulse_dashboards.settings import DashboardsSettings

logger = logging.getLogger(__name__)

T = TypeVar("T")
# A label's form: sentences ticked, a name and a note of at most NOTE_LIMIT characters, percent-encoded.
FORM_BODY_BYTES = 64 * 1024
QUEUE_SHOWN = 20
AUTHOR_COOKIE = "ragpulse_reviewer"
_COOKIE_MAX_AGE_S = 30 * 24 * 3600


class ReviewRoutes:
    def __init__(
        self,
        settings: DashboardsSettings,
        store: Store,
        reader: ThreadPoolExecutor,
        guard: FormGuard,
        sign_ins: SignInLimit,
    ) -> None:
        self._settings = settings
        self._store = store
        self._reader = reader
        self._guard = guard
        self._sign_ins = sign_ins

    def add_to(self, app: web.Application) -> None:
        app.router.add_get(html.QUEUE_PATH, self._queue)
        app.router.add_get(html.NEXT_PATH, self._next)
        app.router.add_get(html.REQUEST_PATH, self._request)
        app.router.add_post(html.LABEL_PATH, self._label)
        app.router.add_post(html.WRITE_SIGN_IN_PATH, self._write_sign_in)

    async def _on_reader(self, work: Callable[[], T]) -> T:
        """``work`` on the reader thread (a label that was being written when the store failed may or may not
        be stored: the queue shows which)."""
        return await on_reader(self._reader, work, html.unavailable, "live page review")

    def _since(self) -> datetime:
        return datetime.now(UTC) - timedelta(hours=self._settings.live.window_hours)

    async def _queue(self, request: web.Request) -> web.StreamResponse:
        service = request.query.get("service")
        since = self._since()

        def read() -> str:
            offers = review_queue(self._store, since=since, service=service, limit=QUEUE_SHOWN)
            figures = figures_html(self._store, since, service)
            return html.queue_page(offers, service, figures, saved="saved" in request.query)

        return _html(await self._on_reader(read))

    async def _next(self, request: web.Request) -> web.StreamResponse:
        """The head of the queue (its request view), or the queue saying nothing is left."""
        service = request.query.get("service")
        since = self._since()
        offers = await self._on_reader(
            lambda: review_queue(self._store, since=since, service=service, limit=1)
        )
        if not offers:
            query = html.scope_query(service)
            return _see_other(f"{html.QUEUE_PATH}{query}{'&' if query else '?'}saved=1")
        offer = offers[0]
        target = html.request_link(
            RequestId(offer.trace_id, offer.span_id, offer.at_us), offer.reason, service
        )
        return _see_other(target)

    async def _request(self, request: web.Request) -> web.StreamResponse:
        try:
            wanted = _request_id(
                request.query.get("trace"), request.query.get("span"), request.query.get("at")
            )
        except ValueError as exc:
            return _html(html.bad_form(str(exc)), status=400)
        service = request.query.get("service")
        reason = request.query.get("why") if request.query.get("why") in REASONS else None
        found = await self._on_reader(lambda: _with_details(self._store, wanted))
        if found is None:
            return _html(html.not_found(wanted, service), status=404)
        view, details = found
        nonce = request.cookies.get(NONCE_COOKIE) or FormGuard.new_nonce()
        body = html.request_page(
            view,
            reason=reason,
            service=service,
            form_key=self._guard.field_for(nonce),
            may_write=self._guard.may_write(request.cookies),
            author=unquote(request.cookies.get(AUTHOR_COOKIE, "")),
            details=details,
        )
        response = _html(body)
        if NONCE_COOKIE not in request.cookies:
            response.set_cookie(
                NONCE_COOKIE, nonce, path="/", httponly=True, samesite="Strict", secure=_over_https(request)
            )
        return response

    async def _label(self, request: web.Request) -> web.StreamResponse:
        if not same_site_post(request.headers, request.headers.get("Host", "")):
            return _html(html.stale_form("it came from another site"), status=403)
        form = await _form(request)
        if not self._guard.field_matches(request.cookies.get(NONCE_COOKIE), _one(form, FIELD)):
            return _html(html.stale_form("its form key does not match this browser's"), status=403)
        if not self._guard.may_write(request.cookies):
            return _html(html.stale_form("labelling needs the write token"), status=403)
        try:
            wanted = _request_id(_one(form, "trace"), _one(form, "span"), _one(form, "at"))
            posted = LabelForm.parse(
                label=_one(form, "label"),
                sentences=[value for name, value in form if name == "sentence"],
                author=_one(form, "author"),
                note=_one(form, "note"),
            )
        except ValueError as exc:
            return _html(html.bad_form(str(exc)), status=400)

        def write() -> RequestView | None:
            view = read_request(self._store, wanted)
            if view is not None:
                save_label(self._store, view, posted)
            return view

        try:
            view = await self._on_reader(write)
        except ValueError as exc:
            return _html(html.bad_form(str(exc)), status=400)
        service = _scope(form)
        if view is None:
            return _html(html.not_found(wanted, service), status=404)
        logger.info(
            "live page: %s labelled %s %s as %s", posted.author, wanted.trace_id, wanted.span_id, posted.label
        )
        response = _see_other(f"{html.NEXT_PATH}{html.scope_query(service)}")
        response.set_cookie(
            AUTHOR_COOKIE, quote(posted.author, safe=""), max_age=_COOKIE_MAX_AGE_S, path="/", httponly=True,
            samesite="Strict", secure=_over_https(request),
        )  # fmt: skip
        return response

    async def _write_sign_in(self, request: web.Request) -> web.StreamResponse:
        """The write token, posted from a request view: a right one sets the write session's cookie. (The
        page's guard already made a client that guessed wrong too often wait.)"""
        client = request.remote or "unknown"
        form = await _form(request)
        target = form_target(_one(form, "next") or html.QUEUE_PATH)
        if not self._guard.write_token_matches(_one(form, "token")):
            self._sign_ins.failed(client)
            return _html(html.stale_form("that write token is not the page's"), status=401)
        response = _see_other(target)
        response.set_cookie(
            WRITE_COOKIE, self._guard.write_cookie_value, path="/", httponly=True, samesite="Lax",
            secure=_over_https(request), max_age=_COOKIE_MAX_AGE_S,
        )  # fmt: skip
        return response


def _with_details(store: Store, wanted: RequestId) -> tuple[RequestView, RequestDetails] | None:
    view = read_request(store, wanted)
    return None if view is None else (view, read_request_details(store, view))


def _request_id(trace: str | None, span: str | None, at: str | None) -> RequestId:
    micros = (at or "").lstrip("-")
    if not trace or span is None or not (micros.isascii() and micros.isdigit()):
        raise ValueError("a request is named by trace, span and at (its start in microseconds)")
    return RequestId(trace, span, int(at or "0"))


async def _form(request: web.Request) -> list[tuple[str, str]]:
    """The posted form's fields, read up to FORM_BODY_BYTES (past that: 413, and nothing is written)."""
    if request.content_type != "application/x-www-form-urlencoded":
        raise web.HTTPUnsupportedMediaType(text="post the page's form (application/x-www-form-urlencoded)\n")
    body = bytearray()
    async for chunk in request.content.iter_chunked(8192):
        body += chunk
        if len(body) > FORM_BODY_BYTES:
            raise web.HTTPRequestEntityTooLarge(max_size=FORM_BODY_BYTES, actual_size=len(body))
    text = body.decode("utf-8", "replace")
    return parse_qsl(text, keep_blank_values=True)


def _one(form: list[tuple[str, str]], name: str) -> str:
    return next((value for key, value in form if key == name), "")


def _scope(form: list[tuple[str, str]]) -> str | None:
    """The queue's service a form came from (None: all services)."""
    return next((value for key, value in form if key == "service"), None)


def _over_https(request: web.Request) -> bool:
    return request.secure or request.headers.get("X-Forwarded-Proto", "").lower() == "https"


def _html(body: str, status: int = 200) -> web.Response:
    return web.Response(status=status, text=body, content_type="text/html")


def _see_other(target: str) -> web.Response:
    return web.Response(status=303, headers={"Location": target})
