"""One scoring tick against embedded chDB: selection, sampling, sharding, limits, failures, rescoring."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pipeline_testing import (
    SPAN_COLUMNS,
    RecordingScorer,
    insert_requests,
    log_rows,
    root_span,
    scored_traces,
    settings_for,
    trace_id,
)
from ragpulse_core.errors import StoreUnavailable
from ragpulse_core.sampling import SAMPLE_BUCKETS
from ragpulse_core.store import Store
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.errors import OverBudget
from ragpulse_scorers.pipeline.tick import run_tick
from ragpulse_scorers.scorer import NotApplicable


def sample_keys(store: Store) -> dict[str, int]:
    rows = store.query(f"SELECT DISTINCT TraceId, SampleKey FROM {store.table('ragpulse_requests')}")
    return {trace: key for trace, key in rows}


def test_settled_unscored_requests_are_scored_with_request_fields(store: Store, chdb_dsn: str) -> None:
    settled = insert_requests(store, 4, variants=("A", "B"))
    insert_requests(store, 2, prefix="fresh", age=timedelta(seconds=1))
    insert_requests(store, 2, prefix="ancient", age=timedelta(hours=30))
    scorer = RecordingScorer()

    report = run_tick(settings_for(chdb_dsn), store, [scorer])

    assert sorted(scorer.calls) == sorted(settled)
    assert report.count("recording", Outcome.SCORED) == 4
    assert scored_traces(store) == sorted(settled)
    row = store.query_dicts(
        f"SELECT * FROM {store.table('ragpulse_scores')} FINAL"
        " WHERE TraceId = {t:String} AND Metric = 'constant'",
        {"t": settled[1]},
    )[0]
    assert (row["ServiceName"], row["Pipeline"], row["Variant"]) == ("svc", "fusion", "B")
    assert (row["Scorer"], row["ScorerVersion"], row["Value"], row["Error"]) == ("recording", "1", 1.0, "")
    assert json.loads(row["Details"]) == {"variant": "B"}
    assert abs((row["ScoredAt"] - row["RequestTime"]).total_seconds() - 5 * 60) < 60
    assert {r["Outcome"] for r in log_rows(store)} == {"scored"}


def test_second_tick_scores_nothing_new(store: Store, chdb_dsn: str) -> None:
    insert_requests(store, 5)
    scorer = RecordingScorer()
    settings = settings_for(chdb_dsn)
    run_tick(settings, store, [scorer])

    again = run_tick(settings, store, [scorer])

    assert len(scorer.calls) == 5
    assert again.counts["recording"].total() == 0
    assert len(log_rows(store)) == 5


def test_request_recorded_twice_before_merge_is_scored_once(store: Store, chdb_dsn: str) -> None:
    span = root_span(trace_id("dup", 0))
    store.insert("otel_traces", [span], SPAN_COLUMNS)
    span[SPAN_COLUMNS.index("Duration")] += 1  # a re-delivered span is a new block, not deduplicated
    store.insert("otel_traces", [span], SPAN_COLUMNS)
    assert store.query(f"SELECT count() FROM {store.table('ragpulse_requests')}") == [(2,)]
    scorer = RecordingScorer()

    run_tick(settings_for(chdb_dsn), store, [scorer])

    assert scorer.calls == [trace_id("dup", 0)]
    assert store.query(f"SELECT count() FROM {store.table('ragpulse_scores')}") == [(2,)]


def test_sampling_keeps_the_same_requests_for_every_scorer_and_logs_the_rest_once(
    store: Store, chdb_dsn: str
) -> None:
    traces = insert_requests(store, 400, variants=("A", "B"))
    keys = sample_keys(store)
    expected = sorted(t for t in traces if keys[t] % SAMPLE_BUCKETS < 0.25 * SAMPLE_BUCKETS)
    first, second = RecordingScorer(name="first"), RecordingScorer(name="second")
    settings = settings_for(chdb_dsn, sample_rate=0.25)

    report = run_tick(settings, store, [first, second])
    run_tick(settings, store, [first, second])

    assert sorted(first.calls) == sorted(second.calls) == expected
    assert 60 <= len(expected) <= 140
    assert report.count("first", Outcome.SAMPLED_OUT) == 400 - len(expected)
    sampled_out = [r for r in log_rows(store, "first") if r["Outcome"] == "sampled_out"]
    assert len(sampled_out) == 400 - len(expected)
    assert "0.25" in sampled_out[0]["Reason"]

    raised = run_tick(settings_for(chdb_dsn, sample_rate=0.5), store, [first])
    newly = {t for t in traces if keys[t] % SAMPLE_BUCKETS < 0.5 * SAMPLE_BUCKETS} - set(expected)
    assert raised.count("first", Outcome.SCORED) == len(newly)


def test_shards_are_disjoint_and_cover_every_request(store: Store, chdb_dsn: str) -> None:
    traces = insert_requests(store, 120)
    keys = sample_keys(store)
    per_shard = []
    for index in range(3):
        scorer = RecordingScorer()
        run_tick(settings_for(chdb_dsn, shard=f"{index}/3"), store, [scorer])
        per_shard.append(set(scorer.calls))
        assert per_shard[-1] == {t for t in traces if keys[t] // SAMPLE_BUCKETS % 3 == index}

    assert all(per_shard)
    assert set().union(*per_shard) == set(traces)
    assert sum(len(shard) for shard in per_shard) == len(traces)


def test_variant_quota_and_tick_limit_throttle_the_rest_logged_once(store: Store, chdb_dsn: str) -> None:
    insert_requests(store, 20, prefix="a", variants=("A",))
    insert_requests(store, 6, prefix="b", variants=("B",), age=timedelta(minutes=10))
    settings = settings_for(chdb_dsn, per_variant_quota=5, per_tick_limit=8)
    scorer = RecordingScorer()

    first = run_tick(settings, store, [scorer])
    second = run_tick(settings, store, [scorer])

    # B is older, so it goes first: 5 of B, then 3 of A reach the tick limit.
    assert first.count("recording", Outcome.SCORED) == 8
    assert first.count("recording", Outcome.THROTTLED) == 18
    # Then the last B and A's quota of 5; the limit of 8 is not reached.
    assert second.count("recording", Outcome.SCORED) == 6
    assert second.count("recording", Outcome.THROTTLED) == 12
    variants = dict(
        store.query(
            f"SELECT Variant, count() FROM {store.table('ragpulse_scoring_log')}"
            " WHERE Outcome = 'scored' GROUP BY Variant"
        )
    )
    assert variants == {"A": 8, "B": 6}
    throttled = [r for r in log_rows(store) if r["Outcome"] == "throttled"]
    assert len(throttled) == len({r["TraceId"] for r in throttled}) == 18
    reasons = {r["Reason"] for r in throttled}
    assert reasons == {"variant quota of 5 per tick reached", "per-tick limit of 8 reached"}
    for _ in range(3):
        run_tick(settings, store, [scorer])
    assert len(scored_traces(store)) == 26


def test_rate_limit_throttles_beyond_max_per_minute(store: Store, chdb_dsn: str) -> None:
    insert_requests(store, 9)
    report = run_tick(settings_for(chdb_dsn, max_per_minute=4), store, [RecordingScorer()])

    assert report.count("recording", Outcome.SCORED) == 4
    assert {r["Reason"] for r in log_rows(store) if r["Outcome"] == "throttled"} == {
        "rate limit (max_per_minute) reached"
    }


def test_judge_exception_writes_error_row_and_failed_log_then_stops_after_max_attempts(
    store: Store, chdb_dsn: str
) -> None:
    traces = insert_requests(store, 4)
    broken = traces[2]

    def explode(request: RagRequest) -> list[Score] | None:
        if request.trace_id == broken:
            raise RuntimeError("judge returned garbage")
        return None

    scorer = RecordingScorer(behaviour=explode)
    settings = settings_for(chdb_dsn, max_attempts=2)

    report = run_tick(settings, store, [scorer])
    for _ in range(2):
        run_tick(settings, store, [scorer])

    assert report.count("recording", Outcome.SCORED) == 3
    assert report.count("recording", Outcome.FAILED) == 1
    errors = store.query_dicts(
        f"SELECT TraceId, Value, Error FROM {store.table('ragpulse_scores')} FINAL WHERE Metric = 'error'"
    )
    assert errors == [{"TraceId": broken, "Value": None, "Error": "RuntimeError: judge returned garbage"}]
    failed = [r for r in log_rows(store) if r["Outcome"] == "failed"]
    assert [r["TraceId"] for r in failed] == [broken, broken]
    assert scorer.calls.count(broken) == 2


def test_retry_that_succeeds_removes_the_error_row(store: Store, chdb_dsn: str) -> None:
    insert_requests(store, 1)
    attempts: list[str] = []

    def flaky(request: RagRequest) -> list[Score] | None:
        attempts.append(request.trace_id)
        if len(attempts) == 1:
            raise TimeoutError("judge timed out")
        return None

    scorer = RecordingScorer(behaviour=flaky)
    settings = settings_for(chdb_dsn)
    run_tick(settings, store, [scorer])
    run_tick(settings, store, [scorer])

    metrics = store.query(f"SELECT Metric FROM {store.table('ragpulse_scores')} FINAL ORDER BY Metric")
    assert metrics == [("answer_chars",), ("constant",)]
    assert [r["Outcome"] for r in log_rows(store)] == ["failed", "scored"]


def test_not_applicable_is_skipped_with_its_reason_and_not_retried(store: Store, chdb_dsn: str) -> None:
    insert_requests(store, 2)

    def no_reference(request: RagRequest) -> list[Score] | None:
        raise NotApplicable("request has no reference answer")

    scorer = RecordingScorer(behaviour=no_reference)
    run_tick(settings_for(chdb_dsn), store, [scorer])
    run_tick(settings_for(chdb_dsn), store, [scorer])

    assert len(scorer.calls) == 2
    assert {(r["Outcome"], r["Reason"]) for r in log_rows(store)} == {
        ("skipped", "request has no reference answer")
    }
    assert scored_traces(store) == []


@pytest.mark.parametrize(
    ("span", "reason"),
    [
        ({"context": "[{'id': 1"}, "Context is not valid JSON"),
        ({"context": '{"id": "not an array"}'}, "Context is not a JSON array"),
        ({"answer": "x" * 300_000}, "more than the"),
    ],
)
def test_unreadable_request_is_skipped_with_the_reason(
    store: Store, chdb_dsn: str, span: dict[str, str], reason: str
) -> None:
    (bad,) = insert_requests(store, 1, prefix="bad", **span)
    good = insert_requests(store, 2, prefix="good")
    scorer = RecordingScorer()

    report = run_tick(settings_for(chdb_dsn), store, [scorer])

    assert report.count("recording", Outcome.SKIPPED) == 1
    assert sorted(scorer.calls) == sorted(good)
    (skipped,) = [r for r in log_rows(store) if r["Outcome"] == "skipped"]
    assert skipped["TraceId"] == bad and reason in skipped["Reason"]


def test_non_utf8_text_is_skipped(store: Store, chdb_dsn: str) -> None:
    store.command(
        f"INSERT INTO {store.table('otel_traces')} (Timestamp, TraceId, SpanAttributes)"
        " SELECT now64(9) - 300, 'latin1', map('ragpulse.kind', 'rag', 'output.value', unhex('4361666CE9'))"
    )
    scorer = RecordingScorer()
    run_tick(settings_for(chdb_dsn), store, [scorer])

    assert scorer.calls == []
    assert [(r["Outcome"], r["Reason"]) for r in log_rows(store)] == [
        ("skipped", "request text is not valid UTF-8")
    ]


def test_required_fields_missing_are_skipped(store: Store, chdb_dsn: str) -> None:
    insert_requests(store, 1, answer="")
    scorer = RecordingScorer()
    scorer.requires = ("answer", "context")

    run_tick(settings_for(chdb_dsn), store, [scorer])

    assert scorer.calls == []
    assert [(r["Outcome"], r["Reason"].split(":")[0]) for r in log_rows(store)] == [("skipped", "no answer")]


def test_odd_scorer_results_fail_or_are_stored_safely(store: Store, chdb_dsn: str) -> None:
    traces = insert_requests(store, 3)
    results: dict[str, object] = {
        traces[0]: "not a list",
        traces[1]: [Score(metric="odd", value=float("nan"), input_tokens=-5, output_tokens=2**40)],
        traces[2]: [],
    }
    scorer = RecordingScorer(behaviour=lambda request: results[request.trace_id])  # type: ignore[arg-type,return-value]

    report = run_tick(settings_for(chdb_dsn), store, [scorer])

    assert (report.count("recording", Outcome.FAILED), report.count("recording", Outcome.SCORED)) == (1, 1)
    assert report.count("recording", Outcome.SKIPPED) == 1
    stored = store.query(
        f"SELECT Value, InputTokens, OutputTokens FROM {store.table('ragpulse_scores')} WHERE Metric = 'odd'"
    )
    assert stored == [(None, 0, 2**32 - 1)]


def test_new_scorer_version_rescores_and_replaces(store: Store, chdb_dsn: str) -> None:
    traces = insert_requests(store, 3)
    settings = settings_for(chdb_dsn)
    run_tick(settings, store, [RecordingScorer(version="1", value=1.0)])

    report = run_tick(settings, store, [RecordingScorer(version="2", value=2.0)])

    assert report.count("recording", Outcome.SCORED) == 3
    store.command(f"OPTIMIZE TABLE {store.table('ragpulse_scores')} FINAL")
    rows = store.query(
        f"SELECT TraceId, ScorerVersion, Value FROM {store.table('ragpulse_scores')}"
        " WHERE Metric = 'constant' ORDER BY TraceId"
    )
    assert rows == [(trace, "2", 2.0) for trace in sorted(traces)]


def test_over_budget_stops_judging_logs_once_and_resumes_next_tick(store: Store, chdb_dsn: str) -> None:
    insert_requests(store, 6)
    budget = {"left": 2}

    def spend(request: RagRequest) -> list[Score] | None:
        if budget["left"] == 0:
            raise OverBudget("daily judge budget of $1.00 spent")
        budget["left"] -= 1
        return None

    scorer = RecordingScorer(behaviour=spend)
    settings = settings_for(chdb_dsn, concurrency=1)

    first = run_tick(settings, store, [scorer])
    second = run_tick(settings, store, [scorer])
    budget["left"] = 10
    third = run_tick(settings, store, [scorer])

    assert (first.count("recording", Outcome.SCORED), first.count("recording", Outcome.OVER_BUDGET)) == (2, 4)
    assert len(scorer.calls) == 3 + 1 + 4  # the judge is not called again once it said the budget is spent
    assert second.count("recording", Outcome.OVER_BUDGET) == 4
    assert third.count("recording", Outcome.SCORED) == 4
    over = [r for r in log_rows(store) if r["Outcome"] == "over_budget"]
    assert len(over) == len({r["TraceId"] for r in over}) == 4


def test_unreachable_store_is_reported_not_raised(chdb_dsn: str) -> None:
    down = Store("http://127.0.0.1:9/ragpulse")
    report = run_tick(settings_for(chdb_dsn), down, [RecordingScorer()])

    assert "recording" in report.errors
    assert "stopped" in report.summary()


def test_tick_time_can_be_given(store: Store, chdb_dsn: str) -> None:
    insert_requests(store, 2, age=timedelta(seconds=10))
    scorer = RecordingScorer()

    early = run_tick(settings_for(chdb_dsn), store, [scorer], now=datetime.now(UTC))
    later = run_tick(settings_for(chdb_dsn), store, [scorer], now=datetime.now(UTC) + timedelta(minutes=2))

    assert (early.total(Outcome.SCORED), later.total(Outcome.SCORED)) == (0, 2)


@dataclass
class FreeRecordingScorer(RecordingScorer):
    free: bool = True


class _RefusingScores(Store):
    """A store that takes ``accepted`` batches of score rows, then is down for every later one."""

    def __init__(self, dsn: str, accepted: int) -> None:
        super().__init__(dsn)
        self.accepted = accepted

    def insert(self, table: str, rows: Any, column_names: Any, **options: Any) -> None:
        if table == "ragpulse_scores":
            if self.accepted == 0:
                raise StoreUnavailable("insert failed: the server went away")
            self.accepted -= 1
        super().insert(table, rows, column_names, **options)


def test_a_free_judges_write_that_fails_mid_turn_stops_it_and_the_next_tick_scores_the_rest_once(
    store: Store, chdb_dsn: str
) -> None:
    """A free judge's batches are written while the next is judged: a write the store refuses still stops the
    turn and is reported, the batch before it stays written, and what was judged but not written is judged
    again next tick, never scored twice."""
    traces = insert_requests(store, 8)
    settings = settings_for(chdb_dsn, batch_size=2, free={"write_rows": 6})  # a write per batch
    free = FreeRecordingScorer()

    first = run_tick(settings, _RefusingScores(chdb_dsn, accepted=1), [free])
    written = scored_traces(store)
    second = run_tick(settings, store, [free])

    assert "recording" in first.errors and "went away" in first.errors["recording"]
    assert len(written) == 2
    assert {r["TraceId"] for r in log_rows(store) if r["Outcome"] == "scored"} == set(traces)
    assert second.count("recording", Outcome.SCORED) == 6
    assert scored_traces(store) == sorted(traces)
    rows = store.query(
        f"SELECT TraceId, count() FROM {store.table('ragpulse_scores')} FINAL"
        " WHERE Metric = 'constant' GROUP BY TraceId HAVING count() > 1"
    )
    assert rows == []
