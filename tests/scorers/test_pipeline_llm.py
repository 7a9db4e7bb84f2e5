"""An LLM scorer inside a scoring tick, against a server that misbehaves: what lands in the tables."""

from __future__ import annotations

from datetime import timedelta

import pytest
from judge_testing import FakeOpenAI, completion, judge_settings, timeout
from pipeline_testing import insert_requests, log_rows, settings_for
from ragpulse_core.store import Store
from ragpulse_scorers.judges.correctness import CorrectnessScorer
from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import run_tick

GOOD = completion({"judgment": "Yes", "reasoning": "The prediction names the same city."})
GARBAGE = completion("Sure! The answer looks right to me.")


def test_garbage_and_timeouts_fail_one_request_each_and_a_spent_budget_defers_the_rest(
    store: Store, chdb_dsn: str
) -> None:
    # Distinct answers: identical content would be judged once and served from the cache after that.
    traces = [
        insert_requests(
            store,
            1,
            prefix=f"llm{i}",
            answer=f"Paris, answer {i}.",
            reference="Paris",
            age=timedelta(minutes=10 - i),
        )[0]
        for i in range(6)
    ]
    # In request order (concurrency 1, oldest first): good; garbage twice (the repair fails too);
    # three timeouts (two retries); good. Each answered call costs 100 + 20 tokens.
    server = FakeOpenAI(GOOD, GARBAGE, GARBAGE, timeout, timeout, timeout, GOOD)
    settings = settings_for(chdb_dsn, concurrency=1, scorers=["correctness"])
    judge = judge_settings(daily_budget_tokens=480)
    client = JudgeClient(judge, store, http_client=server.http_client(), sleep=lambda _: None)
    scorer = CorrectnessScorer(client)

    report = run_tick(settings, store, [scorer])

    assert report.count(scorer.name, Outcome.SCORED) == 2
    assert report.count(scorer.name, Outcome.FAILED) == 2
    assert report.count(scorer.name, Outcome.OVER_BUDGET) == 2
    assert len(server.requests) == 7  # nothing is sent once the 480 tokens are spent

    outcome = {row["TraceId"]: (row["Outcome"], row["Reason"]) for row in log_rows(store, scorer.name)}
    assert [outcome[trace][0] for trace in traces] == [
        "scored",
        "failed",
        "failed",
        "scored",
        "over_budget",
        "over_budget",
    ]
    assert "invalid after 1 repair" in outcome[traces[1]][1]
    assert "timed out 3 times" in outcome[traces[2]][1]

    rows = store.query_dicts(
        f"SELECT TraceId, Metric, Value, Error, InputTokens, OutputTokens, CostUSD, JudgeModel"
        f" FROM {store.table('ragpulse_scores')} FINAL WHERE Scorer = {{scorer:String}}",
        {"scorer": scorer.name},
    )
    by_trace = {row["TraceId"]: row for row in rows}
    assert set(by_trace) == set(traces[:4])  # deferred requests have no row yet
    assert by_trace[traces[0]]["Value"] == 1.0
    assert (by_trace[traces[0]]["InputTokens"], by_trace[traces[0]]["OutputTokens"]) == (100, 20)
    assert by_trace[traces[0]]["CostUSD"] == pytest.approx(100 / 1e6 + 20 * 2 / 1e6)
    assert by_trace[traces[1]]["Value"] is None
    assert by_trace[traces[1]]["Metric"] == "error"
    assert "invalid after 1 repair" in by_trace[traces[1]]["Error"]
