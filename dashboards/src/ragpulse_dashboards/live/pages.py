"""The live page's small pages besides the report: signing in, an unknown service, a failed render."""

from __future__ import annotations

from ragpulse_dashboards.report.format import html_text
from ragpulse_dashboards.report.html import ServiceSelector, page, selector_links

SIGN_IN_PATH = "/login"


def sign_in(next_path: str, refused: bool) -> str:
    """The form that takes the read token; ``next_path`` is where a correct token leads."""
    said = "<p class='bad'>That token does not open this page.</p>" if refused else ""
    return page(
        "ragpulse live report · sign in",
        "<h1>ragpulse live report</h1><p class='sub'>This page shows traced questions and answers, so it asks"
        " for the read token: <span class='mono'>live.read_token</span>, or the collector's ingest token when"
        " none is set, or the one <span class='mono'>ragpulse serve</span> printed at start.</p>"
        f"{said}<form class='signin' method='post' action='{SIGN_IN_PATH}'>"
        f"<input type='hidden' name='next' value='{html_text(next_path)}'>"
        "<input type='password' name='token' aria-label='Read token' placeholder='read token'"
        " autocomplete='current-password' required autofocus>"
        "<button type='submit'>Open the report</button></form>",
    )


def unknown_service(service: str, selector: ServiceSelector, hours: float) -> str:
    return page(
        "ragpulse live report · unknown service",
        f"<h1>No service {html_text(service)}</h1><p class='sub'>No requests from a service of that name"
        f" in the last {hours:g} h. Pick one:</p>{selector_links(selector)}",
    )


def unavailable(reason: str) -> str:
    return page(
        "ragpulse live report · unavailable",
        "<h1>The report is unavailable</h1>"
        f"<p class='sub'>{html_text(reason)}</p><p>The page tries again on the next reload.</p>",
        "<meta http-equiv='refresh' content='5'>",
    )
