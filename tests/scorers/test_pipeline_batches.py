"""A tick reads, judges and writes in batches: a free judge clears a backlog in one tick, by a deadline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pipeline_testing import RecordingScorer, insert_requests, log_rows, scored_traces, settings_for
from ragpulse_core.store import Store
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import ScoringJob, run_tick


class CountingStore(Store):
    """Records the size of every insert, per table."""

    def __init__(self, dsn: str) -> None:
        super().__init__(dsn)
        self.inserts: dict[str, list[int]] = {}

    def insert(
        self, table: str, rows: Sequence[Sequence[Any]], column_names: Sequence[str], **options: Any
    ) -> None:
        self.inserts.setdefault(table, []).append(len(rows))
        super().insert(table, rows, column_names, **options)


def test_a_free_judge_clears_a_backlog_of_several_batches_in_one_tick(store: Store, chdb_dsn: str) -> None:
    traces = insert_requests(store, 23, variants=("A", "B"))
    scorer = RecordingScorer()
    scorer.free = True  # type: ignore[attr-defined]
    counting = CountingStore(chdb_dsn)

    # Each request takes 3 rows (2 scores and its log row): writes gather two batches of 5, at most 30 rows.
    settings = settings_for(chdb_dsn, batch_size=5, free={"write_rows": 30})
    report = run_tick(settings, counting, [scorer])

    assert report.count("recording", Outcome.SCORED) == 23
    assert sorted(scorer.calls) == sorted(traces)  # each judged once, none left pending
    assert scored_traces(store) == sorted(traces)
    # The last batch's own write holds it alone: what was gathered before went out while it was judged.
    assert counting.inserts["ragpulse_scoring_log"] == [10, 10, 3]
    assert counting.inserts["ragpulse_scores"] == [20, 20, 6]
    assert run_tick(settings, store, [scorer]).counts["recording"].total() == 0


def test_a_free_judge_writes_a_backlog_within_its_row_bound_at_once_but_its_last_batch(
    store: Store, chdb_dsn: str
) -> None:
    traces = insert_requests(store, 23)
    scorer = RecordingScorer()
    scorer.free = True  # type: ignore[attr-defined]
    counting = CountingStore(chdb_dsn)

    run_tick(settings_for(chdb_dsn, batch_size=5), counting, [scorer])

    assert scored_traces(store) == sorted(traces)
    assert counting.inserts["ragpulse_scoring_log"] == [20, 3]


def test_a_paid_judge_writes_each_batch_before_it_judges_the_next(store: Store, chdb_dsn: str) -> None:
    insert_requests(store, 7)
    counting = CountingStore(chdb_dsn)

    run_tick(settings_for(chdb_dsn, batch_size=3, free={"write_rows": 1000}), counting, [RecordingScorer()])

    assert counting.inserts["ragpulse_scoring_log"] == [3, 3, 1]


def test_the_lexical_judge_is_not_held_to_a_paid_judges_limits_by_default(
    store: Store, chdb_dsn: str
) -> None:
    insert_requests(store, 260, variants=("A",))
    paid = settings_for(chdb_dsn)
    assert paid.scorer.per_variant_quota < 260  # a paid judge would throttle this backlog

    report = run_tick(paid, store, [LexicalScorer()])

    assert report.count("lexical", Outcome.SCORED) == 260
    assert report.count("lexical", Outcome.THROTTLED) == 0


def test_batches_of_throttled_requests_are_not_read_twice_in_a_tick(store: Store, chdb_dsn: str) -> None:
    insert_requests(store, 20, variants=("A",))
    settings = settings_for(chdb_dsn, batch_size=3, per_tick_limit=4, per_variant_quota=4)

    report = run_tick(settings, store, [RecordingScorer()])

    # A window of 4x the limit is read, in batches of 3, each candidate once; the last 4 wait unread.
    assert report.count("recording", Outcome.SCORED) == 4
    assert report.count("recording", Outcome.THROTTLED) == 12
    rows = log_rows(store)
    assert len(rows) == len({row["TraceId"] for row in rows}) == 16


def test_the_deadline_leaves_the_rest_for_the_next_tick_unlogged(store: Store, chdb_dsn: str) -> None:
    traces = insert_requests(store, 10)
    clock = [0.0]

    def slow(request: RagRequest) -> list[Score] | None:
        clock[0] += 1.0  # each judgment takes a second of the tick's clock
        return None

    scorer = RecordingScorer(behaviour=slow)
    settings = settings_for(chdb_dsn, tick_deadline_s=4, concurrency=1, batch_size=3)
    job = ScoringJob(settings, store, [scorer], clock=lambda: clock[0])

    first = job.run()

    assert first.count("recording", Outcome.SCORED) == 4
    assert len(log_rows(store)) == 4  # the others are not logged as anything: they simply wait
    second = job.run()
    third = job.run()
    assert [second.count("recording", Outcome.SCORED), third.count("recording", Outcome.SCORED)] == [4, 2]
    assert sorted(scorer.calls) == sorted(traces)  # each judged once
