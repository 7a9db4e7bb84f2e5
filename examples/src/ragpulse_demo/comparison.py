"""The demo's "measured vs injected": per variant, what the service caused against what the judge measured."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ragpulse_dashboards.report.format import percent, rate_with_interval
from rich.console import Console
from rich.markup import escape as markup_escape

from ragpulse_demo.truth import TruthRow

STANDIN_NOTE = (
    "Answers come from the extractive stand-in (sentences copied from the retrieved passages), so every"
    " hallucination the judge should find is one the demo caused: a planted statement, or degraded retrieval,"
    " after which the stand-in answers from what it knows rather than from the unrelated chunks it was given."
)


def _line(row: TruthRow, scorer: str) -> str:
    planted = percent(row.planted / row.scored if row.scored else None)
    return (
        f"variant {row.variant}: planted {planted} ({row.planted}/{row.scored}), degraded retrieval"
        f" {row.degraded}/{row.scored} · measured {rate_with_interval(row.measured)} by {scorer}"
        f" · caught {row.caught}/{row.caused}, {row.false_alarms} false alarms"
    )


def print_comparison(rows: Sequence[TruthRow], scorer: str, standin: bool, console: Console) -> None:
    console.rule("[bold]measured vs injected[/bold]")
    if standin:
        console.print(STANDIN_NOTE)
    if not rows:
        console.print("nothing scored, so nothing to compare")
    for row in rows:
        console.print(markup_escape(_line(row, scorer)))


def comparison_html(rows: Sequence[TruthRow], scorer: str, standin: bool) -> str:
    body = "".join(
        f"<tr><td>{escape(row.variant)}</td><td class='n'>{row.scored}</td><td class='n'>{row.planted}</td>"
        f"<td class='n'>{row.degraded}</td><td class='n'>{escape(rate_with_interval(row.measured))}</td>"
        f"<td class='n'>{row.caught}/{row.caused}</td><td class='n'>{row.false_alarms}</td></tr>"
        for row in rows
    )
    note = (
        "<p class='muted'>Requests the example service labelled <span class='mono'>ragpulse.example.planted"
        "</span> (an unsupported statement planted on purpose) or <span class='mono'>"
        "ragpulse.example.degraded_retrieval</span> (chunks unrelated to the question), against what the"
        f" {escape(scorer)} judge measured on the same requests.</p>"
    )
    return (
        f"<section class='card'><h2>Measured vs injected</h2>{note}"
        + (f"<p class='muted'>{escape(STANDIN_NOTE)}</p>" if standin else "")
        + "<table><thead><tr><th>variant</th><th>scored</th><th>planted</th><th>degraded retrieval</th>"
        "<th>measured rate [95% CI]</th><th>caught</th><th>false alarms</th></tr></thead>"
        f"<tbody>{body}</tbody></table></section>"
    )
