"""Output rendered for the terminal of a command that asked through the live page: its width and colours."""

from __future__ import annotations

import io
from collections.abc import Mapping

from rich.console import Console

# Terminal widths and colour systems a command may ask for (rich's names; "" for none).
WIDTHS = range(20, 1001)
COLOURS = frozenset({"", "standard", "256", "truecolor", "windows"})


def terminal_of(query: Mapping[str, str]) -> tuple[int, str]:
    """The width and colour system a request names; ValueError for any other."""
    width_text = query.get("width", "80")
    width = int(width_text) if width_text.isdigit() and len(width_text) < 6 else 0
    colour = query.get("color", "")
    if width not in WIDTHS or colour not in COLOURS:
        raise ValueError(f"width lies in [20, 1000] and color is one of {sorted(COLOURS)}")
    return width, colour


def terminal_console(width: int, colour: str) -> Console:
    """A console that records what it prints, as a terminal of ``width`` columns and ``colour`` shows it."""
    return Console(
        file=io.StringIO(),
        width=width,
        color_system=colour or None,  # type: ignore[arg-type]
        force_terminal=bool(colour),
        force_interactive=False,
    )


def printed(console: Console) -> str:
    """What a :func:`terminal_console` printed."""
    return str(console.file.getvalue())  # type: ignore[attr-defined]
