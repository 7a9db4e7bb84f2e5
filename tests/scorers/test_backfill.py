"""``score --rule NAME --since``: a rule over past requests, stopped and resumed, each request judged once."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from backfill_judges import JUDGED, STOP_AT
from pipeline_testing import (
    SPAN_COLUMNS,
    RecordingScorer,
    insert_requests,
    root_span,
    settings_for,
    trace_id,
)
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


def test_ctrl_c_stops_the_command_and_running_it_again_resumes(
    tmp_path: Path, migrated_copy: Callable[[Path], Path]
) -> None:
    """The command itself: SIGINT during a judgment ends the run cleanly (exit 0, saying how to resume),
    and the same command judges the rest; no request is judged twice."""
    here = Path(__file__).resolve().parent
    dsn = f"chdb://{migrated_copy(tmp_path / 'db')}"
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


def test_requests_at_slice_borders_are_judged_once_and_a_stop_mid_slice_resumes(
    store: Store, chdb_dsn: str
) -> None:
    """Slices of ~10 requests cut at hour starts: a request starting exactly on a border (read by both
    slices) and one that starts in a slice and ends in the next are each judged once, and a stop in the middle
    of a slice resumes there."""
    now = datetime.now(UTC)
    hours = [now.replace(minute=0, second=0, microsecond=0) - timedelta(hours=h) for h in range(30, 36)]
    rows, traces = [], []
    for n, hour in enumerate(hours):
        for i in range(8):
            trace = trace_id(f"h{n}", i)
            span = root_span(trace)
            span[0] = hour + timedelta(minutes=7 * i)
            if i == 7:
                span[8] = 3_600_000_000_000  # an hour long: it ends in the next slice
            rows.append(span)
            traces.append(trace)
        border = trace_id(f"border{n}", 0)
        on_border = root_span(border)
        on_border[0] = hour  # exactly at the hour start: a slice border
        rows.append(on_border)
        traces.append(border)
    store.insert("otel_traces", rows, SPAN_COLUMNS)
    stopping = threading.Event()

    def stop_mid_slice(request: RagRequest) -> list[Score] | None:
        if len(support.calls) == 14:
            stopping.set()
        return None

    support = RecordingScorer(name="support", behaviour=stop_mid_slice)
    settings = settings_for(chdb_dsn, concurrency=1)
    week = timedelta(days=7)
    first = Backfill(settings, store, RULE, week, [support], stopping=stopping, slice_requests=10)
    assert first.run().stopped and len(support.calls) == 14
    resumed = Backfill(settings, store, RULE, week, [support], slice_requests=10, sleep=lambda s: None).run()

    assert not resumed.stopped and resumed.counts["support"][Outcome.SCORED] == len(traces) - 14
    assert Counter(support.calls) == Counter(traces)  # every request once, borders and long ones included
