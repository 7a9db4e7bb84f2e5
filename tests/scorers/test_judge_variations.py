"""The variations scorer: 1-5 quality of RAG-Fusion query variations (relevance, coverage, efficiency)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from judge_testing import FakeOpenAI, completion, judge_settings
from ragpulse_core.store import Store
from ragpulse_scorers.judges.variations import PROMPT_VERSION, VariationsScorer, build
from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.llm.errors import JudgeOutputInvalid
from ragpulse_scorers.models import RagRequest
from ragpulse_scorers.scorer import NotApplicable, Scorer
from ragpulse_scorers.settings import ScorersSettings

GRADES = {
    "relevance": 4.5,
    "coverage": 3,
    "efficiency": 4,
    "score": 4,
    "reasoning": "Misses the cost aspect.",
}
VARIATIONS = ["eiffel tower completion year", "when was the eiffel tower built", "eiffel tower history"]


def request(variations: list[str] = VARIATIONS) -> RagRequest:
    return RagRequest(
        trace_id="t1",
        timestamp=datetime.now(UTC),
        question="When was the Eiffel Tower finished and what did it cost?",
        answer="1889.",
        variations=variations,
    )


def scorer_for(server: FakeOpenAI) -> VariationsScorer:
    return VariationsScorer(JudgeClient(judge_settings(), http_client=server.http_client()))


def test_each_criterion_and_the_overall_grade_is_a_metric() -> None:
    scores = {s.metric: s for s in scorer_for(FakeOpenAI(completion(GRADES))).score(request())}
    assert {name: s.value for name, s in scores.items()} == {
        "variations_score": 4.0,
        "variations_relevance": 4.5,
        "variations_coverage": 3.0,
        "variations_efficiency": 4.0,
    }
    assert scores["variations_score"].explanation == "Misses the cost aspect."
    assert scores["variations_score"].details == {"variations": 3}


def test_variations_are_numbered_fenced_data() -> None:
    server = FakeOpenAI(completion(GRADES))
    scorer_for(server).score(request())
    user = server.messages()[1]["content"]
    assert '<variation index="2">\nwhen was the eiffel tower built\n</variation>' in user
    assert user.count("<variation ") == 3


def test_a_grade_outside_1_to_5_is_repaired() -> None:
    server = FakeOpenAI(completion(GRADES | {"coverage": 7}), completion(GRADES))
    scores = scorer_for(server).score(request())
    assert len(scores) == 4
    assert "coverage" in server.messages()[-1]["content"]


def test_a_grade_still_missing_after_the_repair_fails() -> None:
    incomplete = {key: value for key, value in GRADES.items() if key != "efficiency"}
    server = FakeOpenAI(completion(incomplete))
    with pytest.raises(JudgeOutputInvalid, match="efficiency"):
        scorer_for(server).score(request())


@pytest.mark.parametrize("variations", [[], ["", "  "]])
def test_request_without_variations_is_not_applicable(variations: list[str]) -> None:
    server = FakeOpenAI(completion(GRADES))
    with pytest.raises(NotApplicable, match="variations"):
        scorer_for(server).score(request(variations))
    assert server.requests == []


def test_build_gives_a_versioned_scorer(store: Store) -> None:
    scorer = build(ScorersSettings(judge=judge_settings()), store)
    assert isinstance(scorer, Scorer)
    assert scorer.name == "variations" and scorer.version.endswith(PROMPT_VERSION)
