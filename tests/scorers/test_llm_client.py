"""The judge client against a scripted OpenAI-compatible server: formats, repairs, retries, budget, cache."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any, ClassVar

import httpx
import pytest
from judge_testing import MODEL, FakeOpenAI, completion, error, judge_settings, timeout
from pydantic import Field
from ragpulse_core.store import Store
from ragpulse_scorers.llm.client import MAX_RETRY_AFTER_S, JudgeClient
from ragpulse_scorers.llm.errors import (
    BudgetExceeded,
    JudgeOutputInvalid,
    JudgeRejected,
    JudgeTimeout,
    JudgeUnavailable,
)
from ragpulse_scorers.llm.output import JudgeOutput
from ragpulse_scorers.pipeline.errors import OverBudget

GOOD = {"verdict": "Yes", "confidence": 4}


class Verdict(JudgeOutput):
    verdict: str
    confidence: int = Field(ge=1, le=5)

    example: ClassVar[dict[str, Any]] = {"verdict": "No", "confidence": 2}


class Sleeps(list[float]):
    """Stands in for ``time.sleep`` and remembers the delays asked for."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def client_for(
    server: FakeOpenAI, sleeps: Sleeps | None = None, store: Store | None = None, **settings: object
) -> JudgeClient:
    return JudgeClient(
        judge_settings(**settings),
        store=store,
        http_client=server.http_client(),
        sleep=Sleeps() if sleeps is None else sleeps,
    )


def test_good_answer_is_parsed_and_costed() -> None:
    server = FakeOpenAI(completion(GOOD, prompt_tokens=1000, completion_tokens=500))
    call = client_for(server).judge("system text", "user text", Verdict, "p1")

    assert call.output == Verdict(verdict="Yes", confidence=4)
    assert (call.model, call.input_tokens, call.output_tokens, call.cached) == (MODEL, 1000, 500, False)
    assert call.cost_usd == pytest.approx((1000 * 1.0 + 500 * 2.0) / 1e6)
    assert call.latency_ms >= 0
    sent = server.requests[0]
    assert sent["model"] == MODEL
    assert sent["temperature"] == 0 and isinstance(sent["seed"], int)
    system, user = sent["messages"]
    assert system["role"] == "system" and system["content"].startswith("system text\n\n")
    # The answer's shape is shown by a filled example, never by a JSON Schema (a small model echoes that).
    assert '{"verdict": "No", "confidence": 2}' in system["content"] and "$defs" not in system["content"]
    assert user == {"role": "user", "content": "user text"}
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["response_format"]["json_schema"]["schema"] == Verdict.model_json_schema()


def test_server_without_schema_support_gets_json_mode_from_then_on() -> None:
    server = FakeOpenAI(
        error(
            400,
            "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
        ),
        completion(GOOD),
    )
    client = client_for(server)
    assert client.judge("s", "first", Verdict, "p1").output.verdict == "Yes"
    assert client.judge("s", "second", Verdict, "p1").output.verdict == "Yes"

    formats = [request["response_format"]["type"] for request in server.requests]
    assert formats == ["json_schema", "json_object", "json_object"]
    # Without schema enforcement the schema travels in the system prompt.
    assert '"confidence"' in server.requests[1]["messages"][0]["content"]


def test_an_error_every_format_gets_is_the_servers_not_the_formats() -> None:
    server = FakeOpenAI(error(400, "maximum context length exceeded"))
    client = client_for(server)
    with pytest.raises(JudgeUnavailable) as raised:
        client.judge("s", "u", Verdict, "p1")
    assert raised.value.status_code == 400
    # Each format was tried once; since all failed alike, none is ruled out for the next call.
    assert [sent.get("response_format", {}).get("type") for sent in server.requests] == [
        "json_schema", "json_object", None,
    ]  # fmt: skip
    assert client.formats.current == "json_schema"


def test_broken_json_gets_one_repair() -> None:
    server = FakeOpenAI(completion('{"verdict": "Yes", "confid'), completion(GOOD, prompt_tokens=150))
    call = client_for(server).judge("s", "u", Verdict, "p1")

    assert call.output.confidence == 4
    assert call.input_tokens == 100 + 150  # both calls were paid for
    repair = server.messages(1)
    assert repair[2] == {"role": "assistant", "content": '{"verdict": "Yes", "confid'}
    assert "corrected JSON" in repair[3]["content"]


