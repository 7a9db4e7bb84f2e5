"""Judges against people, read from the store: per judge, service and variant, the 2×2 table of the judge's
hallucination verdicts (the newest of each request, hallucinated at 0.5 and above, as the report counts them)
against people's labels of the same requests.

The reference is one person's label per request: the latest given. Reviewer figures read reviewer labels and
imported ones (a reviewer's work done elsewhere); user figures read end-user feedback only. The two are never
mixed: an end user's thumbs-down says they were unhappy, not that a sentence lacks support.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from ragpulse_core.store import Store

from ragpulse_scorers.labels.agreement import Agreement, Confusion, agreement
from ragpulse_scorers.labels.store import Source
from ragpulse_scorers.review.queue import in_uniform_share_sql


class Reference(StrEnum):
    REVIEWER = "reviewer"
    USER = "user"


SOURCES: dict[Reference, tuple[str, ...]] = {
    Reference.REVIEWER: (Source.REVIEWER, Source.IMPORT),
    Reference.USER: (Source.USER,),
}


@dataclass(frozen=True)
class JudgeFigures:
    judge: str
    service: str
    variant: str
    reference: Reference
    confusion: Confusion

    @property
    def agreement(self) -> Agreement:
        return agreement(self.confusion)


def judge_figures(
    store: Store,
    *,
    since: datetime,
    reference: Reference = Reference.REVIEWER,
    service: str | None = None,
) -> list[JudgeFigures]:
    """Per judge, service and variant, the judge's verdicts on requests at or after ``since`` against the
    ``reference`` labels of the same requests.

    Reviewer (and imported) labels count only on the review queue's random share
    (:func:`ragpulse_scorers.review.in_uniform_share_sql`), requests drawn without looking at any verdict: the
    queue's other picks go where the judges disagree or are unsure, and counting them would make every judge
    look worse than it is. End-user feedback is not chosen by anyone here and counts wherever it is given."""
    parameters: dict[str, Any] = {
        "since": (since if since.tzinfo else since.replace(tzinfo=UTC)).astimezone(UTC).replace(tzinfo=None),
        "service": service or "",
        "sources": [str(source) for source in SOURCES[reference]],
    }
    drawn = f" AND {in_uniform_share_sql()}" if reference == Reference.REVIEWER else ""
    rows = store.query(
        "SELECT judged.Scorer, judged.ServiceName, judged.Variant,"
        " countIf(judged.flagged AND people.hallucinated),"
        " countIf(NOT judged.flagged AND people.hallucinated),"
        " countIf(judged.flagged AND NOT people.hallucinated),"
        " countIf(NOT judged.flagged AND NOT people.hallucinated)"
        " FROM (SELECT TraceId, SpanId, toUnixTimestamp64Micro(RequestTime) AS Micros, Scorer, ServiceName,"
        "       Variant, Hallucination >= 0.5 AS flagged"
        f"       FROM {store.table('ragpulse_trace_verdicts')} FINAL"
        "       WHERE HasHallucination = 1 AND Hallucination IS NOT NULL"
        "        AND RequestTime >= {since:DateTime64(6)}"
        "        AND ({service:String} = '' OR ServiceName = {service:String})) AS judged"
        " INNER JOIN (SELECT TraceId, SpanId, toUnixTimestamp64Micro(RequestTime) AS Micros,"
        "       argMax(Label, LabelTime) = 'hallucinated' AS hallucinated"
        f"       FROM {store.table('ragpulse_labels')} FINAL WHERE Source IN {{sources:Array(String)}}{drawn}"
        "       GROUP BY TraceId, SpanId, Micros) AS people"
        " ON judged.TraceId = people.TraceId AND judged.SpanId = people.SpanId"
        " AND judged.Micros = people.Micros"
        " GROUP BY judged.Scorer, judged.ServiceName, judged.Variant"
        " ORDER BY judged.ServiceName, judged.Variant, judged.Scorer"
        # A verdict's duplicates share its day, the partition: FINAL need not merge across days.
        " SETTINGS do_not_merge_across_partitions_select_final = 1",
        parameters,
    )
    return [
        JudgeFigures(str(judge), str(service_name), str(variant), reference, Confusion(*map(int, counts)))
        for judge, service_name, variant, *counts in rows
    ]
