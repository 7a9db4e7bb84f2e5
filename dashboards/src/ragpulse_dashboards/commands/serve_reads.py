"""Reading a view from the store, or through the ``ragpulse serve`` that holds it
(:mod:`ragpulse_dashboards.commands.serve_calls`): serve's page renders the view for this terminal."""

from __future__ import annotations

from ragpulse_core.store_access import open_for_reading
from rich.console import Console
from rich.markup import escape

from ragpulse_dashboards.commands.read_query import ReadQuery, Shown
from ragpulse_dashboards.commands.serve_calls import Held, ServeCallFailed, call_serve, held_by_another
from ragpulse_dashboards.settings import DashboardsSettings

API_PREFIX = "/api/v1/"
READ_TIMEOUT_S = 60.0


def read(
    settings: DashboardsSettings, query: ReadQuery, console: Console, errors: Console | None = None
) -> Shown:
    """Print ``query``'s view: from the store, or through ``serve`` when it holds the embedded database.
    A store that cannot be read is said on ``errors`` (default ``console``)."""
    held = held_by_another(settings)
    if held is not None and held.holder.page_url:
        return through_serve(held, settings, query, console)
    store = open_for_reading(settings, console)
    if store is None:
        return Shown(1)
    # Here only: a read through serve, or a store that cannot be opened, never loads the views' renderers.
    from ragpulse_dashboards.commands.views import show

    try:
        return show(query, store, settings, console, errors)
    finally:
        store.close()


def through_serve(held: Held, settings: DashboardsSettings, query: ReadQuery, console: Console) -> Shown:
    params = {**query.params(), **terminal(console)}
    try:
        answer = call_serve(held, settings, f"{API_PREFIX}{query.view}", params, timeout_s=READ_TIMEOUT_S)
    except ServeCallFailed as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        return Shown(1)
    console.file.write(str(answer.get("output", "")))
    console.file.flush()
    html = answer.get("html")
    return Shown(int(answer.get("exit", 1)), html if isinstance(html, str) else None)


def terminal(console: Console) -> dict[str, str]:
    """What serve renders for: this terminal's width and colours."""
    return {"width": str(console.width), "color": console.color_system or ""}
