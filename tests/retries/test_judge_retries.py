"""An LLM judge whose calls are retried: a scoring worker killed (as by kill -9) while it retries a call the
judge answered with 429, then started again; a judge that times out once and answers the retry. Each request
ends scored once, with one score row per metric and one ``scored`` log line, and nothing left unscored."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCORERS_TESTS = HERE.parent / "scorers"
REQUESTS = 6
KILLED = 9

WORKER = r"""
import json, os, sys
from datetime import timedelta
from judge_testing import completion, error, judge_settings
from pipeline_testing import insert_requests, settings_for
from ragpulse_core.schema import migrate
from ragpulse_core.store import Store
from ragpulse_scorers.judges.correctness import CorrectnessScorer
from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.pipeline.tick import ScoringJob
import httpx

dsn, mode, requests = sys.argv[1], sys.argv[2], int(sys.argv[3])
store = Store(dsn)
migrate(store, 30)
calls = []


def judge(request):
    calls.append(json.loads(request.content))
    if mode == "killed" and len(calls) == 3:
        return error(429, "slow down", {"retry-after": "0"})
    if mode == "killed" and len(calls) == 4:
        os._exit(9)  # the retry of the third request's call is in flight
    if mode == "timeout-once" and len(calls) == 1:
        raise httpx.ReadTimeout("the judge took too long", request=request)
    return completion({"judgment": "Yes", "reasoning": "Same city."})


if mode != "restart":
    for i in range(requests):
        # Distinct answers: identical content would be judged once and served from the judge cache.
        insert_requests(store, 1, prefix=f"judged{i}", answer=f"Paris, answer {i}.", reference="Paris",
                        age=timedelta(minutes=10 - i))
client = JudgeClient(judge_settings(), store, httpx.Client(transport=httpx.MockTransport(judge)),
                     sleep=lambda _: None)
ScoringJob(settings_for(dsn, concurrency=1, scorers=["correctness"]), store, [CorrectnessScorer(client)],
           write_batch=1).run()
scores, log = store.table("ragpulse_scores"), store.table("ragpulse_scoring_log")
print(json.dumps({
    "calls": len(calls),
    "score_rows": dict(store.query(
        f"SELECT TraceId, count() FROM {scores} WHERE Error = '' GROUP BY TraceId")),
    "final_rows": dict(store.query(f"SELECT TraceId, count() FROM {scores} FINAL GROUP BY TraceId")),
    "tokens": dict(store.query(f"SELECT TraceId, sum(InputTokens) FROM {scores} FINAL GROUP BY TraceId")),
    "outcomes": dict(store.query(f"SELECT TraceId, groupArray(Outcome) FROM {log} GROUP BY TraceId")),
    "requests": sorted(row[0] for row in store.query(
        f"SELECT DISTINCT TraceId FROM {store.table('ragpulse_requests')}")),
}))
"""


def run_worker(dsn: str, mode: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(SCORERS_TESTS), os.environ.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-c", WORKER, dsn, mode, str(REQUESTS)],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": path}, timeout=120, check=False,
    )  # fmt: skip


def state_of(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert done.returncode == 0, done.stderr
    state: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return state


def test_worker_killed_while_retrying_a_rate_limited_judge_call_scores_each_request_once(
    tmp_path: Path, migrated_copy: Callable[[Path], Path]
) -> None:
    dsn = f"chdb://{migrated_copy(tmp_path / 'db')}"
    killed = run_worker(dsn, "killed")
    assert killed.returncode == KILLED, killed.stderr

    state = state_of(run_worker(dsn, "restart"))
    every = state["requests"]
    assert isinstance(every, list) and len(every) == REQUESTS
    # Two were scored before the kill; the restart judges the other four, each once.
    assert state["calls"] == REQUESTS - 2
    assert state["score_rows"] == dict.fromkeys(every, 1)
    assert state["final_rows"] == dict.fromkeys(every, 1)
    assert state["tokens"] == dict.fromkeys(every, 100)
    assert state["outcomes"] == {trace: ["scored"] for trace in every}


def test_a_judge_that_times_out_once_and_answers_the_retry_scores_the_request_once(
    tmp_path: Path, migrated_copy: Callable[[Path], Path]
) -> None:
    state = state_of(run_worker(f"chdb://{migrated_copy(tmp_path / 'db')}", "timeout-once"))
    every = state["requests"]
    assert isinstance(every, list) and len(every) == REQUESTS
    assert state["calls"] == REQUESTS + 1
    assert state["score_rows"] == dict.fromkeys(every, 1)
    assert state["final_rows"] == dict.fromkeys(every, 1)
    assert state["tokens"] == dict.fromkeys(every, 100)  # the timed-out attempt costs nothing recorded
    assert state["outcomes"] == {trace: ["scored"] for trace in every}
