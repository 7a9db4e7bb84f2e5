"""``ragpulse eval subq-types`` / ``subq-coverage`` on the real annotation files, with a fake judge server."""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from judge_testing import FakeOpenAI, answering, schema_name
from ragpulse_scorers.commands.eval_subq import run_coverage, run_types
from ragpulse_scorers.evaluation.datasets import DatasetError
from ragpulse_scorers.evaluation.subq import (
    Judged,
    TypeExample,
    evaluate_types,
    load_coverage_examples,
    load_type_examples,
)
from ragpulse_scorers.llm.endpoint import JudgeEndpointError


def fake_server(reply: Callable[[str, list[str]], dict[str, Any]]) -> FakeOpenAI:
    """A judge whose JSON answer is ``reply(schema_name, sub_questions_in_prompt)``."""

    def answer(body: dict[str, Any]) -> dict[str, Any]:
        prompt = next(m["content"] for m in body["messages"] if m["role"] == "user")
        sub_questions = re.findall(r'<sub_question id="\d+">\n(.*?)\n</sub_question>', prompt, re.DOTALL)
        return reply(schema_name(body), sub_questions)

    return FakeOpenAI(answering(answer))


def typed(sub_question_id: int, type_: str) -> dict[str, Any]:
    return {"id": sub_question_id, "reasoning": "as annotated", "type": type_}


@pytest.fixture(autouse=True)
def judge_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://judge.test/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("RAGPULSE_JUDGE__MAX_RETRIES", "0")
    # The default requests-per-minute limit would pace the fake server.
    monkeypatch.setenv("RAGPULSE_JUDGE__REQUESTS_PER_MINUTE", "60000")


def args(data: Path, **extra: Any) -> argparse.Namespace:
    return argparse.Namespace(data=data, model="judge-model", limit=None, json=True, config=None, **extra)


def run_json(run: Callable[..., int], namespace: argparse.Namespace, server: FakeOpenAI,
             capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:  # fmt: skip
    code = run(namespace, http_client=server.http_client())
    return code, json.loads(capsys.readouterr().out)


def test_oracle_typing_is_fully_accurate_and_ties_are_left_out(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = shared_data / "subq_types.jsonl"
    truth = {e.sub_question: e.majority or e.annotator_types[0] for e in load_type_examples(path)}
    server = fake_server(
        lambda schema, subs: {
            "types": [{"id": i, "reasoning": "r", "type": truth[s]} for i, s in enumerate(subs, 1)]
        }
    )
    code, result = run_json(run_types, args(path), server, capsys)
    assert code == 0
    assert result["accuracy"] == 1.0
    assert result["n"] + result["tied"] == 200 and result["tied"] > 0
    # one call per question, all its sub-questions at once
    assert server.schema_names() == ["TypeVerdicts"] * 10
    assert result["reference"]["humans"] == 0.746


def test_always_core_is_right_exactly_on_core_majorities(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = fake_server(
        lambda schema, subs: {
            "types": [{"id": i, "reasoning": "r", "type": "core"} for i in range(1, len(subs) + 1)]
        }
    )
    _, result = run_json(run_types, args(shared_data / "subq_types.jsonl"), server, capsys)
    assert result["per_type"]["core"]["accuracy"] == 1.0
    assert result["per_type"]["background"]["accuracy"] == 0.0
    assert result["accuracy"] == pytest.approx(result["per_type"]["core"]["n"] / result["n"])


def test_always_answered_agrees_exactly_where_humans_said_answered(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def everything_answered(schema: str, subs: list[str]) -> dict[str, Any]:
        return {
            "verdicts": [
                {"id": i, "reasoning": "r", "text_span": "s", "answered": True, "first_sentence": 1}
                for i in range(1, len(subs) + 1)
            ]
        }

    server = fake_server(everything_answered)
    code, result = run_json(run_coverage, args(shared_data / "subq_coverage.jsonl"), server, capsys)
    assert code == 0
    assert result["n"] == 200 and server.schema_names() == ["CoverageVerdicts"] * 10  # one call per answer
    assert result["agreement"] == pytest.approx(result["human_answered_share"])
    assert (result["recall"], result["reference"]["gpt4"]) == (1.0, 0.83)


def test_judge_failures_are_counted_not_guessed(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Answers about sub-question 99 every time: no verdict for any sub-question that was asked about.
    server = fake_server(
        lambda schema, subs: {"verdicts": [{"id": 99, "reasoning": "r", "text_span": "", "answered": True,
                                            "first_sentence": None}]}
    )  # fmt: skip
    namespace = args(shared_data / "subq_coverage.jsonl")
    namespace.limit = 2
    code, result = run_json(run_coverage, namespace, server, capsys)
    assert (result["n"], result["not_judged"], result["agreement"]) == (0, 40, None)
    assert result["coverage"] == {"judged": 0, "total": 40}
    assert all(item["verdict"] is None and item["not_judged"] for item in result["items"])
    assert code == 1
    # Asking again about the same sub-questions would get the same answer: one call per answer.
    assert len(server.requests) == 2


def test_ties_have_no_majority() -> None:
    tied = TypeExample(1, "q", "s1", ("core", "core", "background", "background"))
    clear = TypeExample(2, "q", "s2", ("core", "follow-up", "core", "background"))
    assert tied.majority is None and clear.majority == "core"
    result = evaluate_types([tied, clear], lambda q, subs: [Judged("core", "r"), Judged("core", "r")])
    assert (result["n"], result["tied"], result["accuracy"]) == (1, 1, 1.0)


def test_table_output(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    server = fake_server(
        lambda schema, subs: {
            "types": [{"id": i, "reasoning": "r", "type": "core"} for i in range(1, len(subs) + 1)]
        }
    )
    namespace = args(shared_data / "subq_types.jsonl")
    namespace.json, namespace.limit = False, 1
    assert run_types(namespace, http_client=server.http_client()) == 0
    out = capsys.readouterr().out
    assert "annotators' majority" in out and "74.6%" in out


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{broken", "invalid JSON"),
        ('{"question": "q", "sub_question": "s", "annotator_types": ["main"]}', "annotator_types"),
        ('{"question": "", "sub_question": "s", "annotator_types": ["core"]}', "question"),
    ],
)
def test_malformed_type_rows_name_the_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "types.jsonl"
    path.write_text('{"question": "q", "sub_question": "s", "annotator_types": ["core"]}\n' + line + "\n")
    with pytest.raises(DatasetError, match=rf"types.jsonl:2: .*{message}"):
        load_type_examples(path)


def test_malformed_coverage_rows_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "coverage.jsonl"
    path.write_text('{"answer": "a", "sub_question": "s", "judgment": "maybe"}\n')
    with pytest.raises(DatasetError, match="judgment"):
        load_coverage_examples(path)


def test_no_endpoint_configured_is_one_line_naming_what_to_set(
    shared_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(JudgeEndpointError, match="OPENAI_BASE_URL"):
        run_types(args(shared_data / "subq_types.jsonl"))


def test_limit_counts_questions(shared_data: Path) -> None:
    examples = load_type_examples(shared_data / "subq_types.jsonl", limit=3)
    assert len(Counter(e.question for e in examples)) == 3
