"""The live report: the HTML report over the last hours, served by ``ragpulse serve`` on a port of its own.

It is a plain stdlib HTTP server apart from the collector's, so it works whichever server the collector
runs. Connections get threads; every read of the store happens on one worker thread, since embedded chDB
handles are per thread and a page costs a few queries.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from ragpulse_core.store import Store

from ragpulse_scorers.report.collect import collect_report
from ragpulse_scorers.report.html import render_html
from ragpulse_scorers.settings import ScorersSettings

logger = logging.getLogger(__name__)

_RENDER_TIMEOUT_S = 30.0


class LivePage:
    """``GET /``: the report, reloading itself every ``live.refresh_s``; ``GET /healthz``: ``ok``."""

    def __init__(self, settings: ScorersSettings, store: Store) -> None:
        self._settings = settings
        self._store = store
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ragpulse-live")
        self._rendering: Future[str] | None = None
        self._rendering_lock = threading.Lock()
        self._http = ThreadingHTTPServer((settings.live.host, settings.live.port), self._handler_class())
        self._http.daemon_threads = True
        self._thread = threading.Thread(
            target=self._http.serve_forever, name="ragpulse-live-http", daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._http.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        shown = "127.0.0.1" if name in ("0.0.0.0", "") else name
        return f"http://{shown}:{port}/"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._http.shutdown()
        self._http.server_close()
        self._reader.shutdown(wait=True)

    def render(self) -> str:
        """The page as it is now, read on the one reader thread.

        Requests that arrive while a render runs share it, so reloads against a slow store never queue up
        renders behind one another.
        """
        with self._rendering_lock:
            if self._rendering is None or self._rendering.done():
                self._rendering = self._reader.submit(self._render)
            rendering = self._rendering
        return rendering.result(timeout=_RENDER_TIMEOUT_S)

    def _render(self) -> str:
        live = self._settings.live
        since = datetime.now(UTC) - timedelta(hours=live.window_hours)
        data = collect_report(
            self._store, since, hallucination_threshold=self._settings.alerts.hallucination_threshold
        )
        return render_html(data, refresh_s=live.refresh_s)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        page = self

        class Handler(BaseHTTPRequestHandler):
            server_version = "ragpulse-live"
            timeout = 30

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                if path == "/healthz":
                    self._send(HTTPStatus.OK, b"ok\n", "text/plain; charset=utf-8")
                elif path in ("/", "/index.html"):
                    try:
                        body = page.render().encode("utf-8")
                    except Exception as exc:  # the page says what failed; the next reload tries again
                        logger.warning("live report failed: %s", exc)
                        message = f"report unavailable: {exc}\n".encode()
                        self._send(HTTPStatus.SERVICE_UNAVAILABLE, message, "text/plain; charset=utf-8")
                        return
                    self._send(HTTPStatus.OK, body, "text/html; charset=utf-8")
                else:
                    self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")

            def _send(self, status: HTTPStatus, body: bytes, content_type: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                logger.debug("live page: " + format, *args)

        return Handler
