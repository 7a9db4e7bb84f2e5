"""The review queue: the judged requests most worth a person's label, each with the reason it was offered.

Three kinds of request are offered in turn (:data:`TURNS`: half of them the random draw):

- **disagreement**: an LLM judge and the free judge gave different verdicts; a label settles which was right.
- **uncertain**: the free judge's support score lies nearest the decision threshold of the judge that gave it
  (the rules' or the learnt model's, read from the verdict's stored scorer version).
- **uniform**: a random draw. Every request the free judge scored falls in a reserved share
  (:data:`UNIFORM_SHARE`) or not by a keyed hash of its ids, independent of any verdict; reserved
  requests are offered only as the random draw, in hash order, and never as disagreements or uncertain ones.

Agreement with people (sensitivity, specificity, balanced accuracy, kappa) and the corrected rate are unbiased
only over labels of requests drawn without looking at the judges: the targeted kinds pick requests where the
judges err most, so figures over them would make the judges look worse than they are. Figures are therefore
computed over labelled requests in the reserved share (:func:`in_uniform_share_sql` says which); the other
labels still correct individual verdicts and grow the evaluation set. Requests already labelled by a reviewer
are never offered again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from ragpulse_core.store import Store
from ragpulse_judge.free import LEARNT_VERSION

from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.lexical.uncertainty import decision_support

DISAGREEMENT: Final = "disagreement"
UNCERTAIN: Final = "uncertain"
UNIFORM: Final = "uniform"
REASONS: Final = (DISAGREEMENT, UNCERTAIN, UNIFORM)
# The kinds' turns, starting where the count of labels already given leaves off: while all have requests
# waiting, half the labels go to the random draw (the figures rest on those) and a quarter to each other kind.
TURNS: Final = (UNIFORM, DISAGREEMENT, UNIFORM, UNCERTAIN)
# The share of judged requests reserved for the random draw (in basis points in SQL).
UNIFORM_SHARE: Final = 0.25
_BASIS: Final = 10_000
FREE_JUDGE: Final = LexicalScorer.name
REVIEWER: Final = "reviewer"


def in_uniform_share_sql(trace: str = "TraceId", span: str = "SpanId") -> str:
    """A SQL condition true for requests in the reserved random share, over any table naming a request by
    trace id and span id. The start time is left out of the draw: a request keeps its place however its
    time is stored, and the ids alone are already random (a service reusing ids shares one draw between
    those requests, which the figures can bear)."""
    return f"({_draw_sql(trace, span)} % {_BASIS} < {round(UNIFORM_SHARE * _BASIS)})"


def _draw_sql(trace: str, span: str) -> str:
    return f"sipHash64('ragpulse review', {trace}, {span})"


@dataclass(frozen=True)
class Offer:
    """A request offered for review: its identity, the free judge's verdict, the other judges' verdicts."""

    trace_id: str
    span_id: str
    at_us: int
    """The request's start, in microseconds since the epoch (with the ids, its identity)."""
    service: str
    variant: str
    reason: str
    free_hallucinated: bool
    free_support: float | None
    free_version: str
    """The free judge's version that gave the verdict ("" when its scores are no longer stored)."""
    others: tuple[tuple[str, bool], ...]
    """(judge, hallucinated) for every other judge that gave a verdict."""

    @property
    def request_time(self) -> datetime:
        return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=self.at_us)

    @property
    def why(self) -> str:
        """Why this request was offered, in a sentence for the reviewer."""
        if self.reason == DISAGREEMENT:
            free = _verdict(self.free_hallucinated)
            against = [judge for judge, bad in self.others if bad != self.free_hallucinated]
            return f"the judges disagree: {FREE_JUDGE} says {free}, {', '.join(against)} says the opposite"
        if self.reason == UNCERTAIN:
            support = "no support score" if self.free_support is None else f"support {self.free_support:.2f}"
            return (
                f"the free judge is least certain here ({support}, its threshold"
                f" {decision_support(self.free_version):.2f})"
            )
        return "drawn at random, so agreement figures stay unbiased"


def _verdict(hallucinated: bool) -> str:
    return "hallucinated" if hallucinated else "grounded"


