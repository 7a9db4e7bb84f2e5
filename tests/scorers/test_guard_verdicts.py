"""A guard's verdict on the span is untrusted input: the lexical scorer checks it against its own judgement
and never lets it replace that judgement, whatever a sender writes into ``ragpulse.guard.*``."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import pytest
import ragpulse
from hypothesis import given
from hypothesis import strategies as st
from ragpulse import semconv
from ragpulse.guarding import record_verdict
from ragpulse.settings import ContentSettings
from ragpulse.text import TextRecorder
from ragpulse_judge.learnt import LearntJudge
from ragpulse_judge.rules import LexicalJudge
from ragpulse_scorers.lexical.guard import GUARD_ATTRIBUTES
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import ContextChunk, RagRequest, Score

QUESTION = "Can I return it?"
CHUNKS = ["Returns are accepted within 30 days of delivery.", "Standard shipping takes 3 to 5 business days."]
INVENTED = "Returns are accepted within 30 days of delivery. Shipping to Mars costs 400 dollars."


def request(attributes: dict[str, str], answer: str = INVENTED) -> RagRequest:
    return RagRequest(
        trace_id="t" * 32,
        timestamp=datetime.now(UTC),
        question=QUESTION,
        answer=answer,
        context=[ContextChunk(id=f"c{i}", text=text, rank=i + 1) for i, text in enumerate(CHUNKS)],
        span_attributes=attributes,
    )


def span_attributes(verdict: ragpulse.GuardVerdict) -> dict[str, str]:
    """The verdict's attributes as the scorer reads them back from ``otel_traces`` (strings)."""
    recorded: dict[str, Any] = {}
    record_verdict(recorded.update, verdict, TextRecorder(ContentSettings()))
    return {name: str(value) for name, value in recorded.items()}


def hallucination(scores: list[Score]) -> Score:
    return scores[0]


@pytest.mark.parametrize("judge", ["rules", "learnt"])
def test_a_genuine_verdict_is_confirmed_as_the_scores_own(judge: str) -> None:
    verdict = ragpulse.guard(INVENTED, context=CHUNKS, question=QUESTION, judge=judge)
    scorer = LexicalScorer(LearntJudge() if judge == "learnt" else LexicalJudge())
    score = hallucination(scorer.score(request(span_attributes(verdict))))
    assert score.value == 1.0 and verdict.verdict == "unsupported"
    assert score.details["guard"]["status"] == "confirmed"


def test_a_forged_verdict_about_the_same_text_is_overruled(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="ragpulse_scorers.lexical.guard")  # warned once, then debug
    genuine = span_attributes(ragpulse.guard(INVENTED, context=CHUNKS, question=QUESTION, judge="rules"))
    # A sender hashes the very text the scorer assembles and claims the answer is supported.
    forged = {**genuine, semconv.GUARD_VERDICT: "supported", semconv.GUARD_SCORE: "1.0"}
    score = hallucination(LexicalScorer().score(request(forged)))
    assert (score.value, score.label) == (1.0, "hallucinated")
    assert score.details["guard"]["status"] == "overruled"
    assert score.details["guard"]["guard_verdict"] == "supported"
    assert "disagrees with the scorer's own judgement" in caplog.text


def test_a_verdict_by_another_judge_version_or_about_other_text_is_not_compared() -> None:
    genuine = span_attributes(ragpulse.guard(INVENTED, context=CHUNKS, question=QUESTION, judge="rules"))
    other_version = {**genuine, semconv.GUARD_VERSION: "2", semconv.GUARD_VERDICT: "supported"}
    other_judge = {**genuine, semconv.GUARD_JUDGE: "learnt"}
    other_text = span_attributes(ragpulse.guard(CHUNKS[0], context=CHUNKS, question=QUESTION, judge="rules"))
    for attributes, reason in [
        (other_version, "is not this scorer's"),
        (other_judge, "is not this scorer's"),
        (other_text, "judged other text"),
    ]:
        score = hallucination(LexicalScorer().score(request(attributes)))
        assert score.value == 1.0
        assert score.details["guard"]["status"] == "not compared"
        assert reason in score.details["guard"]["reason"]


def test_an_unknown_verdict_is_noted_and_no_verdict_leaves_the_details_alone() -> None:
    unknown = span_attributes(
        ragpulse.guard(INVENTED, context=CHUNKS, timeout_ms=float("nan"), judge="rules")
    )
    noted = hallucination(LexicalScorer().score(request(unknown)))
    assert noted.details["guard"]["status"] == "no verdict"
    assert "timeout_ms" in noted.details["guard"]["reason"]
    assert "guard" not in hallucination(LexicalScorer().score(request({}))).details


guard_values = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["supported", "unsupported", "unknown", "nan", "inf", "-0", "1e309", "3", "rules"]),
    st.just("x" * 100_000),
)


@given(attributes=st.dictionaries(st.sampled_from(GUARD_ATTRIBUTES), guard_values))
def test_whatever_a_sender_writes_the_score_is_the_judges_own(attributes: dict[str, str]) -> None:
    plain = hallucination(LexicalScorer().score(request({})))
    scored = hallucination(LexicalScorer().score(request(attributes)))
    assert (scored.value, scored.label, scored.details["sentences"]) == (
        plain.value,
        plain.label,
        plain.details["sentences"],
    )
    if semconv.GUARD_VERDICT in attributes:
        assert scored.details["guard"]["status"] in ("no verdict", "not compared", "overruled", "confirmed")
        assert len(str(scored.details["guard"])) < 1_000
