"""What the review page shows beside the queue: each judge against people, and the corrected rate.

Reviewer figures count only labels of requests in the queue's random share
(:func:`ragpulse_scorers.review.in_uniform_share_sql`): the queue offers the others because the judges
disagree or the free judge is unsure, so figures over them would make every judge look worse than it is on
the traffic. End-user feedback is shown apart and said to be what it is: the users who chose to answer.
A request labelled more than once counts by its newest label from that source.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ragpulse_core.store import Store
from ragpulse_scorers.labels.correction import (
    NotCorrected,
    corrected_rate,
)
from ragpulse_scorers.labels.figures import JudgeFigures, Reference, judge_figures
from ragpulse_scorers.review import FREE_JUDGE, in_uniform_share_sql
from ragpulse_scorers.stats import WeightedCount

from ragpulse_dashboards.report.error_rates import service_error_rates
from ragpulse_dashboards.review import figure_cards
from ragpulse_dashboards.review.figure_cards import Corrected

REVIEWER = "reviewer"


def agreement_with_people(
    store: Store, since: datetime, service: str | None, reference: Reference
) -> list[JudgeFigures]:
    """Per judge, service and variant: its verdicts against people's labels (:mod:`ragpulse_scorers.labels`),
    reviewer labels only where the queue drew the request at random."""
    return judge_figures(store, since=since, reference=reference, service=service)


_LABELLED = """
SELECT uniqExact(TraceId, SpanId, RequestTime), uniqExactIf(TraceId, SpanId, RequestTime, {drawn})
FROM {labels}
WHERE Source = {source:String} AND RequestTime >= {since:DateTime64(6)}
  AND ({service:String} = '' OR ServiceName = {service:String})
"""


def reviewer_labels(store: Store, since: datetime, service: str | None) -> tuple[int, int]:
    """Requests reviewers labelled in the window, and how many of them the queue drew at random."""
    sql = _LABELLED.replace("{labels}", store.table("ragpulse_labels")).replace(
        "{drawn}", in_uniform_share_sql()
    )
    params: dict[str, Any] = {"since": since, "service": service or "", "source": REVIEWER}
    labelled, drawn = store.query(sql, params)[0]
    return int(labelled), int(drawn)


_FREE_JUDGE_COUNTS = """
SELECT ServiceName, Variant, countIf(assumeNotNull(Hallucination) >= 0.5), count()
FROM {verdicts} FINAL
WHERE RequestTime >= {since:DateTime64(6)} AND RequestTime <= {until:DateTime64(6)}
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND Scorer = {free:String} AND HasHallucination = 1 AND Hallucination IS NOT NULL
GROUP BY ServiceName, Variant
ORDER BY ServiceName, Variant
SETTINGS do_not_merge_across_partitions_select_final = 1
"""


def free_judge_counts(
    store: Store, since: datetime, until: datetime, service: str | None
) -> list[tuple[str, str, int, int]]:
    """(service, variant, hallucinated, judged) by the free judge, over requests in [since, until]."""
    params: dict[str, Any] = {"since": since, "until": until, "service": service or "", "free": FREE_JUDGE}
    sql = _FREE_JUDGE_COUNTS.replace("{verdicts}", store.table("ragpulse_trace_verdicts"))
    return [(str(svc), str(variant), int(bad), int(n)) for svc, variant, bad, n in store.query(sql, params)]


def corrected_rates(
    store: Store, since: datetime, until: datetime, service: str | None, rates_since: datetime
) -> list[Corrected]:
    """Per service and variant, the free judge's rate over requests in [since, until], corrected with its
    error rates on that service over requests since ``rates_since`` (:func:`service_error_rates`)."""
    counts = free_judge_counts(store, since, until, service)
    reviewers = agreement_with_people(store, rates_since, service, Reference.REVIEWER)
    rates = service_error_rates(store, rates_since, sorted({row[0] for row in counts}), reviewers)
    corrected = []
    for svc, variant, flagged, judged in counts:
        found = rates[svc]
        apparent = WeightedCount.unweighted(flagged, judged)  # the free judge judges every request
        result = found if isinstance(found, NotCorrected) else corrected_rate(apparent, found)
        corrected.append(Corrected(svc, variant, flagged, judged, result))
    return corrected


def figures_html(store: Store, since: datetime, service: str | None) -> str:
    """The review page's figures as HTML cards (empty cards say what they wait for)."""
    labelled, drawn = reviewer_labels(store, since, service)
    reviewers = agreement_with_people(store, since, service, Reference.REVIEWER)
    users = agreement_with_people(store, since, service, Reference.USER)
    corrected = corrected_rates(store, since, datetime.now(UTC), service, since)
    people = figure_cards.people_card(reviewers, users, labelled, drawn)
    return people + figure_cards.corrected_card(corrected)
