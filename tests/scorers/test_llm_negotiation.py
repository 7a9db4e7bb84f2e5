"""How the judge client copes with the servers users run: formats refused or ignored, replies wrapped in
prose, schemas echoed back, list answers with items missing, and the defaults of a model server on this
machine."""

from __future__ import annotations

import json
import logging
import socket
from typing import Any, ClassVar

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from judge_testing import FakeOpenAI, answering, completion, error, judge_settings
from pydantic import Field
from ragpulse_scorers.judges.coverage import MAX_SUB_QUESTIONS, Decomposition
from ragpulse_scorers.llm import client as client_module
from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.llm.errors import JudgeConnectionFailed, JudgeOutputInvalid
from ragpulse_scorers.llm.items import collect_by_id
from ragpulse_scorers.llm.output import JudgeOutput
from ragpulse_scorers.llm.parsing import closed_prefix, json_candidates, parse_reply
from ragpulse_scorers.settings import JudgeSettings

GOOD = {"reasoning": "The documents give the date.", "verdict": "Yes"}


class Verdict(JudgeOutput):
    reasoning: str
    verdict: str = Field(pattern="^(Yes|No)$")

    example: ClassVar[dict[str, Any]] = {"reasoning": "Nothing in the documents says so.", "verdict": "No"}


def formats_sent(server: FakeOpenAI) -> list[str | None]:
    return [body.get("response_format", {}).get("type") for body in server.requests]


def client_for(server: FakeOpenAI, **settings: object) -> JudgeClient:
    return JudgeClient(judge_settings(**settings), http_client=server.http_client(), sleep=lambda _: None)


def test_a_500_to_json_schema_moves_to_json_object_for_good_and_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # What llama-cpp-python's server does: HTTP 500 for json_schema, a grammar for json_object + schema.
    def llama_cpp(body: dict[str, Any]) -> Any:
        if body.get("response_format", {}).get("type") == "json_schema":
            return error(500, "'json_schema' is not supported")
        return GOOD

    server = FakeOpenAI(answering(llama_cpp))
    client = client_for(server)
    with caplog.at_level(logging.INFO, logger="ragpulse_scorers.llm.formats"):
        assert client.judge("s", "first", Verdict, "p1").output.verdict == "Yes"
        assert client.judge("s", "second", Verdict, "p1").output.verdict == "Yes"
    assert formats_sent(server) == ["json_schema", "json_object", "json_object"]
    assert server.requests[1]["response_format"]["schema"] == Verdict.model_json_schema()
    assert "structured output via json_object" in caplog.text
    # Another client in the process for the same endpoint and model starts where this one ended.
    assert formats_sent_after(client_for(server), server) == ["json_object"]


def formats_sent_after(client: JudgeClient, server: FakeOpenAI) -> list[str | None]:
    before = len(server.requests)
    client.judge("s", "one more question", Verdict, "p1")
    return formats_sent(server)[before:]


def test_a_server_that_ignores_the_format_is_read_anyway_and_sent_none() -> None:
    # Answers in prose whatever it is asked: each format is dropped once seen ignored.
    server = FakeOpenAI(completion(f"Sure! Here is my evaluation:\n{json.dumps(GOOD)}\nHope this helps."))
    client = client_for(server)
    for question in ("first", "second", "third"):  # distinct prompts: an identical one is answered from cache
        assert client.judge("s", question, Verdict, "p1").output.verdict == "Yes"
    assert formats_sent(server) == ["json_schema", "json_object", None]
    assert formats_sent_after(client, server) == [None]


def test_once_a_format_worked_a_server_error_is_retried_in_it() -> None:
    server = FakeOpenAI(completion(GOOD), error(500, "out of memory"), completion(GOOD))
    client = client_for(server)
    client.judge("s", "first", Verdict, "p1")
    client.judge("s", "second", Verdict, "p1")
    assert formats_sent(server) == ["json_schema"] * 3


def test_rate_limits_and_overload_say_nothing_about_formats() -> None:
    server = FakeOpenAI(error(429, "slow down", {"Retry-After": "0"}), error(503, "busy"), completion(GOOD))
    client_for(server).judge("s", "u", Verdict, "p1")
    assert formats_sent(server) == ["json_schema"] * 3


def test_a_repair_shows_the_validation_error_at_a_temperature_that_can_change_the_answer() -> None:
    server = FakeOpenAI(completion({"reasoning": "r", "verdict": "Maybe"}), completion(GOOD))
    call = client_for(server, repair_temperature=0.7).judge("s", "u", Verdict, "p1")
    assert call.output.verdict == "Yes"
    first, repair = server.requests
    assert first["temperature"] == 0 and repair["temperature"] == 0.7
    assert "verdict" in repair["messages"][-1]["content"] and "Yes|No" in repair["messages"][-1]["content"]


def test_a_schema_echoed_back_is_named_as_such_in_the_repair() -> None:
    echoed = Verdict.model_json_schema()
    server = FakeOpenAI(completion(echoed), completion(GOOD))
    client_for(server).judge("s", "u", Verdict, "p1")
    assert "JSON Schema, not an answer" in server.requests[1]["messages"][-1]["content"]


def test_a_missing_field_is_never_filled_in() -> None:
    server = FakeOpenAI(completion({"verdict": "Yes"}))
    with pytest.raises(JudgeOutputInvalid, match="reasoning"):
        client_for(server).judge("s", "u", Verdict, "p1")


