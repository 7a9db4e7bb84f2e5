"""The live report page of ``ragpulse serve``: per service, behind a read token, served by aiohttp."""

from typing import TYPE_CHECKING, Any

from ragpulse_dashboards.live.access import ReadToken, TokenSource, page_token

if TYPE_CHECKING:
    from ragpulse_dashboards.live.server import LivePage

__all__ = ["LivePage", "ReadToken", "TokenSource", "page_token"]


def __getattr__(name: str) -> Any:
    # The server (aiohttp and every page) loads when a page is served: a command that only asks serve's page
    # for a view, or reads the store, starts without it.
    if name == "LivePage":
        from ragpulse_dashboards.live.server import LivePage

        return LivePage
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
