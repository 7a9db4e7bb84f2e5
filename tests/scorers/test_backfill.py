"""``score --rule NAME --since``: a rule over past requests, stopped and resumed, each request judged once."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from backfill_judges import JUDGED, STOP_AT
from pipeline_testing import RecordingScorer, insert_requests, settings_for
from ragpulse_core.store import Store
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.backfill import Backfill, UnknownRule, find_rule
from ragpulse_scorers.pipeline.tick import run_tick
from ragpulse_scorers.rules.model import Rule
from ragpulse_scorers.settings import ScorersSettings

RULE = Rule(name="all-support", judges=["support"], match={"service": "svc"}, sample_rate=1.0)


def past_requests(store: Store) -> list[str]:
    """Three days of requests, a batch a day, and one of another service the rule does not match."""
    traces = [
        trace
        for day in range(3)
        for trace in insert_requests(store, 40, prefix=f"day{day}", age=timedelta(days=day, hours=1))
    ]
    insert_requests(store, 5, prefix="elsewhere", service="other", age=timedelta(hours=2))
    return traces


def test_a_stopped_backfill_resumes_and_judges_each_request_once(store: Store, chdb_dsn: str) -> None:
    traces = past_requests(store)
    older, recent = traces[40:], traces[:40]  # the last 24 hours (scorer.lookback_hours) are the scheduler's
    stopping = threading.Event()

    def stop_after_30(request: RagRequest) -> list[Score] | None:
        if len(support.calls) == 30:
            stopping.set()  # what Ctrl-C does: the judgments under way end, nothing new starts
        return None

    support = RecordingScorer(name="support", behaviour=stop_after_30)
    settings = settings_for(chdb_dsn, concurrency=1)
    seen: Counter[Outcome] = Counter()

    week = timedelta(days=7)
    first = Backfill(settings, store, RULE, week, [support], stopping=stopping, sleep=lambda s: None)
    stopped = first.run(lambda scorer, outcome: seen.update([outcome]))

    assert stopped.stopped
    assert len(support.calls) == 30
    resumed = Backfill(settings, store, RULE, timedelta(days=7), [support], sleep=lambda s: None).run()

    assert not resumed.stopped and resumed.waiting == 0
    assert Counter(support.calls) == Counter(older)  # every older request of the rule, each once
    assert resumed.counts["support"][Outcome.SCORED] == len(older) - 30
    assert seen[Outcome.SCORED] == 30
    # The live scheduler takes the last 24 hours, and finds nothing the backfill judged (one ledger).
    live = run_tick(settings_for(chdb_dsn, sample_rate=1.0), store, [support])
    assert live.count("support", Outcome.SCORED) == len(recent) + 5  # and the other service's requests
    assert len(set(support.calls) - set(traces)) == 5
    assert all(count == 1 for count in Counter(support.calls).values())


def test_a_backfill_respects_the_rules_budget_and_says_what_waits(store: Store, chdb_dsn: str) -> None:
    past_requests(store)
    budgeted = RULE.model_copy(update={"daily_budget_calls": 30})
    support = RecordingScorer(name="support")

    result = Backfill(
        settings_for(chdb_dsn), store, budgeted, timedelta(days=7), [support], sleep=lambda s: None
    ).run()

    assert len(support.calls) == 30
    assert result.counts["support"][Outcome.OVER_BUDGET] == 50  # of the 80 older than a day
    again = Backfill(settings_for(chdb_dsn), store, budgeted, timedelta(days=7), [support]).run()
    assert len(support.calls) == 30 and again.counts["support"][Outcome.SCORED] == 0


def test_an_unknown_rule_is_named_with_the_known_ones(tmp_path: Path) -> None:
    settings = ScorersSettings(rules=[RULE])
    assert find_rule(settings, "all-support") == RULE
    with pytest.raises(UnknownRule, match=r"no rule named 'nope'.*all-support"):
        find_rule(settings, "nope")


def test_ctrl_c_stops_the_command_and_running_it_again_resumes(tmp_path: Path) -> None:
    """The command itself: SIGINT during a judgment ends the run cleanly (exit 0, saying how to resume),
    and the same command judges the rest; no request is judged twice."""
    here = Path(__file__).resolve().parent
    dsn = f"chdb://{tmp_path / 'db'}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(here), os.environ.get("PYTHONPATH", "")])}
    prepare = (
        "from datetime import timedelta\n"
        "from ragpulse_core.schema import migrate\n"
        "from ragpulse_core.store import Store\n"
        "from pipeline_testing import insert_requests\n"
        f"store = Store({dsn!r}); migrate(store, 30)\n"
        "for day in range(3):\n"
        "    insert_requests(store, 100, prefix=f'day{day}', age=timedelta(days=day + 1, hours=1))\n"
        "insert_requests(store, 10, prefix='elsewhere', service='other', age=timedelta(hours=2))\n"
        "store.close()\n"
    )
    subprocess.run([sys.executable, "-c", prepare], env=env, check=True, timeout=120)
    config = tmp_path / "ragpulse.toml"
    config.write_text(
        '[scorer]\nconcurrency = 1\n\n[[rules]]\nname = "svc"\nmatch = { service = "svc" }\n'
        'judges = ["backfill_judges:build"]\n',
        encoding="utf-8",
    )
    judged = tmp_path / "judged.txt"
    command = [sys.executable, "-m", "ragpulse_core.cli", "score", "--rule", "svc", "--since", "7d"]
    command += ["--config", str(config), "--dsn", dsn]

    def run(stop_at: int) -> subprocess.CompletedProcess[str]:
        extra = {JUDGED: str(judged), STOP_AT: str(stop_at), "COLUMNS": "200"}
        return subprocess.run(command, env=env | extra, capture_output=True, text=True, timeout=300)

    stopped = run(stop_at=40)
    assert stopped.returncode == 0, stopped.stderr
    assert "run the same command again to resume" in stopped.stdout
    assert "Traceback" not in stopped.stdout + stopped.stderr
    first = judged.read_text().split()
    assert len(first) == 40

    resumed = run(stop_at=0)
    assert resumed.returncode == 0, resumed.stderr
    assert "resume" not in resumed.stdout
    every = judged.read_text().split()
    assert len(every) == len(set(every)) == 300  # each of the rule's requests once, the other service never