def test_out_of_range_value_is_named_in_the_repair_request() -> None:
    server = FakeOpenAI(completion({"verdict": "Yes", "confidence": 9}), completion(GOOD))
    client_for(server).judge("s", "u", Verdict, "p1")
    assert "confidence" in server.messages(1)[3]["content"]


def test_broken_twice_is_invalid_output() -> None:
    server = FakeOpenAI(completion("I think the answer is yes."), completion("still not JSON"))
    with pytest.raises(JudgeOutputInvalid, match="after 1 repair"):
        client_for(server).judge("s", "u", Verdict, "p1")
    assert len(server.requests) == 2


def test_json_in_a_markdown_fence_is_accepted() -> None:
    server = FakeOpenAI(completion('```json\n{"verdict": "No", "confidence": 2}\n```'))
    assert client_for(server).judge("s", "u", Verdict, "p1").output.verdict == "No"
    assert len(server.requests) == 1


def test_rejected_verdict_is_repaired_once_then_invalid() -> None:
    def validate(verdict: Verdict) -> None:
        if verdict.verdict not in ("Yes", "No"):
            raise JudgeRejected(f"verdict {verdict.verdict!r} is not Yes or No")

    fixed = FakeOpenAI(completion({"verdict": "Maybe", "confidence": 3}), completion(GOOD))
    assert client_for(fixed).judge("s", "u", Verdict, "p1", validate=validate).output.verdict == "Yes"
    assert "'Maybe' is not Yes or No" in fixed.messages(1)[3]["content"]

    stubborn = FakeOpenAI(completion({"verdict": "Maybe", "confidence": 3}))
    with pytest.raises(JudgeOutputInvalid, match="Maybe"):
        client_for(stubborn).judge("s", "u", Verdict, "p1", validate=validate)
    assert len(stubborn.requests) == 2


def test_429_waits_as_long_as_retry_after_says() -> None:
    sleeps = Sleeps()
    server = FakeOpenAI(error(429, "slow down", {"Retry-After": "7"}), completion(GOOD))
    assert client_for(server, sleeps).judge("s", "u", Verdict, "p1").output.verdict == "Yes"
    assert sleeps == [7.0]
    assert len(server.requests) == 2


def test_503_with_retry_after_ms_is_honoured() -> None:
    sleeps = Sleeps()
    server = FakeOpenAI(error(503, "overloaded", {"retry-after-ms": "250"}), completion(GOOD))
    client_for(server, sleeps).judge("s", "u", Verdict, "p1")
    assert sleeps == [0.25]


def test_retry_after_as_a_date_or_too_long_is_understood_and_capped() -> None:
    sleeps = Sleeps()
    soon = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    server = FakeOpenAI(
        error(429, "slow down", {"Retry-After": soon}),
        error(429, "slow down", {"Retry-After": "3600"}),
        completion(GOOD),
    )
    client_for(server, sleeps).judge("s", "u", Verdict, "p1")
    assert 28 <= sleeps[0] <= 30
    assert sleeps[1] == MAX_RETRY_AFTER_S


def test_500_until_retries_run_out() -> None:
    sleeps = Sleeps()
    server = FakeOpenAI(error(500, "internal error"))
    with pytest.raises(JudgeUnavailable, match="3 times") as raised:
        client_for(server, sleeps, max_retries=2).judge("s", "u", Verdict, "p1")
    assert raised.value.status_code == 500
    assert len(server.requests) == 3 * 3  # every attempt tries the three formats before it counts as failed
    assert len(sleeps) == 2 and sleeps[0] < sleeps[1]  # exponential backoff


def test_timeouts_until_retries_run_out() -> None:
    server = FakeOpenAI(timeout)
    with pytest.raises(JudgeTimeout):
        client_for(server, max_retries=3).judge("s", "u", Verdict, "p1")
    assert len(server.requests) == 4


def test_a_timeout_then_an_answer_succeeds() -> None:
    server = FakeOpenAI(timeout, completion(GOOD))
    assert client_for(server).judge("s", "u", Verdict, "p1").output.verdict == "Yes"