_CANDIDATES = """
SELECT TraceId, SpanId, at, service, variant, reason, free_bad, free_support, free_version, others FROM (
    SELECT *, row_number() OVER (PARTITION BY reason ORDER BY draw_key, distance, at DESC) AS place
    FROM (
        SELECT *,
               multiIf(reserved, {uniform:String},
                       arrayExists(x -> x.2 != free_bad, others), {disagreement:String},
                       {uncertain:String}) AS reason,
               if(reason = {uniform:String}, draw, 0) AS draw_key,
               if(reason = {uncertain:String},
                  abs(ifNull(free_support, 1.0) - if(startsWith(free_version, {learnt_prefix:String}),
                                                     {learnt_threshold:Float64}, {rules_threshold:Float64})),
                  0) AS distance
        FROM (
            SELECT TraceId, SpanId, toUnixTimestamp64Micro(RequestTime) AS at,
                   any(ServiceName) AS service, any(Variant) AS variant,
                   maxIf(assumeNotNull(Hallucination), Scorer = {free:String}) >= 0.5 AS free_bad,
                   anyIf(Support, Scorer = {free:String}) AS free_support,
                   countIf(Scorer = {free:String}) AS free_verdicts,
                   arraySort(groupArrayIf((toString(Scorer), assumeNotNull(Hallucination) >= 0.5),
                                          Scorer != {free:String})) AS others,
                   {draw} AS draw,
                   draw % {basis:UInt64} < {reserved:UInt64} AS reserved
            FROM {verdicts} FINAL
            WHERE RequestTime >= {since:DateTime64(6)}
              AND ({service:String} = '' OR ServiceName = {service:String})
              AND HasHallucination = 1 AND Hallucination IS NOT NULL
              AND (TraceId, SpanId, toUnixTimestamp64Micro(RequestTime)) NOT IN (
                  SELECT TraceId, SpanId, toUnixTimestamp64Micro(RequestTime) FROM {labels}
                  WHERE Source = {reviewer:String} AND RequestTime >= {since:DateTime64(6)})
            GROUP BY TraceId, SpanId, RequestTime
            HAVING free_verdicts > 0
        ) AS judged
        LEFT JOIN (
            SELECT TraceId, SpanId, toUnixTimestamp64Micro(RequestTime) AS at,
                   argMax(ScorerVersion, ScoredAt) AS free_version
            FROM {scores}
            WHERE Scorer = {free:String} AND Metric = 'hallucination' AND Error = ''
              AND RequestTime >= {since:DateTime64(6)}
              AND ({service:String} = '' OR ServiceName = {service:String})
            GROUP BY TraceId, SpanId, RequestTime
        ) AS versions USING (TraceId, SpanId, at)
    )
)
WHERE place <= {limit:UInt32}
ORDER BY reason, place
SETTINGS do_not_merge_across_partitions_select_final = 1
"""

_LABELS_GIVEN = """
SELECT uniqExact(TraceId, SpanId, RequestTime) FROM {labels}
WHERE Source = {reviewer:String} AND RequestTime >= {since:DateTime64(6)}
  AND ({service:String} = '' OR ServiceName = {service:String})
"""


def review_queue(
    store: Store, *, since: datetime, service: str | None = None, limit: int = 10
) -> list[Offer]:
    """Up to ``limit`` requests at or after ``since`` (of ``service``, or all) that no reviewer labelled yet,
    the kinds taken in turn; the first is the one to label next."""
    params: dict[str, Any] = {
        "since": since,
        "service": service or "",
        "free": FREE_JUDGE,
        "learnt_prefix": f"{LEARNT_VERSION}-",
        "learnt_threshold": decision_support(f"{LEARNT_VERSION}-"),
        "rules_threshold": decision_support(""),
        "basis": _BASIS,
        "reserved": round(UNIFORM_SHARE * _BASIS),
        "uniform": UNIFORM,
        "disagreement": DISAGREEMENT,
        "uncertain": UNCERTAIN,
        "reviewer": REVIEWER,
        "limit": limit,
    }
    labels = store.table("ragpulse_labels")
    sql = (
        _CANDIDATES.replace("{verdicts}", store.table("ragpulse_trace_verdicts"))
        .replace("{labels}", labels)
        .replace("{scores}", store.table("ragpulse_scores"))
        .replace("{draw}", _draw_sql("TraceId", "SpanId"))
    )
    by_reason: dict[str, list[Offer]] = {reason: [] for reason in REASONS}
    for trace, span, at, svc, variant, reason, bad, support, version, others in store.query(sql, params):
        by_reason[str(reason)].append(
            Offer(
                str(trace), str(span), int(at), str(svc), str(variant), str(reason), bool(bad),
                None if support is None else float(support), str(version or ""),
                tuple((str(judge), bool(verdict)) for judge, verdict in others),
            )
        )  # fmt: skip
    given = store.query(_LABELS_GIVEN.replace("{labels}", labels), params)[0][0]
    return _in_turn(by_reason, int(given), limit)


def _in_turn(by_reason: dict[str, list[Offer]], given: int, limit: int) -> list[Offer]:
    """The kinds interleaved by :data:`TURNS`, starting with the turn ``given`` labels reach; a kind with
    nothing left gives its turn to the next."""
    queues = {reason: list(reversed(offers)) for reason, offers in by_reason.items()}
    offers: list[Offer] = []
    turn = given
    while len(offers) < limit and any(queues.values()):
        queue = queues[TURNS[turn % len(TURNS)]]
        if queue:
            offers.append(queue.pop())
        turn += 1
    return offers
