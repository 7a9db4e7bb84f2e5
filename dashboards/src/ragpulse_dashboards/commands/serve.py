"""``ragpulse serve``: the collector, the scoring scheduler and the live report page in one process.

Embedded chDB lets one process open a database path, so a single-machine deployment runs everything here;
a note beside the chDB directory tells other commands that this process holds it and where its page is.
Everything that can be checked is checked before the store is opened, and SIGTERM or Ctrl-C at any moment
(start-up included) stops the process cleanly within seconds.
"""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from typing import TYPE_CHECKING

from ragpulse_core.commands import collector_flags
from ragpulse_core.holder import claim, release
from ragpulse_core.preflight import Listener, check_collector_files, check_listeners, collector_listeners
from ragpulse_core.stop_signals import StopSignals
from ragpulse_core.store import Store, embedded_path
from ragpulse_core.store_access import open_migrated_store
from ragpulse_scorers.cli_arguments import scorer_flags
from ragpulse_scorers.commands.checks import check_scoring
from rich.console import Console

from ragpulse_dashboards.live import ReadToken, TokenSource, page_token
from ragpulse_dashboards.settings import DashboardsSettings

if TYPE_CHECKING:
    from ragpulse_dashboards.live.server import LivePage

console = Console()


def run(args: argparse.Namespace) -> int:
    settings = DashboardsSettings.load(
        args.config,
        store={"dsn": args.dsn},
        collector=collector_flags(args),
        scorer=scorer_flags(args),
        live={"port": args.live_port, "enabled": False if args.no_live else None},
    )
    check_scoring(settings)
    check_collector_files(settings.collector)
    check_listeners([*collector_listeners(settings.collector, settings.origin), *_page_listener(settings)])
    # A blank or unreadable token file is one line too, not a half-started server.
    token = page_token(settings) if settings.live.enabled else None
    # The page server, the scheduler and the receiver (~1.5 s of imports) load once the flags have passed
    # every check above: a mistake is answered without them.
    from ragpulse_core.receivers import load_receiver
    from ragpulse_scorers.pipeline.scheduler import ScoringSchedule, quiet_scheduler_logs
    from ragpulse_scorers.rules.book import rule_book

    with StopSignals() as signals, ExitStack() as cleanup:
        store = open_migrated_store(settings)
        if store is None:
            return 1
        cleanup.callback(store.close)
        quiet_scheduler_logs(args.verbose)
        page = _start_page(settings, store, token, cleanup)
        server = load_receiver()(settings, store)
        schedule = ScoringSchedule(settings, store)
        # Callbacks run last-in first: the collector writes what it accepted, then the scheduler stops.
        cleanup.callback(schedule.stop)
        server.tune_process()  # this process is a long-running collector too
        server.start()
        cleanup.callback(server.stop)
        path = embedded_path(store.dsn)
        if path is not None:
            made = page.token.value if page and page.token.source is TokenSource.GENERATED else None
            cleanup.callback(release, claim(path, "ragpulse serve", page.url if page else None, made))
        schedule.start()
        page_line = f"; live report on {_page_address(page)}" if page else ""
        console.print(
            f"collector on {server.url}; scoring with {', '.join(rule_book(settings).judges)}"
            f" every {settings.scorer.interval_s:g} s{page_line}; Ctrl-C stops",
            soft_wrap=True,  # the page's address stays one piece to copy, however narrow the terminal
        )
        signals.wait()
        # Told first, the tick in progress stops while the collector writes its last batch.
        schedule.request_stop()
        console.print("stopping: writing what the collector accepted; scoring resumes at the next start")
    return 0


def _page_listener(settings: DashboardsSettings) -> list[Listener]:
    live = settings.live
    if not live.enabled:
        return []
    where = settings.origin("live", "port", "--live-port")
    return [Listener("the live page", live.host, live.port, "--live-port", where)]


def _start_page(
    settings: DashboardsSettings, store: Store, token: ReadToken | None, cleanup: ExitStack
) -> LivePage | None:
    if token is None:
        return None
    from ragpulse_dashboards.live.server import LivePage

    page = LivePage(settings, store, token)
    page.start()
    cleanup.callback(page.stop)
    return page


def _page_address(page: LivePage) -> str:
    """Where to open the page; a token made for this run is shown here, once, since nobody else knows it."""
    if page.token.source is TokenSource.GENERATED:
        return f"{page.sign_in_url()} (a token made for this run; set live.read_token_file to keep one)"
    return f"{page.url} (read token: {page.token.source.value})"
