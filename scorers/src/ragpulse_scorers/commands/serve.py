"""``ragpulse serve``: the collector, the scoring scheduler and the live report page in one process.

Embedded chDB lets one process open a database path, so a single-machine deployment runs everything here;
a note beside the chDB directory tells other commands that this process holds it and where its page is.
"""

from __future__ import annotations

import argparse
import errno
from collections.abc import Callable
from contextlib import ExitStack
from typing import TypeVar

from ragpulse_core.holder import claim, release
from ragpulse_core.receivers import load_receiver
from ragpulse_core.store import Store, embedded_path
from rich.console import Console

from ragpulse_scorers.commands.score import quiet_scheduler_logs
from ragpulse_scorers.commands.store_access import open_migrated_store
from ragpulse_scorers.live import LivePage, ReadToken, TokenSource, page_token
from ragpulse_scorers.pipeline.scheduler import build_scheduler, wait_for_shutdown
from ragpulse_scorers.settings import ScorersSettings

console = Console()
T = TypeVar("T")


def run(args: argparse.Namespace) -> int:
    settings = ScorersSettings.load(
        args.config,
        store={"dsn": args.dsn},
        collector={"host": args.host, "port": args.port, "grpc_port": args.grpc_port},
        live={"port": args.live_port, "enabled": False if args.no_live else None},
    )
    # Before anything starts: a blank or unreadable token file is one line, not a half-started server.
    token = page_token(settings) if settings.live.enabled else None
    store = open_migrated_store(settings, console)
    if store is None:
        return 1
    quiet_scheduler_logs(args.verbose)
    with ExitStack() as cleanup:
        cleanup.callback(store.close)
        page = _start_page(settings, store, token, cleanup)
        server = load_receiver()(settings, store)
        scheduler = build_scheduler(settings, store)
        # Callbacks run last-in first: the collector stops before the scheduler, so its last batch is
        # written before the final tick ends.
        cleanup.callback(lambda: scheduler.shutdown(wait=True) if scheduler.running else None)
        server.tune_process()  # this process is a long-running collector too
        _listening(
            server.start, "the collector", f"{settings.collector.host}:{settings.collector.port}", "--port"
        )
        cleanup.callback(server.stop)
        path = embedded_path(store.dsn)
        if path is not None:
            cleanup.callback(release, claim(path, "ragpulse serve", page.url if page else None))
        scheduler.start()
        page_line = f"; live report on {_page_address(page)}" if page else ""
        console.print(
            f"collector on {server.url}; scoring with {', '.join(settings.scorer.scorers)}"
            f" every {settings.scorer.interval_s:g} s{page_line}; Ctrl-C stops",
            soft_wrap=True,  # the page's address stays one piece to copy, however narrow the terminal
        )
        wait_for_shutdown()
    return 0


def _start_page(
    settings: ScorersSettings, store: Store, token: ReadToken | None, cleanup: ExitStack
) -> LivePage | None:
    if token is None:
        return None
    live = settings.live
    page = LivePage(settings, store, token)
    _listening(page.start, "the live page", f"{live.host}:{live.port}", "--live-port or --no-live")
    cleanup.callback(page.stop)
    return page


def _page_address(page: LivePage) -> str:
    """Where to open the page; a token made for this run is shown here, once, since nobody else knows it."""
    if page.token.source is TokenSource.GENERATED:
        return f"{page.sign_in_url()} (a token made for this run; set live.read_token_file to keep one)"
    return f"{page.url} (read token: {page.token.source.value})"


def _listening(start: Callable[[], T], what: str, address: str, remedy: str) -> T:
    """``start()``, with a port already taken said in one line naming whose port and the flag to change."""
    try:
        return start()
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise
        raise PortInUse(
            f"{address} is already in use, so {what} cannot listen there: pass {remedy}"
        ) from None


class PortInUse(ValueError):
    """A port this command listens on is taken (a ValueError, so the command front prints one line)."""