PROSE = st.text(alphabet=st.characters(blacklist_characters="{}[]`"), max_size=40)
JSON_SCALARS = st.none() | st.booleans() | st.integers() | st.text(max_size=20)
OBJECTS = st.dictionaries(st.text(min_size=1, max_size=10), JSON_SCALARS, min_size=1, max_size=5)


@given(OBJECTS, PROSE, PROSE, st.booleans())
def test_an_object_in_prose_or_a_fence_is_found_first(
    value: dict[str, Any], before: str, after: str, fenced: bool
) -> None:
    body = json.dumps(value, ensure_ascii=False)
    reply = f"{before}\n```json\n{body}\n```\n{after}" if fenced else f"{before} {body} {after}"
    assert json_candidates(reply)[0] == value


@given(st.text(max_size=200))
def test_any_reply_is_an_answer_or_a_value_error(reply: str) -> None:
    try:
        parsed = parse_reply(reply, Verdict)
    except ValueError:
        return
    assert parsed.verdict in ("Yes", "No")


def test_a_bare_list_is_taken_for_the_one_list_an_answer_holds() -> None:
    class Grades(JudgeOutput):
        grades: list[int]

        example: ClassVar[dict[str, Any]] = {"grades": [1]}

    assert parse_reply("[2, 0, 1]", Grades).grades == [2, 0, 1]


def test_only_the_items_still_missing_are_asked_about_again() -> None:
    asked: list[list[int]] = []

    def ask(ids: list[int]) -> list[tuple[int, str]]:
        asked.append(ids)
        return [(i, f"verdict {i}") for i in ids if i != 3 or len(asked) > 1] + [(99, "not asked")]

    found = collect_by_id([1, 2, 3, 4], ask, asks=3)
    assert asked == [[1, 2, 3, 4], [3]]
    assert found == {1: "verdict 1", 2: "verdict 2", 3: "verdict 3", 4: "verdict 4"}


def test_asking_stops_when_a_round_brings_nothing_new() -> None:
    asked: list[list[int]] = []

    def ask(ids: list[int]) -> list[tuple[int, str]]:
        asked.append(ids)
        return [(1, "one")] if 1 in ids else []

    assert collect_by_id([1, 2], ask, asks=5) == {1: "one"}
    assert asked == [[1, 2], [2]]


def test_a_model_server_on_this_machine_gets_patient_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    local = JudgeSettings(base_url="http://127.0.0.1:8080/v1")
    assert (local.timeout_s, local.max_retries, local.concurrency, local.repairs) == (300.0, 1, 1, 2)
    hosted = JudgeSettings(base_url="https://api.example.com/v1")
    assert (hosted.timeout_s, hosted.max_retries, hosted.concurrency) == (60.0, 4, 4)
    chosen = JudgeSettings(base_url="http://localhost:11434/v1", timeout_s=30, concurrency=2)
    assert (chosen.timeout_s, chosen.concurrency, chosen.max_retries) == (30, 2, 1)


def cut_off(content: str) -> httpx.Response:
    """A reply that stopped at the length limit (finish_reason "length")."""
    response = completion(content)
    body = json.loads(response.content)
    body["choices"][0]["finish_reason"] = "length"
    return httpx.Response(200, json=body)


def test_a_list_cut_off_at_the_length_limit_keeps_its_complete_items() -> None:
    class SubQuestions(JudgeOutput):
        sub_questions: list[str]

        example: ClassVar[dict[str, Any]] = {"sub_questions": ["What is it?"]}

    server = FakeOpenAI(cut_off('{"sub_questions": ["When did it open?", "How tall is it?", "How tall is it'))
    call = client_for(server).judge("s", "u", SubQuestions, "p1")
    assert call.output.sub_questions == ["When did it open?", "How tall is it?"]
    assert len(server.requests) == 1


@given(st.lists(st.text(max_size=12), min_size=1, max_size=6), st.integers(min_value=0))
def test_a_closed_prefix_is_valid_json_holding_only_complete_items(items: list[str], cut: int) -> None:
    whole = json.dumps({"items": items})
    prefix = whole[: cut % len(whole)]
    closed = closed_prefix(prefix)
    if closed is not None:
        kept = json.loads(closed)["items"]
        assert kept == items[: len(kept)] and len(kept) < len(items)


def test_a_server_busy_with_another_answer_is_not_taken_for_a_dead_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A local model server takes the connection but lists its models only after the answer it is generating.
    monkeypatch.setattr(client_module, "PROBE_READ_TIMEOUT_S", 0.5)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(8)
        port = busy.getsockname()[1]
        JudgeClient(judge_settings(base_url=f"http://127.0.0.1:{port}/v1")).check_reachable()
    # Nothing listens there any more: that is a dead judge, said in one line.
    with pytest.raises(JudgeConnectionFailed, match="no judge answers"):
        JudgeClient(judge_settings(base_url=f"http://127.0.0.1:{port}/v1")).check_reachable()


def test_a_decomposition_is_bounded_for_the_grammar_and_a_longer_one_cut_not_refused() -> None:
    schema = Decomposition.model_json_schema()
    assert schema["properties"]["sub_questions"]["maxItems"] == MAX_SUB_QUESTIONS
    many = [f"Sub-question {i}?" for i in range(MAX_SUB_QUESTIONS + 5)]
    assert len(Decomposition.model_validate({"sub_questions": many}).sub_questions) == MAX_SUB_QUESTIONS
