"""An unreachable judge: the tick stops calling it, defers the rest, and probes it once the next tick."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

import httpx
import pytest
from judge_testing import FakeOpenAI, judge_settings, timeout
from pipeline_testing import RecordingScorer, insert_requests, log_rows, scored_traces, settings_for
from ragpulse_core.cli import main
from ragpulse_core.store import Store
from ragpulse_scorers.judges import support
from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.llm.errors import JudgeConnectionFailed, JudgeTimeout
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import ScoringJob
from ragpulse_scorers.settings import JudgeSettings


class Endpoint:
    """A judge endpoint for ``RecordingScorer``: up, or down with connection failures."""

    def __init__(self) -> None:
        self.up = True

    def __call__(self, request: RagRequest) -> list[Score] | None:
        if not self.up:
            raise JudgeConnectionFailed("judge unreachable after 5 attempts, last: Connection refused")
        return None


@pytest.fixture
def judge_logs(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    with caplog.at_level(logging.INFO, logger="ragpulse_scorers"):
        yield caplog


def warning_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_dead_judge_is_probed_once_per_tick_and_its_requests_deferred_once(
    store: Store, chdb_dsn: str, judge_logs: pytest.LogCaptureFixture
) -> None:
    traces = insert_requests(store, 30, variants=("A", "B"))
    endpoint = Endpoint()
    endpoint.up = False
    scorer = RecordingScorer(behaviour=endpoint)
    job = ScoringJob(settings_for(chdb_dsn), store, [scorer])

    first = job.run()

    assert len(scorer.calls) == 1  # a new worker probes first
    assert first.count("recording", Outcome.DEFERRED) == 30
    assert [row["Outcome"] for row in log_rows(store)] == ["deferred"] * 30
    assert "Connection refused" in log_rows(store)[0]["Reason"]
    (summary,) = warning_lines(judge_logs)
    assert "judge unreachable" in summary and "30 requests deferred" in summary

    second = job.run()
    assert len(scorer.calls) == 2  # one probe per tick
    assert second.count("recording", Outcome.DEFERRED) == 30
    assert len(log_rows(store)) == 30  # a deferral is logged once per request

    endpoint.up = True
    third = job.run()
    assert third.count("recording", Outcome.SCORED) == 30
    assert scored_traces(store) == sorted(traces)


def test_a_judge_dying_mid_tick_opens_the_circuit_after_a_few_failures_in_a_row(
    store: Store, chdb_dsn: str, judge_logs: pytest.LogCaptureFixture
) -> None:
    insert_requests(store, 20)
    answered: list[str] = []

    def dies_after_two(request: RagRequest) -> list[Score] | None:
        if len(answered) >= 2:
            raise JudgeTimeout("judge timed out 5 times")
        answered.append(request.trace_id)
        return None

    scorer = RecordingScorer(behaviour=dies_after_two)
    report = ScoringJob(settings_for(chdb_dsn, concurrency=1, circuit_failures=3), store, [scorer]).run()

    # Two answered; the first two failures fail their requests, the third opens the circuit.
    assert len(scorer.calls) == 5
    assert report.count("recording", Outcome.SCORED) == 2
    assert report.count("recording", Outcome.FAILED) == 2
    assert report.count("recording", Outcome.DEFERRED) == 16
    assert len(warning_lines(judge_logs)) == 1


def test_other_judge_errors_do_not_open_the_circuit(store: Store, chdb_dsn: str) -> None:
    insert_requests(store, 6)

    def garbage(request: RagRequest) -> list[Score] | None:
        raise ValueError("unparseable verdict")

    scorer = RecordingScorer(behaviour=garbage)
    report = ScoringJob(settings_for(chdb_dsn, circuit_failures=1), store, [scorer]).run()

    assert len(scorer.calls) == 6
    assert report.count("recording", Outcome.FAILED) == 6


def refused(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("[Errno 111] Connection refused", request=request)


@pytest.mark.parametrize("down", [refused, timeout])
def test_score_once_with_the_judge_down_finishes_with_one_summary_line(
    store: Store,
    chdb_dsn: str,
    monkeypatch: pytest.MonkeyPatch,
    judge_logs: pytest.LogCaptureFixture,
    down: Callable[[httpx.Request], httpx.Response],
) -> None:
    insert_requests(store, 200, variants=("A", "B"))
    server = FakeOpenAI(down)
    settings = judge_settings(max_retries=4)

    def client(_: JudgeSettings, store: Store) -> JudgeClient:
        return JudgeClient(settings, store, http_client=server.http_client(), sleep=lambda _: None)

    monkeypatch.setattr(support, "shared_client", client)
    # An endpoint must be configured for `--scorer support` to start; the fake client above answers instead.
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    command = ["score", "--once", "--dsn", chdb_dsn, "--scorer", "support"]

    assert main(command) == 0
    assert len(server.requests) == 5  # one probe: the client's attempt and its four retries
    assert {row["Outcome"] for row in log_rows(store, "support")} == {"deferred"}
    assert len(log_rows(store, "support")) == 200
    assert len(warning_lines(judge_logs)) == 1

    assert main(command) == 0  # the next run probes once more, and logs nothing new
    assert len(server.requests) == 10
    assert len(log_rows(store, "support")) == 200
    assert len(warning_lines(judge_logs)) == 2
