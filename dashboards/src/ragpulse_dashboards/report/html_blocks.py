"""The report's HTML building blocks: a card, a row of cards, a table. Cells and content are HTML the caller
escaped; titles and headers are text, escaped here."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ragpulse_dashboards.report.format import html_text


def cards(*parts: str) -> str:
    return f"<div class='grid2'>{''.join(part for part in parts if part)}</div>"


def card(title: str, *content: str) -> str:
    return f"<section class='card'><h2>{html_text(title)}</h2>{''.join(content)}</section>"


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], numeric: Sequence[bool] = ()) -> str:
    """Cells are already-escaped HTML; headers are plain text."""
    head = "".join(f"<th>{html_text(header)}</th>" for header in headers)
    body = "".join(
        "<tr>"
        + "".join(
            f"<td class='n'>{cell}</td>" if index < len(numeric) and numeric[index] else f"<td>{cell}</td>"
            for index, cell in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
