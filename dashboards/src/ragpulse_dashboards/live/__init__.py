"""The live report page of ``ragpulse serve``: per service, behind a read token, served by aiohttp."""

from ragpulse_dashboards.live.access import ReadToken, TokenSource, page_token
from ragpulse_dashboards.live.server import LivePage

__all__ = ["LivePage", "ReadToken", "TokenSource", "page_token"]
