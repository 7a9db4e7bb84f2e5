"""A scoring worker killed mid-tick and started again leaves no duplicate and no lost score.

Each run is a fresh process with its own chDB path (a process holds one path for life), killed with
``os._exit`` so nothing is flushed or cleaned up, exactly as after SIGKILL.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REQUESTS = 20
KILLED = 9

WORKER = r"""
import json, os, sys, time
from pipeline_testing import RecordingScorer, insert_requests, settings_for
from ragpulse_core.schema import migrate
from ragpulse_core.store import Store
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import ScoringJob

dsn, mode, k = sys.argv[1], sys.argv[2], int(sys.argv[3])


class StoreKilledAfterScores(Store):
    # Dies right after the k-th scores insert, before the log rows that mark those requests done.
    inserts = 0

    def insert(self, table, rows, column_names, **options):
        super().insert(table, rows, column_names, **options)
        if table == "ragpulse_scores":
            StoreKilledAfterScores.inserts += 1
            if StoreKilledAfterScores.inserts == k:
                os._exit(9)


def killing_judge(request):
    # Judge k requests (a multiple of write_batch), wait until they are written, then die mid-judgment.
    if len(scorer.calls) <= k:
        return None
    log = store.table("ragpulse_scoring_log")
    for _ in range(3000):
        if store.query(f"SELECT count() FROM {log} WHERE Outcome = 'scored'")[0][0] >= k:
            os._exit(9)
        time.sleep(0.01)
    os._exit(3)


store = (StoreKilledAfterScores if mode == "kill-between-writes" else Store)(dsn)
migrate(store, 30)
scorer = RecordingScorer(behaviour=killing_judge if mode == "kill-in-judge" else None)
settings = settings_for(dsn, concurrency=2)
if mode != "restart":
    insert_requests(store, int(sys.argv[4]))
    ScoringJob(settings, store, [scorer], write_batch=3).run()
    sys.exit(0)

def traces_with(sql):
    return sorted(row[0] for row in store.query(sql))

log, scores = store.table("ragpulse_scoring_log"), store.table("ragpulse_scores")
before = {
    "scored_logged": traces_with(f"SELECT TraceId FROM {log} WHERE Outcome = 'scored'"),
    "with_scores": traces_with(f"SELECT DISTINCT TraceId FROM {scores}"),
}
report = ScoringJob(settings, store, [scorer], write_batch=3).run()
store.command(f"OPTIMIZE TABLE {store.table('ragpulse_scores')} FINAL")
print(json.dumps({
    "before": before,
    "rescored": sorted(scorer.calls),
    "scored_now": report.count("recording", Outcome.SCORED),
    "rows_per_trace_final": dict(store.query(
        f"SELECT TraceId, count() FROM {store.table('ragpulse_scores')} FINAL GROUP BY TraceId")),
    "rows_per_trace": dict(store.query(
        f"SELECT TraceId, count() FROM {store.table('ragpulse_scores')} GROUP BY TraceId")),
    "outcomes_per_trace": dict(store.query(
        f"SELECT TraceId, groupArray(Outcome) FROM {store.table('ragpulse_scoring_log')} GROUP BY TraceId")),
    "requests": traces_with(f"SELECT DISTINCT TraceId FROM {store.table('ragpulse_requests')}"),
}))
"""


def run_worker(dsn: str, mode: str, k: int = 0) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-c", WORKER, dsn, mode, str(k), str(REQUESTS)],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "k"), [("kill-in-judge", 6), ("kill-between-writes", 2)])
def test_killed_worker_restarts_without_duplicates_or_lost_scores(
    tmp_path: Path, migrated_copy: Callable[[Path], Path], mode: str, k: int
) -> None:
    dsn = f"chdb://{migrated_copy(tmp_path / 'db')}"

    killed = run_worker(dsn, mode, k)
    assert killed.returncode == KILLED, killed.stderr
    restarted = run_worker(dsn, "restart")
    assert restarted.returncode == 0, restarted.stderr
    state = json.loads(restarted.stdout.strip().splitlines()[-1])

    before = state["before"]
    assert 0 < len(before["scored_logged"]) < REQUESTS, "the kill must land mid-tick"
    if mode == "kill-between-writes":
        assert len(before["with_scores"]) > len(before["scored_logged"]), "scores written without log rows"
    # Exactly the requests the first run had not marked done are judged again, and then every one is done.
    assert state["rescored"] == sorted(set(state["requests"]) - set(before["scored_logged"]))
    assert state["scored_now"] == REQUESTS - len(before["scored_logged"])
    assert state["rows_per_trace_final"] == dict.fromkeys(state["requests"], 2)
    assert state["rows_per_trace"] == dict.fromkeys(state["requests"], 2)
    assert state["outcomes_per_trace"] == {trace: ["scored"] for trace in state["requests"]}
