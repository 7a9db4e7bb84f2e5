"""The review queue over real judged requests in chDB: disagreements, the free judge's least certain calls and
a random draw, in turn, each saying why; nothing a reviewer already labelled; the random share drawn without
looking at any verdict."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ragpulse_core.store import Store
from ragpulse_judge import default_judge
from ragpulse_judge.free import LEARNT_VERSION
from ragpulse_judge.rules import LexicalParams
from ragpulse_scorers.labels.store import Label, RequestRef, write_labels
from ragpulse_scorers.review import (
    DISAGREEMENT,
    UNCERTAIN,
    UNIFORM,
    UNIFORM_SHARE,
    Offer,
    in_uniform_share_sql,
    review_queue,
)
from review_data import Judged, judged_request, judged_requests

SINCE = timedelta(hours=24)


def _since() -> datetime:
    return datetime.now(UTC) - SINCE


def _reserved(store: Store) -> set[str]:
    verdicts = store.table("ragpulse_trace_verdicts")
    rows = store.query(f"SELECT DISTINCT TraceId FROM {verdicts} WHERE {in_uniform_share_sql()}")
    return {str(row[0]) for row in rows}


def _traffic(store: Store, count: int = 90, service: str = "museum") -> dict[str, Judged]:
    """A third the judges disagree on, a third only the free judge scored (support spread over [0, 1]), a
    third both judges agree on."""
    requests = []
    for index in range(count):
        kind = index % 3
        support = (index * 37 % 100) / 100
        requests.append({
            "index": index, "service": service, "lexical_bad": support < 0.41, "support": support,
            "llm_bad": None if kind == 1 else (support < 0.41) != (kind == 0),
        })  # fmt: skip
    return {request.id.trace_id: request for request in judged_requests(store, requests)}


def _label(store: Store, request: Judged, label: str = "grounded", source: str = "reviewer") -> None:
    ref = RequestRef(request.id.trace_id, request.id.span_id, request.time, request.service, "plain",
                     request.variant)  # fmt: skip
    write_labels(store, [Label.of(ref, label, author="ana", source=source)])


def test_each_kind_is_offered_in_turn_and_says_why(store: Store) -> None:
    judged = _traffic(store)
    reserved = _reserved(store)
    # The reserved share is a quarter of the requests, whatever their verdicts.
    assert abs(len(reserved) / len(judged) - UNIFORM_SHARE) < 0.12
    offers = review_queue(store, since=_since(), limit=90)
    assert len(offers) == 90 and len({offer.trace_id for offer in offers}) == 90
    assert [offer.reason for offer in offers[:8]] == [UNIFORM, DISAGREEMENT, UNIFORM, UNCERTAIN] * 2
    for offer in offers:
        kind = list(judged).index(offer.trace_id) % 3
        if offer.trace_id in reserved:
            assert offer.reason == UNIFORM, "a reserved request is offered only as the random draw"
        elif kind == 0:
            assert offer.reason == DISAGREEMENT and offer.others == (
                ("support", not offer.free_hallucinated),
            )
            assert "the judges disagree: lexical says" in offer.why
        else:
            assert offer.reason == UNCERTAIN and "least certain" in offer.why
    threshold = LexicalParams().threshold
    uncertain = [abs((offer.free_support or 0) - threshold) for offer in offers if offer.reason == UNCERTAIN]
    assert uncertain == sorted(uncertain)
    drawn = [offer.trace_id for offer in offers if offer.reason == UNIFORM]
    assert set(drawn) == reserved


def test_a_labelled_request_is_not_offered_again_and_the_turn_moves_on(store: Store) -> None:
    judged = _traffic(store, 30)
    first = review_queue(store, since=_since(), limit=1)[0]
    assert first.reason == UNIFORM
    _label(store, judged[first.trace_id])
    after = review_queue(store, since=_since(), limit=30)
    assert first.trace_id not in {offer.trace_id for offer in after}
    assert after[0].reason == DISAGREEMENT  # one label given: the next turn
    # End-user feedback is not a reviewer's label: the request it names stays in the queue.
    _label(store, judged[after[0].trace_id], source="user")
    again = review_queue(store, since=_since(), limit=30)
    assert after[0].trace_id in {offer.trace_id for offer in again} and again[0].reason == DISAGREEMENT


def test_a_kind_with_nothing_left_gives_its_turn_away(store: Store) -> None:
    # No LLM judge anywhere: nothing to disagree about.
    judged_requests(
        store, [{"index": index, "lexical_bad": index % 2 == 0, "support": index / 12} for index in range(12)]
    )
    offers = review_queue(store, since=_since(), limit=12)
    assert len(offers) == 12 and DISAGREEMENT not in {offer.reason for offer in offers}


def test_the_queue_keeps_to_its_service_and_window(store: Store) -> None:
    _traffic(store, 9, service="museum")
    _traffic(store, 9, service="zoo")
    judged_request(store, 500, service="zoo", lexical_bad=True, support=0.4, age=timedelta(hours=30))
    zoo = review_queue(store, since=_since(), service="zoo", limit=50)
    assert len(zoo) == 9 and {offer.service for offer in zoo} == {"zoo"}
    assert len(review_queue(store, since=_since(), limit=50)) == 18
    assert all(isinstance(offer, Offer) and offer.request_time > _since() for offer in zoo)


def test_the_least_certain_are_those_nearest_the_threshold_of_the_judge_that_gave_the_verdict(
    store: Store,
) -> None:
    learnt = f"{LEARNT_VERSION}-{default_judge().version}"
    boundary = 1.0 - default_judge().model.threshold  # the learnt judge's support where its verdict turns
    rules_threshold = LexicalParams().threshold
    supports = [0.02, 0.08, boundary + 0.02, rules_threshold, 0.5, 0.7, 0.95, 0.99] * 2
    # No LLM judge: every request is uncertain or drawn.
    judged_requests(
        store,
        [
            {"index": index, "lexical_bad": support <= boundary, "support": support, "free_version": learnt}
            for index, support in enumerate(supports)
        ],
    )
    reserved = _reserved(store)
    uncertain = [o for o in review_queue(store, since=_since(), limit=20) if o.reason == UNCERTAIN]
    assert len(uncertain) == len(supports) - len(reserved) >= 4
    shown = [offer.free_support or 0.0 for offer in uncertain]
    assert shown == sorted(shown, key=lambda support: abs(support - boundary))
    assert shown != sorted(shown, key=lambda support: abs(support - rules_threshold))
    assert all(offer.free_version == learnt for offer in uncertain)
    assert f"its threshold {boundary:.2f})" in uncertain[0].why
