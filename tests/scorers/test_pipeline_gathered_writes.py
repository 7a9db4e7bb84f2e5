"""A free judge's writes gather judgments across batches: a write that fails part-way loses nothing accepted.

What a refused write held was judged but is not logged as done, so the next tick judges it again; what an
earlier write held stays written and is not judged again; no request ends up with two sets of scores.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from pipeline_testing import RecordingScorer, insert_requests, log_rows, scored_traces, settings_for
from ragpulse_core.errors import StoreUnavailable
from ragpulse_core.store import Store
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import run_tick


@dataclass
class FreeRecordingScorer(RecordingScorer):
    free: bool = True


class _RefusingTable(Store):
    """A store that takes ``accepted`` inserts into ``table``, then is down for every later one."""

    def __init__(self, dsn: str, table: str, accepted: int) -> None:
        super().__init__(dsn)
        self.table_refused = table
        self.accepted = accepted

    def insert(self, table: str, rows: Any, column_names: Any, **options: Any) -> None:
        if table == self.table_refused:
            if self.accepted == 0:
                raise StoreUnavailable("insert failed: the server went away")
            self.accepted -= 1
        super().insert(table, rows, column_names, **options)


def _scored_twice(store: Store) -> list[Any]:
    return store.query(
        f"SELECT TraceId, count() FROM {store.table('ragpulse_scores')} FINAL"
        " WHERE Metric = 'constant' GROUP BY TraceId HAVING count() > 1"
    )


@pytest.mark.parametrize("refused", ["ragpulse_scores", "ragpulse_scoring_log"])
def test_a_gathered_write_refused_after_a_partial_batch_is_judged_again_and_the_one_before_stays(
    store: Store, chdb_dsn: str, refused: str
) -> None:
    traces = insert_requests(store, 8)
    # Batches of 2 requests, 3 rows each (2 scores and the log row): a write of 9 rows holds one batch and
    # the first request of the next.
    settings = settings_for(chdb_dsn, batch_size=2, free={"write_rows": 9})
    free = FreeRecordingScorer()

    first = run_tick(settings, _RefusingTable(chdb_dsn, refused, accepted=1), [free])
    done_first = {r["TraceId"] for r in log_rows(store) if r["Outcome"] == "scored"}
    judged_first = len(free.calls)
    second = run_tick(settings, store, [free])

    assert "recording" in first.errors and "went away" in first.errors["recording"]
    assert len(done_first) == 3
    assert judged_first > 3  # the refused write's judgments were made, and are made again below
    assert second.count("recording", Outcome.SCORED) == 5
    assert done_first.isdisjoint(free.calls[judged_first:])
    assert scored_traces(store) == sorted(traces)
    assert {r["TraceId"] for r in log_rows(store) if r["Outcome"] == "scored"} == set(traces)
    assert _scored_twice(store) == []
