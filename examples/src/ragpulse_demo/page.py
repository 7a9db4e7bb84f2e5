"""The demo's sections placed at the top of the report page, under its title."""

from __future__ import annotations

from collections.abc import Sequence

_SUBTITLE = "<p class='sub'>"


def with_sections(page: str, sections: Sequence[str]) -> str:
    """``page`` (from :func:`ragpulse_dashboards.report.render_html`) with ``sections`` under its title."""
    start = page.find(_SUBTITLE)
    if start < 0:
        raise ValueError("the report page has no subtitle to place the demo's sections under")
    end = page.index("</p>", start) + len("</p>")
    return page[:end] + "".join(sections) + page[end:]
