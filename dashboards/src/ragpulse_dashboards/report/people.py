"""The report's "Judges against people" section: each judge's figures against reviewer labels, the same
against end-user feedback apart, and beside each raw hallucination rate the rate corrected for the judge's
measured errors (Rogan–Gladen), with where those error rates came from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from ragpulse_core.store import Store
from ragpulse_scorers.labels.agreement import figure_text
from ragpulse_scorers.labels.correction import (
    CorrectedRate,
    ErrorRates,
    NotCorrected,
    choose_error_rates,
    corrected_rate,
)
from ragpulse_scorers.labels.figures import JudgeFigures, Reference, judge_figures
from ragpulse_scorers.review import FREE_JUDGE

from ragpulse_dashboards.report.error_rates import REVIEWER_SOURCE, service_error_rates, summed
from ragpulse_dashboards.report.format import raw_rate
from ragpulse_dashboards.report.model import HallucinationRow, Rate


@dataclass(frozen=True)
class CorrectedRow:
    service: str
    variant: str
    judge: str
    rate: Rate
    """The raw rate: the hallucination rate table's, weighted as it is."""
    result: CorrectedRate | NotCorrected


@dataclass(frozen=True)
class PeopleFigures:
    reviewer: list[JudgeFigures] = field(default_factory=list)
    user: list[JudgeFigures] = field(default_factory=list)
    corrected: list[CorrectedRow] = field(default_factory=list)


def collect_people(
    store: Store, since: datetime, service: str | None, hallucination: Sequence[HallucinationRow]
) -> PeopleFigures:
    """The figures, and each raw rate corrected with its judge's error rates on that service, pooled over the
    service's variants: the free judge's exactly as the review page and the corrected-rate alert take them
    (:func:`ragpulse_dashboards.report.error_rates.service_error_rates`), an LLM judge's from reviewer
    labels."""
    reviewer = judge_figures(store, since=since, reference=Reference.REVIEWER, service=service)
    user = judge_figures(store, since=since, reference=Reference.USER, service=service)
    free_services = sorted({row.service for row in hallucination if row.scorer == FREE_JUDGE})
    free_rates = service_error_rates(store, since, free_services, reviewer)
    corrected = []
    for row in hallucination:
        chosen = free_rates[row.service] if row.scorer == FREE_JUDGE else _llm_judge_rates(reviewer, row)
        result = chosen if isinstance(chosen, NotCorrected) else corrected_rate(row.rate.counts, chosen)
        corrected.append(CorrectedRow(row.service, row.variant, row.scorer, row.rate, result))
    return PeopleFigures(reviewer, user, corrected)


def _llm_judge_rates(reviewer: Sequence[JudgeFigures], row: HallucinationRow) -> ErrorRates | NotCorrected:
    mine = (row.scorer, row.service)
    tables = [figures.confusion for figures in reviewer if (figures.judge, figures.service) == mine]
    return choose_error_rates([ErrorRates(summed(tables), REVIEWER_SOURCE)] if tables else [])


FIGURES_HEADERS = (
    "service", "variant", "judge", "n (hallucinated / grounded)", "sensitivity [95% CI]",
    "specificity [95% CI]", "balanced accuracy [95% CI]", "kappa [95% CI]",
)  # fmt: skip
FIGURES_NOTE = (
    "Each judge's hallucination verdicts against people's labels of the same requests (the latest label of"
    " each). Sensitivity: hallucinations the judge caught; specificity: grounded answers it passed. Wilson"
    " intervals for those two, delta-method intervals for balanced accuracy and kappa (kappa's on the table"
    " with ½ added to each cell, so a small perfect table is not read as certain)."
)
USER_NOTE = (
    "The same against end users' feedback (a score below 0.5 counted as hallucinated), shown apart: an"
    " unhappy user is not proof of an unsupported sentence."
)
CORRECTED_HEADERS = ("service", "variant", "judge", "raw rate", "corrected rate [95% CI]", "error rates from")
WEIGHTED_RAW = ", inverse-probability weighted as it is where the judge samples with directed sampling"


def corrected_note(rows: Sequence[CorrectedRow]) -> str:
    """What the corrected-rate table's rates are, and how its raw rates are weighted (as the rate table's)."""
    weighted = any(row.rate.is_weighted for row in rows)
    return (
        "The raw rate is the hallucination rate above"
        + (WEIGHTED_RAW if weighted else "")
        + "; the corrected rate is the raw rate corrected for the judge's measured sensitivity and"
        " specificity (Rogan–Gladen). It assumes the labelled requests are like the rest (the review queue"
        " keeps a uniform share) and that the judge's error rates do not change with the true rate. The"
        " interval carries the uncertainty of the raw rate and of both error rates."
    )


def figures_cells(row: JudgeFigures) -> list[str]:
    figures = row.agreement
    return [
        row.service,
        row.variant or "–",
        row.judge,
        f"{figures.n} ({row.confusion.positives} / {row.confusion.negatives})",
        figure_text(figures.sensitivity),
        figure_text(figures.specificity),
        figure_text(figures.balanced_accuracy),
        figure_text(figures.kappa),
    ]


def corrected_cells(row: CorrectedRow) -> list[str]:
    raw = raw_rate(row.rate)
    result = row.result
    if isinstance(result, NotCorrected):
        return [row.service, row.variant or "–", row.judge, raw, result.reason, "–"]
    return [
        row.service,
        row.variant or "–",
        row.judge,
        raw,
        f"{result.estimate:.1%} [{result.low:.1%}, {result.high:.1%}]",
        result.source,
    ]
