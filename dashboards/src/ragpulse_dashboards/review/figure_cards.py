"""The review page's cards of figures: each judge against reviewers, apart from end-user feedback."""

from __future__ import annotations

from dataclasses import dataclass

from ragpulse_scorers.labels.agreement import figure_text
from ragpulse_scorers.labels.correction import CorrectedRate, NotCorrected
from ragpulse_scorers.labels.figures import JudgeFigures
from ragpulse_scorers.review import UNIFORM_SHARE

from ragpulse_dashboards.report.format import html_text, raw_rate, variant_label
from ragpulse_dashboards.report.model import Rate

_HEADERS = (
    "judge", "service · variant", "labelled", "sensitivity [95% CI]", "specificity [95% CI]",
    "balanced accuracy [95% CI]", "kappa [95% CI]",
)  # fmt: skip


@dataclass(frozen=True)
class Corrected:
    """The free judge's rate on one service's variant, corrected, or why it is not."""

    service: str
    variant: str
    flagged: int
    judged: int
    result: CorrectedRate | NotCorrected


def agreement_table(rows: list[JudgeFigures]) -> str:
    body = ""
    for row in rows:
        figures = row.agreement
        cells = (
            row.judge,
            variant_label(row.variant, row.service),
            str(figures.n),
            figure_text(figures.sensitivity),
            figure_text(figures.specificity),
            figure_text(figures.balanced_accuracy),
            figure_text(figures.kappa),
        )
        body += "<tr>" + "".join(f"<td>{html_text(cell)}</td>" for cell in cells) + "</tr>"
    head = "".join(f"<th>{html_text(header)}</th>" for header in _HEADERS)
    return f"<table class='people'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def people_card(reviewers: list[JudgeFigures], users: list[JudgeFigures], labelled: int, drawn: int) -> str:
    share = f"{UNIFORM_SHARE:.0%}"
    note = (
        f"Reviewers labelled {labelled} requests here; {drawn} of them were drawn at random (the {share} of"
        " judged requests the queue reserves for its random draw), and only those count: the others were"
        " offered because the judges disagree or the free judge is unsure, where every judge errs more."
        " Positive is hallucinated."
    )
    reviewed = (
        agreement_table(reviewers)
        if reviewers
        else "<p>No judged request drawn at random has a reviewer's label yet: label from the queue.</p>"
    )
    from_users = (
        "<h3>Against end-user feedback (apart: only the users who chose to answer)</h3>"
        + agreement_table(users)
        if users
        else ""
    )
    return (
        "<section class='card people-card'><h2>Judges against people</h2>"
        f"<p class='muted'>{html_text(note)}</p>{reviewed}{from_users}</section>"
    )


def corrected_card(rows: list[Corrected]) -> str:
    """The free judge's raw rate beside the rate corrected for its errors, and where the errors come from."""
    if not rows:
        return ""
    body = "".join(
        "<tr>"
        f"<td>{html_text(variant_label(row.variant, row.service))}</td>"
        f"<td>{html_text(_raw(row))}</td>"
        f"<td>{html_text(_corrected(row))}</td>"
        f"<td>{html_text(_source(row))}</td>"
        "</tr>"
        for row in rows
    )
    note = (
        "The free judge's hallucination rate, and the rate corrected for the hallucinations it misses and the"
        " grounded answers it flags (Rogan-Gladen), with a 95% interval carrying the uncertainty of the rate"
        " and of both error rates. It assumes the judge errs on the rest of the traffic as on the requests"
        " its errors were measured on; an LLM judge standing in for people is taken as right."
    )
    return (
        "<section class='card corrected-card'>"
        "<h2>Hallucination rate corrected for the free judge's errors</h2>"
        f"<p class='muted'>{html_text(note)}</p><table class='corrected'><thead><tr>"
        "<th>service · variant</th><th>raw rate (n)</th><th>corrected [95% CI]</th>"
        f"<th>error rates from</th></tr></thead><tbody>{body}</tbody></table></section>"
    )


def _raw(row: Corrected) -> str:
    return raw_rate(Rate(row.flagged, row.judged))


def _corrected(row: Corrected) -> str:
    if isinstance(row.result, NotCorrected):
        return f"– ({row.result.reason})"
    found = row.result
    return f"{found.estimate:.1%} [{found.low:.1%}, {found.high:.1%}]"


def _source(row: Corrected) -> str:
    return "–" if isinstance(row.result, NotCorrected) else row.result.source
