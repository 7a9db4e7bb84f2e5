"""The ``retrieval`` scorer against a fake OpenAI-compatible server (httpx.MockTransport, no network)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from judge_testing import Answer, FakeOpenAI, answering, error, judge_settings
from ragpulse_scorers.judges.retrieval import RetrievalScorer
from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.llm.errors import JudgeOutputInvalid, JudgeUnavailable
from ragpulse_scorers.models import ContextChunk, RagRequest, RankedDocument, Retrieval
from ragpulse_scorers.scorer import NotApplicable

# The fake judge grades a document by a marker in its text.
GRADE_MARKERS = {"[very]": 2, "[somewhat]": 1, "[off-topic]": 0}


def judge_client(reply: Callable[[dict[str, Any]], Answer]) -> tuple[JudgeClient, list[dict[str, Any]]]:
    """A client whose server answers ``reply(request_body)``; returns it with the bodies the server gets."""
    server = FakeOpenAI(answering(reply, prompt_tokens=300, completion_tokens=50))
    settings = judge_settings(max_retries=1)
    client = JudgeClient(settings, http_client=server.http_client(), sleep=lambda _: None)
    return client, server.requests


def grade_by_marker(body: dict[str, Any]) -> dict[str, Any]:
    prompt = body["messages"][1]["content"]
    documents = re.findall(r'<document key="(d\d+)">\n(.*?)\n</document>', prompt, re.DOTALL)
    return {
        "documents": [
            {
                "key": key,
                "reasoning": "marker",
                "relevance": next(g for m, g in GRADE_MARKERS.items() if m in text),
            }
            for key, text in documents
        ]
    }


def chunk(chunk_id: str, marker: str, rank: int) -> ContextChunk:
    return ContextChunk(id=chunk_id, text=f"{marker} text of {chunk_id}", rank=rank)


def request(context: list[ContextChunk], retrievals: list[Retrieval] | None = None) -> RagRequest:
    return RagRequest(
        trace_id="t1",
        timestamp=datetime.now(UTC),
        question="Which sensors support ISO 26262?",
        answer="The KP23x does.",
        context=context,
        retrievals=retrievals or [],
    )


def ranking(query_index: int, ids: list[str]) -> Retrieval:
    return Retrieval(
        query=f"query {query_index}",
        query_index=query_index,
        documents=[RankedDocument(id=doc_id, rank=rank) for rank, doc_id in enumerate(ids, 1)],
    )


def by_metric(scores: list[Any]) -> dict[str, Any]:
    return {score.metric: score for score in scores}


def test_mrr_at_5_for_very_and_somewhat_relevant_and_precision() -> None:
    client, bodies = judge_client(grade_by_marker)
    context = [chunk("a", "[off-topic]", 1), chunk("b", "[somewhat]", 2), chunk("c", "[off-topic]", 3),
               chunk("d", "[very]", 4)]  # fmt: skip
    scores = by_metric(RetrievalScorer(client).score(request(context)))
    assert scores["mrr5_very_relevant"].value == 0.25
    assert scores["mrr5_relevant"].value == 0.5
    assert scores["precision_at_k"].value == 0.5
    assert scores["precision_at_k"].label == "k=4"
    assert "fusion_gain" not in scores  # a plain RAG request has one retrieval at most
    assert len(bodies) == 1  # every chunk graded in one batched call
    assert [c["relevance"] for c in scores["mrr5_very_relevant"].details["chunks"]] == [0, 1, 0, 2]
    assert sum(s.input_tokens for s in scores.values()) == 300


def test_context_is_ranked_by_rank_not_by_list_order() -> None:
    client, _ = judge_client(grade_by_marker)
    context = [
        chunk("late", "[very]", 3),
        chunk("first", "[off-topic]", 1),
        chunk("second", "[off-topic]", 2),
    ]
    assert by_metric(RetrievalScorer(client).score(request(context)))[
        "mrr5_very_relevant"
    ].value == pytest.approx(1 / 3)


def test_fusion_gain_compares_the_fused_ranking_with_the_original_query() -> None:
    client, _ = judge_client(grade_by_marker)
    context = [chunk("v", "[very]", 1), chunk("s", "[somewhat]", 2), chunk("o", "[off-topic]", 3)]
    retrievals = [
        ranking(0, ["o", "unseen", "s", "v"]),  # the user's query: first somewhat-relevant at rank 3
        ranking(1, ["v", "o"]),
        ranking(2, ["unseen", "s"]),  # "unseen" never reached the context: unjudged, not relevant
    ]
    score = by_metric(RetrievalScorer(client).score(request(context, retrievals)))["fusion_gain"]
    assert score.value == pytest.approx(1 - 1 / 3)
    assert score.details["fusion_gain_very_relevant"] == pytest.approx(1 - 1 / 4)
    per_variation = {v["query_index"]: v for v in score.details["variations"]}
    assert per_variation[1]["mrr_very_relevant"] == 1.0
    assert per_variation[2]["mrr_relevant"] == 0.5
    assert (per_variation[2]["judged"], per_variation[2]["ranked"]) == (1, 2)


def test_fusion_without_an_original_query_ranking_is_undefined() -> None:
    client, _ = judge_client(grade_by_marker)
    score = by_metric(
        RetrievalScorer(client).score(
            request([chunk("v", "[very]", 1)], [ranking(1, ["v"]), ranking(2, ["v"])])
        )
    )["fusion_gain"]
    assert score.value is None and score.label == "undefined"


def test_chunks_without_text_are_not_judged_and_count_as_not_relevant() -> None:
    client, bodies = judge_client(grade_by_marker)
    context = [ContextChunk(id="blank", text="", rank=1), chunk("v", "[very]", 2)]
    scores = by_metric(RetrievalScorer(client).score(request(context)))
    assert scores["mrr5_very_relevant"].value == 0.5
    assert scores["mrr5_very_relevant"].details["unjudged"] == 1
    assert "blank" not in bodies[0]["messages"][1]["content"]


def test_nothing_to_judge_is_not_applicable() -> None:
    client, bodies = judge_client(grade_by_marker)
    with pytest.raises(NotApplicable):
        RetrievalScorer(client).score(request([]))
    with pytest.raises(NotApplicable):
        RetrievalScorer(client).score(request([ContextChunk(id="x", text="   ")]))
    assert bodies == []


def test_a_grade_for_a_document_not_shown_is_ignored_and_the_others_kept() -> None:
    client, bodies = judge_client(
        lambda body: {"documents": [*grade_by_marker(body)["documents"], {"key": "d9", "reasoning": "?",
                                                                          "relevance": 2}]}
    )  # fmt: skip
    scores = by_metric(
        RetrievalScorer(client).score(request([chunk("a", "[very]", 1), chunk("b", "[off-topic]", 2)]))
    )
    assert scores["mrr5_very_relevant"].value == 1.0 and len(bodies) == 1


def test_only_the_documents_left_ungraded_are_asked_about_again() -> None:
    def first_left_out(body: dict[str, Any]) -> dict[str, Any]:
        graded = grade_by_marker(body)["documents"]
        return {"documents": graded[1:] if len(graded) > 1 else graded}

    client, bodies = judge_client(first_left_out)
    scores = by_metric(
        RetrievalScorer(client).score(request([chunk("a", "[very]", 1), chunk("b", "[off-topic]", 2)]))
    )
    assert scores["mrr5_very_relevant"].value == 1.0
    assert len(bodies) == 2
    again = bodies[1]["messages"][1]["content"]
    assert '<document key="d1">' in again and '<document key="d2">' not in again


@pytest.mark.parametrize(
    ("corrupt", "calls"),
    [
        (lambda v: {"documents": [{**d, "relevance": 3} for d in v["documents"]]}, 1),  # off the 0/1/2 scale
        (lambda v: "relevance: 2", 2),  # not JSON at all: one repair round
    ],
    ids=["grade-off-scale", "garbage"],
)
def test_a_request_no_valid_grade_comes_back_for_fails(corrupt: Callable[[Any], Any], calls: int) -> None:
    client, bodies = judge_client(lambda body: corrupt(grade_by_marker(body)))
    with pytest.raises(JudgeOutputInvalid):
        RetrievalScorer(client).score(request([chunk("a", "[very]", 1), chunk("b", "[off-topic]", 2)]))
    assert len(bodies) == calls  # an answer that repeats itself is not asked for again at temperature 0


def test_server_errors_after_retries_fail_the_request() -> None:
    client, bodies = judge_client(lambda body: error(503, "overloaded"))
    with pytest.raises(JudgeUnavailable):
        RetrievalScorer(client).score(request([chunk("a", "[very]", 1)]))
    assert len(bodies) == 2  # max_retries=1
