"""``score --rule NAME --since``: a rule over past requests, stopped and resumed, each request judged once."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
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
    stopping = threading.Event()

    def stop_after_50(request: RagRequest) -> list[Score] | None:
        if len(support.calls) == 50:
            stopping.set()  # what Ctrl-C does: the judgments under way end, nothing new starts
        return None

    support = RecordingScorer(name="support", behaviour=stop_after_50)
    settings = settings_for(chdb_dsn, concurrency=1)
    seen: Counter[Outcome] = Counter()

    first = Backfill(
        settings, store, RULE, timedelta(days=7), [support], stopping=stopping, sleep=lambda s: None
    )
    stopped = first.run(lambda scorer, outcome: seen.update([outcome]))

    assert stopped.stopped
    assert len(support.calls) == 50
    resumed = Backfill(settings, store, RULE, timedelta(days=7), [support], sleep=lambda s: None).run()

    assert not resumed.stopped and resumed.waiting == 0
    assert Counter(support.calls) == Counter(traces)  # every request of the rule, each once
    assert resumed.counts["support"][Outcome.SCORED] == len(traces) - 50
    assert seen[Outcome.SCORED] == 50
    # The live scheduler finds nothing left of what the backfill judged (the log is one ledger).
    live = run_tick(settings_for(chdb_dsn, sample_rate=1.0), store, [support])
    assert live.count("support", Outcome.SCORED) == 5  # only the other service's requests
    assert len(support.calls) == len(traces) + 5


def test_a_backfill_respects_the_rules_budget_and_says_what_waits(store: Store, chdb_dsn: str) -> None:
    past_requests(store)
    budgeted = RULE.model_copy(update={"daily_budget_calls": 30})
    support = RecordingScorer(name="support")

    result = Backfill(
        settings_for(chdb_dsn), store, budgeted, timedelta(days=7), [support], sleep=lambda s: None
    ).run()

    assert len(support.calls) == 30
    assert result.counts["support"][Outcome.OVER_BUDGET] == 90
    again = Backfill(settings_for(chdb_dsn), store, budgeted, timedelta(days=7), [support]).run()
    assert len(support.calls) == 30 and again.counts["support"][Outcome.SCORED] == 0


def test_an_unknown_rule_is_named_with_the_known_ones(tmp_path: Path) -> None:
    settings = ScorersSettings(rules=[RULE])
    assert find_rule(settings, "all-support") == RULE
    with pytest.raises(UnknownRule, match=r"no rule named 'nope'.*all-support"):
        find_rule(settings, "nope")
