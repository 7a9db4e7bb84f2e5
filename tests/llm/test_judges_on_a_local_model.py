"""Every LLM judge end to end against a real small model (Qwen2.5-Coder-1.5B, GGUF Q4, llama-cpp-python's
OpenAI-compatible server), through ragpulse's own client, as a user who judges with their own model server
would run it. That server answers HTTP 500 to ``response_format: json_schema``, so every call here also goes
through the format negotiation.

A 1.5B model is often wrong; these tests do not grade its judgment. They check what a user must be able to
rely on whatever the model: a verdict with the judge's reasoning, values in range, no field filled with a
default, and the format the server accepts found and said.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from ragpulse_core.cli import main
from ragpulse_scorers.judges.correctness import CorrectnessScorer
from ragpulse_scorers.judges.coverage import MAX_SUB_QUESTIONS, CoverageJudge
from ragpulse_scorers.judges.entailment import UNSUPPORTED_ABOVE, EntailmentScorer
from ragpulse_scorers.judges.pairwise import PairwiseJudge
from ragpulse_scorers.judges.retrieval import RetrievalScorer
from ragpulse_scorers.judges.support import SupportScorer
from ragpulse_scorers.judges.usage import Usage
from ragpulse_scorers.judges.variations import VariationsScorer
from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.metrics.coverage_metrics import SUB_QUESTION_TYPES
from ragpulse_scorers.models import ContextChunk, RagRequest, Score
from ragpulse_scorers.settings import JudgeSettings

pytestmark = pytest.mark.llm

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
QUESTION = "When did the Eiffel Tower open, and how tall is it?"
DOCUMENTS = [
    "The Eiffel Tower opened to the public on 31 March 1889, for the World's Fair in Paris.",
    "The tower is 330 metres tall including its antennas.",
]
ANSWER = "The Eiffel Tower opened on 31 March 1889. It is 330 metres tall."


def request(**changes: Any) -> RagRequest:
    fields: dict[str, Any] = {
        "trace_id": "t1",
        "timestamp": datetime.now(UTC),
        "question": QUESTION,
        "answer": ANSWER,
        "context": [ContextChunk(id=f"c{i}", text=text, rank=i) for i, text in enumerate(DOCUMENTS, 1)],
    }
    return RagRequest(**(fields | changes))


def by_metric(scores: list[Score]) -> dict[str, Score]:
    assert all(score.error == "" for score in scores), scores
    return {score.metric: score for score in scores}


def test_the_support_judge_gives_a_verdict_with_reasons_and_every_trace_metric(
    local_model: JudgeSettings, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="ragpulse_scorers.llm.formats"):
        scores = by_metric(SupportScorer(JudgeClient(local_model)).score(request()))
    # llama-cpp-python refuses json_schema with a 500; the client moves on and says which format works.
    assert "json_schema output refused (HTTP 500" in caplog.text
    assert "structured output via json_object" in caplog.text
    assert scores["adherence"].value in (0.0, 1.0) and scores["adherence"].explanation.strip()
    assert scores["hallucination"].value == 1.0 - scores["adherence"].value
    assert scores["relevance"].explanation.strip()
    for metric in ("relevance", "utilization"):
        value = scores[metric].value
        assert value is not None and 0.0 <= value <= 1.0
    assert scores["adherence"].details["sentence_count"] == 2
    assert scores["adherence"].input_tokens > 0 and scores["adherence"].cost_usd == 0.0


def test_the_small_model_mode_asks_about_every_claim_sentence(local_model: JudgeSettings) -> None:
    answer = ANSWER + " Entry is free for children under 12. Do you want to know more?"
    scores = by_metric(EntailmentScorer(JudgeClient(local_model)).score(request(answer=answer)))
    asked = scores["adherence"].details["sentences"]
    # Three claim sentences, one call each; the closing question claims nothing and is not asked.
    assert [item["sentence"] for item in asked] == [
        "The Eiffel Tower opened on 31 March 1889.",
        "It is 330 metres tall.",
        "Entry is free for children under 12.",
    ]
    # The server's log-probabilities are read: chances strictly between 0 and 1, not a word taken as certain.
    chances = [item["unsupported_chance"] for item in asked]
    assert all(0.0 < chance < 1.0 for chance in chances)
    flagged = any(chance > UNSUPPORTED_ABOVE for chance in chances)
    assert scores["hallucination"].value == (1.0 if flagged else 0.0)
    assert scores["adherence"].input_tokens > 0


def test_the_correctness_judge_says_yes_or_no_with_its_reason(local_model: JudgeSettings) -> None:
    reference = "It opened in 1889 and is 330 m tall."
    (score,) = CorrectnessScorer(JudgeClient(local_model)).score(request(reference=reference))
    assert score.value in (0.0, 1.0) and score.label in ("yes", "no")
    assert score.explanation.strip()


def test_the_retrieval_judge_grades_every_chunk_with_its_reason(local_model: JudgeSettings) -> None:
    scores = by_metric(RetrievalScorer(JudgeClient(local_model)).score(request()))
    chunks = scores["mrr5_very_relevant"].details["chunks"]
    assert [chunk["id"] for chunk in chunks] == ["c1", "c2"]
    assert all(chunk["relevance"] in (0, 1, 2) and chunk["reasoning"].strip() for chunk in chunks)
    assert 0.0 <= scores["precision_at_k"].value <= 1.0  # type: ignore[operator]


def test_the_variations_judge_rates_the_query_variations(local_model: JudgeSettings) -> None:
    variations = ["Eiffel Tower opening date", "height of the Eiffel Tower in metres"]
    scores = VariationsScorer(JudgeClient(local_model)).score(request(variations=variations))
    assert scores and all(score.error == "" for score in scores)
    assert all(score.value is None or 0.0 <= score.value <= 5.0 for score in scores)
    assert any(score.explanation.strip() for score in scores)


def test_the_coverage_judge_decomposes_types_and_judges_answer_and_chunk(local_model: JudgeSettings) -> None:
    # Its four judgments, each once. The later three on a short plan: about 20 sub-questions a call (the
    # method's decomposition) take the model tens of minutes on two cores; the scorer's whole path is
    # covered against a scripted server.
    judge, usage = CoverageJudge(JudgeClient(local_model)), Usage()
    decomposed = judge.decompose(QUESTION, usage)
    assert 1 <= len(decomposed) <= MAX_SUB_QUESTIONS and all(text.strip() for text in decomposed)
    plan = [
        "When did the Eiffel Tower open?",
        "How tall is the Eiffel Tower?",
        "Who paid for the Eiffel Tower?",
    ]
    types = judge.classify(QUESTION, plan, usage)
    typed = [verdict for verdict in types if verdict is not None]
    assert typed and all(
        verdict.type in SUB_QUESTION_TYPES and verdict.reasoning.strip() for verdict in typed
    )
    answer = judge.judge_answer(ANSWER, plan, usage)
    judged = [verdict for verdict in answer if verdict is not None]
    # Every sub-question has a verdict with reasoning, or none at all: never a default verdict.
    assert len(judged) >= 2 and all(verdict.answered in (True, False) for verdict in judged)
    assert all(verdict.reasoning.strip() for verdict in judged)
    covered = judge.judge_passage(DOCUMENTS[0], plan, usage)
    assert len(covered) == 3 and any(verdict is not None for verdict in covered)
    assert usage.input_tokens > 0


def test_the_pairwise_judge_judges_both_orders_with_reasons(local_model: JudgeSettings) -> None:
    worse = "The Eiffel Tower opened in 1925 and is about 100 metres tall."
    judgment = PairwiseJudge(JudgeClient(local_model)).judge_pair(QUESTION, ANSWER, worse, DOCUMENTS)
    assert {judgment.forward, judgment.swapped, judgment.final} <= {"A", "B", "C"}
    assert judgment.forward_reasoning.strip() and judgment.swapped_reasoning.strip()


def test_ragpulse_eval_support_lists_every_item_with_its_verdict_or_why_not(
    local_model: JudgeSettings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = SHARED_DATA / "ragtruth_qa_dev.jsonl"
    if not data.is_file():
        pytest.skip(f"{data} not present")
    monkeypatch.delenv("RAGPULSE_CONFIG", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", str(local_model.base_url))
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    argv = ["eval", "support", "--data", str(data), "--judge", "openai", "--model", local_model.model,
            "--limit", "2", "--json"]  # fmt: skip
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["coverage"]["total"] == 2 and len(result["items"]) == 2
    for item in result["items"]:
        if item["verdict"] is None:
            assert item["not_judged"]
        else:
            assert item["reasoning"].strip() and item["label"] in (True, False)
    assert result["coverage"]["judged"] >= 1
