"""MkDocs hook: the configuration page's reference, generated from the installed settings classes at build
time (so a new setting is documented by the build, and no committed file goes stale)."""

from __future__ import annotations

from typing import Any

from ragpulse_core.settings_reference import reference_markdown

MARKER = "<!-- settings-reference -->"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, reference_markdown())
