"""The ``lexical`` scorer: metrics and Details a person reads, and requests it must skip without crashing."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from ragpulse_scorers.lexical import scorer as lexical_scorer
from ragpulse_scorers.lexical.scorer import MAX_ANSWER_CHARS, LexicalScorer
from ragpulse_scorers.models import ContextChunk, RagRequest
from ragpulse_scorers.scorer import NotApplicable, Scorer
from ragpulse_scorers.settings import ScorersSettings


def request(answer: str, chunks: list[str]) -> RagRequest:
    return RagRequest(
        trace_id="t1",
        timestamp=dt.datetime.now(),
        question="When is the museum open?",
        answer=answer,
        context=[ContextChunk(id=f"doc-{i}", text=text, rank=i + 1) for i, text in enumerate(chunks)],
    )


CHUNKS = ["The museum is open on Mondays. It closes at 5 pm.", "Parking costs $4 per day."]


def test_scores_carry_sentence_evidence_and_utilization() -> None:
    scores = {
        s.metric: s for s in LexicalScorer().score(request("It is open on Mondays. Entry costs $30.", CHUNKS))
    }
    assert set(scores) == {
        "hallucination",
        "support",
        "utilization",
        "context_utilization",
        "unsupported_sentences",
    }
    assert (scores["hallucination"].value, scores["hallucination"].label) == (1.0, "hallucinated")
    assert scores["unsupported_sentences"].value == 1.0
    assert scores["utilization"].value == 0.5
    first, second = scores["hallucination"].details["sentences"]
    assert first["verdict"] == "supported"
    assert (first["chunk_id"], first["chunk_rank"]) == ("doc-0", 1)
    assert first["evidence"] == "The museum is open on Mondays."
    assert second["verdict"] == "unsupported"
    assert "30" in second["reason"]


def test_grounded_answer_is_labelled_grounded() -> None:
    scores = {s.metric: s for s in LexicalScorer().score(request("The museum is open on Mondays.", CHUNKS))}
    assert (scores["hallucination"].value, scores["hallucination"].label) == (0.0, "grounded")
    used_share = scores["context_utilization"].value
    assert used_share is not None and 0 < used_share < 1


@pytest.mark.parametrize(
    ("answer", "chunks", "reason"),
    [("", CHUNKS, "no answer"), ("  ", CHUNKS, "no answer"), ("Open Mondays.", [], "empty context"),
     ("Open Mondays.", ["", "  "], "empty context")],
)  # fmt: skip
def test_bad_requests_are_not_applicable(answer: str, chunks: list[str], reason: str) -> None:
    with pytest.raises(NotApplicable, match=reason):
        LexicalScorer().score(request(answer, chunks))


def test_huge_answer_is_capped_and_says_so() -> None:
    answer = "The museum is open on Mondays. " * 2000
    scores = {s.metric: s for s in LexicalScorer().score(request(answer, CHUNKS))}
    truncated = scores["hallucination"].details["truncated"]
    assert truncated["answer_chars"] == len(answer)
    assert truncated["answer_limit"] == MAX_ANSWER_CHARS


def test_surrogates_and_odd_characters_do_not_crash() -> None:
    answer = "The museum \udcff is open on Mondays.\x00 \u202e"
    scores = LexicalScorer().score(request(answer, ["The museum is open on Mondays. \ud800"]))
    assert scores[0].label == "grounded"


def test_build_gives_the_learnt_judge_unless_the_config_asks_for_the_rules() -> None:
    learnt = lexical_scorer.build(ScorersSettings(), None)  # type: ignore[arg-type]
    assert isinstance(learnt, Scorer)
    # The version names the model file, so a retrained model re-judges recent requests.
    assert learnt.name == "lexical" and re.fullmatch(r"4-[0-9a-f]{8}", learnt.version)
    rules = lexical_scorer.build(
        ScorersSettings.model_validate({"scorer": {"free": {"judge": "rules"}}}),
        None,  # type: ignore[arg-type]
    )
    assert (rules.name, rules.version) == ("lexical", "3")


def test_the_learnt_judge_writes_claims_with_their_probabilities() -> None:
    scorer = lexical_scorer.build(
        ScorersSettings.model_validate({"scorer": {"free": {"judge": "learnt"}}}),
        None,  # type: ignore[arg-type]
    )
    scores = {s.metric: s for s in scorer.score(request(
        "The museum is open on Mondays, and it offers free guided tours every hour.", CHUNKS))}  # fmt: skip
    hallucination = scores["hallucination"]
    assert hallucination.label == "hallucinated"
    claims = hallucination.details["sentences"]
    assert [c["verdict"] for c in claims] == ["supported", "unsupported"]
    assert claims[1]["clause_of"].startswith("The museum is open on Mondays")
    # Calibrated, not a verdict: the clause the context never states is far likelier unsupported than the one
    # it does (a two-sentence context makes the model less sure than a real one would).
    supported, unsupported = (claim["probability_unsupported"] for claim in claims)
    assert 0.0 <= supported < 0.1 and 0.4 < unsupported <= 1.0
    assert hallucination.details["probability_hallucinated"] == round(1 - scores["support"].value, 4)
