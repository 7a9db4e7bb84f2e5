"""A judge's error rates on a service, for the rate corrected for them: the same on the report, the review
page and the corrected-rate alert.

Reviewer labels count only on the review queue's random share (see :mod:`ragpulse_scorers.labels.figures`);
the free judge falls back on its agreement with an LLM judge. Rates are pooled over a service's variants, so a
service needs its labels once, not per variant.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ragpulse_core.store import Store
from ragpulse_scorers.labels.agreement import Confusion
from ragpulse_scorers.labels.correction import ErrorRates, NotCorrected, choose_error_rates
from ragpulse_scorers.labels.figures import JudgeFigures
from ragpulse_scorers.review import FREE_JUDGE

from ragpulse_dashboards.report import queries
from ragpulse_dashboards.report.agreement import JudgeAgreement

REVIEWER_SOURCE = "reviewer labels on requests drawn at random"
# The LLM judge whose agreement stands in for labels, when several scored: the support judge first.
_PREFERRED_REFERENCE = "support"


def confusion(row: JudgeAgreement) -> Confusion:
    """A judge-against-reference count table in the labels part's terms (the reference is the truth)."""
    return Confusion(
        true_positives=row.both_hallucinated,
        false_negatives=row.only_reference,
        false_positives=row.only_judge,
        true_negatives=row.neither,
    )


def service_error_rates(
    store: Store, since: datetime, services: list[str], reviewers: list[JudgeFigures]
) -> dict[str, ErrorRates | NotCorrected]:
    """The free judge's error rates per service (pooled over its variants) on requests since ``since``: from
    ``reviewers`` (its rows against reviewer labels on the random share) when they hold enough of both
    kinds, else from its agreement with an LLM judge, else why neither will do."""
    params = {"since_ms": int(since.timestamp() * 1000), "service": ""}
    by_llm = queries.judge_agreement(store, params, FREE_JUDGE)
    rates: dict[str, ErrorRates | NotCorrected] = {}
    for svc in services:
        candidates = []
        labels = [row.confusion for row in reviewers if row.service == svc and row.judge == FREE_JUDGE]
        if labels:
            candidates.append(ErrorRates(summed(labels), REVIEWER_SOURCE))
        mine = [row for row in by_llm if row.service == svc]
        for reference in sorted(
            {row.reference for row in mine}, key=lambda judge: judge != _PREFERRED_REFERENCE
        ):
            pooled = summed([confusion(row) for row in mine if row.reference == reference])
            candidates.append(ErrorRates(pooled, f"agreement with the LLM judge {reference}"))
        rates[svc] = choose_error_rates(candidates)
    return rates


def summed(tables: Sequence[Confusion]) -> Confusion:
    return Confusion(
        sum(table.true_positives for table in tables), sum(table.false_negatives for table in tables),
        sum(table.false_positives for table in tables), sum(table.true_negatives for table in tables),
    )  # fmt: skip
