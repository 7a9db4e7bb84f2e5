"""The review page's cards of figures: each judge against reviewers, apart from end-user feedback."""

from __future__ import annotations

import math

from ragpulse_scorers.review import UNIFORM_SHARE
from ragpulse_scorers.stats import wilson_interval

from ragpulse_dashboards.report.agreement import Interval, JudgeAgreement
from ragpulse_dashboards.report.format import html_text, variant_label
from ragpulse_dashboards.review.corrected import Corrected

_HEADERS = (
    "judge", "service · variant", "labelled", "sensitivity [95% CI]", "specificity [95% CI]",
    "balanced accuracy [95% CI]", "kappa [95% CI]",
)  # fmt: skip


def sensitivity(row: JudgeAgreement) -> Interval | None:
    """Hallucinations (by the labels) the judge caught, with a Wilson interval; None without any."""
    return _share(row.both_hallucinated, row.both_hallucinated + row.only_reference)


def specificity(row: JudgeAgreement) -> Interval | None:
    """Grounded answers (by the labels) the judge passed, with a Wilson interval; None without any."""
    return _share(row.neither, row.neither + row.only_judge)


def balanced_accuracy(row: JudgeAgreement) -> Interval | None:
    """The mean of sensitivity and specificity, its interval combined from their Wilson intervals (Newcombe's
    MOVER method for a sum of independent proportions), so a handful of labels with no error still reads as
    uncertain; None without labels of both kinds."""
    caught, passed = sensitivity(row), specificity(row)
    if caught is None or passed is None:
        return None
    value = (caught.value + passed.value) / 2
    below = math.hypot(caught.value - caught.low, passed.value - passed.low) / 2
    above = math.hypot(caught.high - caught.value, passed.high - passed.value) / 2
    return Interval(value, max(0.0, value - below), min(1.0, value + above))


def _share(hits: int, n: int) -> Interval | None:
    if not n:
        return None
    low, high = wilson_interval(hits, n)
    return Interval(hits / n, low, high)


def _cell(interval: Interval | None, missing: str) -> str:
    if interval is None:
        return f"– ({missing})"
    return f"{interval.value:.2f} [{interval.low:.2f}, {interval.high:.2f}]"


def agreement_table(rows: list[JudgeAgreement]) -> str:
    body = "".join(
        "<tr>"
        + "".join(
            f"<td>{html_text(cell)}</td>"
            for cell in (
                row.judge,
                variant_label(row.variant, row.service),
                str(row.n),
                _cell(sensitivity(row), "no hallucination labelled"),
                _cell(specificity(row), "no grounded answer labelled"),
                _cell(balanced_accuracy(row), "needs both labels"),
                _cell(row.kappa, "one verdict throughout"),
            )
        )
        + "</tr>"
        for row in rows
    )
    head = "".join(f"<th>{html_text(header)}</th>" for header in _HEADERS)
    return f"<table class='people'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def people_card(
    reviewers: list[JudgeAgreement], users: list[JudgeAgreement], labelled: int, drawn: int
) -> str:
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
    share = row.hallucinated / row.judged if row.judged else 0.0
    return f"{share:.1%} ({row.hallucinated} of {row.judged})"


def _corrected(row: Corrected) -> str:
    if row.estimate is None:
        return f"– ({row.why_not})"
    estimate = row.estimate
    return f"{estimate.value:.1%} [{estimate.low:.1%}, {estimate.high:.1%}]"


def _source(row: Corrected) -> str:
    if row.rates is None:
        return "–"
    rates = row.rates
    return f"{rates.source}: sensitivity {rates.sensitivity:.2f}, specificity {rates.specificity:.2f}"