def test_unauthorised_is_not_retried() -> None:
    server = FakeOpenAI(error(401, "invalid api key"))
    with pytest.raises(JudgeUnavailable, match="401"):
        client_for(server).judge("s", "u", Verdict, "p1")
    assert len(server.requests) == 1


def test_budget_in_tokens_runs_out_mid_way() -> None:
    server = FakeOpenAI(completion(GOOD, prompt_tokens=100, completion_tokens=20))
    client = client_for(server, daily_budget_tokens=100)
    client.judge("s", "first", Verdict, "p1")
    with pytest.raises(BudgetExceeded, match="120 of 100 tokens") as raised:
        client.judge("s", "second", Verdict, "p1")
    assert isinstance(raised.value, OverBudget)  # the scheduler logs it as over budget, not failed
    assert len(server.requests) == 1


def test_budget_in_dollars_runs_out_mid_way() -> None:
    server = FakeOpenAI(completion(GOOD, prompt_tokens=1000, completion_tokens=1000))  # $0.003 a call
    client = client_for(server, daily_budget_usd=0.005)
    client.judge("s", "first", Verdict, "p1")
    client.judge("s", "second", Verdict, "p1")
    with pytest.raises(BudgetExceeded):
        client.judge("s", "third", Verdict, "p1")
    assert len(server.requests) == 2


def test_cached_answers_are_not_paid_twice_but_budget_still_blocks_new_ones() -> None:
    server = FakeOpenAI(completion(GOOD, prompt_tokens=100, completion_tokens=20))
    client = client_for(server, daily_budget_tokens=100)
    client.judge("s", "first", Verdict, "p1")
    again = client.judge("s", "first", Verdict, "p1")
    assert again.cached and again.cost_usd == 0 and again.input_tokens == 0
    assert len(server.requests) == 1


def test_identical_judgment_is_cached_and_a_new_prompt_version_is_not() -> None:
    server = FakeOpenAI(completion(GOOD))
    client = client_for(server)
    first = client.judge("s", "u", Verdict, "p1")
    second = client.judge("s", "u", Verdict, "p1")
    assert (first.cached, second.cached) == (False, True)
    assert second.output == first.output
    assert len(server.requests) == 1
    client.judge("s", "u", Verdict, "p2")
    assert len(server.requests) == 2


def test_cache_survives_a_new_client_with_the_same_store(store: Store) -> None:
    client_for(FakeOpenAI(completion(GOOD)), store=store).judge("s", "u", Verdict, "p1")

    later = FakeOpenAI(completion({"verdict": "No", "confidence": 1}))
    call = client_for(later, store=store).judge("s", "u", Verdict, "p1")
    assert call.cached and call.output.verdict == "Yes"
    assert later.requests == []
    rows = store.query(f"SELECT Model, PromptVersion, InputTokens FROM {store.table('ragpulse_judge_cache')}")
    assert rows == [(MODEL, "p1", 100)]


def test_spend_in_the_store_counts_against_a_new_clients_budget(store: Store) -> None:
    client_for(FakeOpenAI(completion(GOOD)), store=store).judge("s", "u", Verdict, "p1")
    later = FakeOpenAI(completion(GOOD))
    with pytest.raises(BudgetExceeded):
        client_for(later, store=store, daily_budget_tokens=100).judge("s", "other", Verdict, "p1")
    assert later.requests == []


def test_store_down_costs_cache_hits_but_not_judgments() -> None:
    broken = Store("http://127.0.0.1:9/nowhere")  # nothing listens on the discard port
    server = FakeOpenAI(completion(GOOD))
    client = client_for(server, store=broken, daily_budget_tokens=10_000)
    assert client.judge("s", "u", Verdict, "p1").output.verdict == "Yes"
    assert client.judge("s", "u", Verdict, "p1").cached  # the memory cache still works
    assert len(server.requests) == 1


def test_concurrency_is_bounded() -> None:
    in_flight = 0
    most = 0
    lock = threading.Lock()

    def slow(request: httpx.Request) -> httpx.Response:
        nonlocal in_flight, most
        with lock:
            in_flight += 1
            most = max(most, in_flight)
        time.sleep(0.02)
        with lock:
            in_flight -= 1
        return completion(GOOD)

    client = client_for(FakeOpenAI(slow), concurrency=2)
    threads = [
        threading.Thread(target=client.judge, args=("s", f"user {i}", Verdict, "p1")) for i in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most == 2
