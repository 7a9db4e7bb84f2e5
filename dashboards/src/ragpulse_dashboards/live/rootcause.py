"""The live page's root-cause routes: one slice's requests, the conversations, and one conversation's turns.

They sit behind the page's guard like every route (Host allowlist, read token), read on the page's one reader
thread, and escape every traced string. Each lists what the live window (``live.window_hours``) holds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Final, TypeVar
from urllib.parse import urlencode

from aiohttp import web
from ragpulse_core.printable import excerpt
from ragpulse_core.store import Store

from ragpulse_dashboards.live.reader import on_reader
from ragpulse_dashboards.report.format import html_text
from ragpulse_dashboards.report.html import page
from ragpulse_dashboards.report.html_blocks import card, table
from ragpulse_dashboards.report.rootcause_html import request_href
from ragpulse_dashboards.rootcause.cause import label
from ragpulse_dashboards.rootcause.conversations import (
    ConversationLine,
    Turn,
    conversation_turns,
    conversations,
    slice_requests,
)
from ragpulse_dashboards.rootcause.figures import RequestRef
from ragpulse_dashboards.rootcause.ranking import SliceKey
from ragpulse_dashboards.rootcause.topic_store import topic_names
from ragpulse_dashboards.settings import DashboardsSettings

logger = logging.getLogger(__name__)

T = TypeVar("T")
SLICE_PATH: Final = "/slice"
CONVERSATIONS_PATH: Final = "/conversations"
CONVERSATION_PATH: Final = "/conversation"
# A query value longer than this names no slice, session or service ragpulse stores as such.
_VALUE_LIMIT: Final = 2000


class RootCauseRoutes:
    def __init__(self, settings: DashboardsSettings, store: Store, reader: ThreadPoolExecutor) -> None:
        self._settings = settings
        self._store = store
        self._reader = reader

    def add_to(self, app: web.Application) -> None:
        app.router.add_get(SLICE_PATH, self._slice)
        app.router.add_get(CONVERSATIONS_PATH, self._conversations)
        app.router.add_get(CONVERSATION_PATH, self._conversation)

    def _since(self) -> datetime:
        return datetime.now(UTC) - timedelta(hours=self._settings.live.window_hours)

    async def _on_reader(self, work: Callable[[], T]) -> T:
        return await on_reader(self._reader, work, _unavailable, "live page")

    async def _slice(self, request: web.Request) -> web.StreamResponse:
        service, dimension, value = (_value(request, name) for name in ("service", "dimension", "value"))
        if not service or not dimension:
            return _html(_refused("a slice is named by service, dimension and value"), 400)
        key = SliceKey(dimension, value)
        since = self._since()
        found, names = await self._on_reader(
            lambda: (slice_requests(self._store, since, service, key), topic_names(self._store))
        )
        return _html(slice_page(service, label(key, names), found, self._settings.live.window_hours))

    async def _conversations(self, request: web.Request) -> web.StreamResponse:
        service = _value(request, "service") or None
        since = self._since()
        found = await self._on_reader(lambda: conversations(self._store, since, service))
        return _html(conversations_page(service, found, self._settings.live.window_hours))

    async def _conversation(self, request: web.Request) -> web.StreamResponse:
        service, session = _value(request, "service"), _value(request, "session")
        if not service or not session:
            return _html(_refused("a conversation is named by service and session"), 400)
        since = self._since()
        turns = await self._on_reader(lambda: conversation_turns(self._store, since, service, session))
        if not turns:
            return _html(_refused("no turn of that conversation is in the live window"), 404)
        return _html(conversation_page(service, session, turns, self._settings.live.window_hours))


def slice_page(service: str, name: str, found: list[RequestRef], hours: float) -> str:
    rows = [[_verdict(ref.hallucinated), _request_link(ref)] for ref in found]
    listed = (
        table(["verdict", "question"], rows)
        if rows
        else "<p class='muted'>No judged request in this slice.</p>"
    )
    body = (
        f"<h1>Slice · {html_text(name)}</h1><p class='sub'>{html_text(service)} · judged requests of the last"
        f" {hours:g} h, unsupported ones first · <a href='/?{html_text(urlencode({'service': service}))}'>"
        "back to the report</a></p>" + card("Requests in this slice", listed)
    )
    return page(f"ragpulse · slice {name}", body)


def conversations_page(service: str | None, found: list[ConversationLine], hours: float) -> str:
    rows = [
        [
            f"<a href='{html_text(_conversation_href(line.service, line.session))}'>"
            f"<span class='mono'>{html_text(excerpt(line.session, 60))}</span></a>",
            html_text(line.service),
            str(line.turns),
            str(line.judged),
            f"<span class='bad'>{line.unsupported}</span>" if line.unsupported else "0",
            f"{line.first:%m-%d %H:%M:%S} → {line.last:%H:%M:%S}",
        ]
        for line in found
    ]
    listed = (
        table(["conversation (session id)", "service", "turns", "judged", "unsupported", "when (UTC)"], rows,
              [False, False, True, True, True, False])
        if rows
        else "<p class='muted'>No request with a session id in this window (session.id on the root span).</p>"
    )  # fmt: skip
    scope = f"service {service}" if service else "all services"
    body = (
        f"<h1>Conversations · {html_text(scope)}</h1><p class='sub'>Requests sharing a session id, newest"
        f" first, with a turn in the last {hours:g} h · <a href='/'>back to the report</a></p>"
        + card("Conversations", listed)
    )
    return page(f"ragpulse · conversations · {scope}", body)


def conversation_page(service: str, session: str, turns: list[Turn], hours: float) -> str:
    rows = []
    for number, turn in enumerate(turns, 1):
        verdicts = ", ".join(
            f"{judge}: {'unsupported' if bad else 'supported'}"
            for judge, bad in sorted(turn.verdicts.items())
        )
        bad = any(turn.verdicts.values())
        rows.append(
            [
                str(number),
                f"{turn.time:%H:%M:%S}",
                html_text(turn.variant) or "–",
                f"<b>Q</b> {_request_link(turn.ref)}<br><b>A</b> {html_text(excerpt(turn.answer, 400))}",
                (f"<span class='bad'>{html_text(verdicts)}</span>" if bad else html_text(verdicts))
                or "<span class='muted'>not judged</span>",
            ]
        )
    body = (
        f"<h1>Conversation <span class='mono'>{html_text(excerpt(session, 80))}</span></h1>"
        f"<p class='sub'>{html_text(service)} · {len(turns)} turn(s) in the last {hours:g} h, oldest first ·"
        f" <a href='{CONVERSATIONS_PATH}?{html_text(urlencode({'service': service}))}'>all conversations</a>"
        "</p>" + card("Turns and their verdicts", table(["#", "time (UTC)", "variant", "question · answer",
                                                          "judges"], rows))
    )  # fmt: skip
    return page("ragpulse · conversation", body)


def _request_link(ref: RequestRef) -> str:
    """The request page, from any path of the live page."""
    text = html_text(excerpt(ref.question, 200)) or "(no question)"
    return f"<a href='/{html_text(request_href(ref).removeprefix('./'))}'>{text}</a>"


def _conversation_href(service: str, session: str) -> str:
    return f"{CONVERSATION_PATH}?{urlencode({'service': service, 'session': session})}"


def _verdict(hallucinated: bool) -> str:
    return "<span class='bad'>unsupported</span>" if hallucinated else "<span class='good'>supported</span>"


def _value(request: web.Request, name: str) -> str:
    value = request.query.get(name, "")
    return value if len(value) <= _VALUE_LIMIT else ""


def _refused(reason: str) -> str:
    body = f"<h1>Nothing to show</h1><p class='sub'>{html_text(reason)}.</p><p><a href='/'>Back</a></p>"
    return page("ragpulse · not found", body)


def _unavailable(reason: str) -> str:
    body = f"<h1>The page is unavailable</h1><p class='sub'>{html_text(reason)}.</p><p>Try again soon.</p>"
    return page("ragpulse · unavailable", body)


def _html(body: str, status: int = 200) -> web.Response:
    return web.Response(status=status, text=body, content_type="text/html")
