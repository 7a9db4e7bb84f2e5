"""A backfill ends: each request walked once per rule, finished slices not walked again, and a ``--since``
within the scheduler's lookback does the work (issue 37 case 7, issue 42 item 4)."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pipeline_testing import RecordingScorer, insert_requests, settings_for
from ragpulse_core.cli import main
from ragpulse_core.store import Store
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.backfill import Backfill
from ragpulse_scorers.pipeline.tick import run_tick
from ragpulse_scorers.rules.model import Rule

FEW = Rule(name="few", judges=["support"], match={"service": "rare"}, sample_rate=1.0)


def test_a_rule_including_few_requests_walks_the_others_once_and_ends(store: Store, chdb_dsn: str) -> None:
    """R included 2 of 344 requests; the backfill re-decided the others for 11 minutes ("1364690/344")."""
    old = timedelta(days=2)
    insert_requests(store, 60, prefix="common", age=old)
    rare = insert_requests(store, 2, prefix="rare", service="rare", age=old)
    support = RecordingScorer(name="support")
    # The scheduler's rules (another rule set) once sampled these requests out, as a live config does.
    other = settings_for(chdb_dsn, sample_rate=1.0, lookback_hours=24 * 7)
    other.rules = [Rule(name="none", judges=["support"], match={"service": "nothing"}, sample_rate=1.0)]
    run_tick(other, store, [support])
    assert support.calls == []
    walked: Counter[Outcome] = Counter()
    finished: list[object] = []
    backfill = Backfill(
        settings_for(chdb_dsn), store, FEW, timedelta(days=7), [support], sleep=lambda s: None
    )
    worker = threading.Thread(
        target=lambda: finished.append(backfill.run(lambda scorer, outcome: walked.update([outcome]))),
        daemon=True,
    )
    worker.start()
    worker.join(120)
    assert finished, "the backfill did not end"
    assert sorted(support.calls) == sorted(rare)
    assert walked[Outcome.SCORED] == 2 and walked[Outcome.SAMPLED_OUT] == 60  # each request once


def test_running_a_finished_backfill_again_walks_no_slice(store: Store, chdb_dsn: str) -> None:
    for day in range(2, 5):
        insert_requests(store, 10, prefix=f"day{day}", service="rare", age=timedelta(days=day))
    support = RecordingScorer(name="support")
    settings = settings_for(chdb_dsn)
    first = Backfill(settings, store, FEW, timedelta(days=7), [support], slice_requests=10).run()
    assert first.slices >= 3 and len(support.calls) == 30 and first.resumed_from is None
    again = Backfill(settings, store, FEW, timedelta(days=7), [support], slice_requests=10).run()
    # It starts where the first run ended (24 h ago, the scheduler's lookback): only the moments since.
    assert again.resumed_from is not None and again.resumed_from > datetime.now(UTC) - timedelta(hours=25)
    assert again.slices <= 1 and len(support.calls) == 30
    changed = FEW.model_copy(update={"sample_rate": 0.99})  # another rule: its own walk
    anew = Backfill(settings, store, changed, timedelta(days=7), [support], slice_requests=10).run()
    assert anew.slices >= 3


def test_since_within_the_lookback_backfills_those_requests(
    store: Store, chdb_dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`score --rule X --since 2h` said "from 2 h to 24 h ago" and did nothing."""
    insert_requests(store, 4, prefix="recent", service="rare", age=timedelta(minutes=30))
    config = tmp_path / "ragpulse.toml"
    config.write_text(
        '[[rules]]\nname = "few"\nmatch = { service = "rare" }\njudges = ["lexical"]\n', encoding="utf-8"
    )
    assert main(["score", "--rule", "few", "--since", "2h", "--config", str(config), "--dsn", chdb_dsn]) == 0
    out = capsys.readouterr().out
    assert "to 24 h ago" not in out and "last 2 h" in out
    judged = store.query(
        f"SELECT uniqExact(TraceId) FROM {store.table('ragpulse_scoring_log')} WHERE Outcome = 'scored'"
        " AND LoggedAt >= {since:DateTime64(6)}",
        {"since": datetime.now(UTC).replace(tzinfo=None) - timedelta(hours=1)},
    )
    assert judged[0][0] == 4
