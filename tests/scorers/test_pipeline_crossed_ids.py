"""Each request is judged on its own row and its own root span's attributes when ids cross between requests.

The reads bind the batch's trace ids and span ids as two flat sets, which also let through a span of one
candidate's trace that carries another candidate's span id; only a candidate's own (trace, span, start) may
reach its judge. Score rows' insert tokens tell batches apart by their key columns alone.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from pipeline_testing import SPAN_COLUMNS, root_span, settings_for, trace_id
from ragpulse import semconv
from ragpulse_core.store import Store
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import run_tick
from ragpulse_scorers.pipeline.writer import SCORE_COLUMNS, Judgment, RequestKey, ScoreWriter, _token

SUPPORTED = "Paris is the capital of France."
UNSUPPORTED = "Rome is the capital of Peru."


def _request(trace: str, span: str, age: timedelta, answer: str, guard: str | None) -> list[Any]:
    row = root_span(trace, age=age, answer=answer)
    row[2] = span
    if guard is not None:
        row[7] |= {semconv.GUARD_VERDICT: guard, semconv.GUARD_SCORE: "0.5"}
    return row


def test_a_span_pairing_one_requests_trace_with_anothers_span_id_reaches_no_judge(
    store: Store, chdb_dsn: str
) -> None:
    first, second = trace_id("crossed", 1), trace_id("crossed", 2)
    minutes = timedelta(minutes=5)
    rows = [
        # Two pending requests, each with a grounded answer and no guard verdict.
        _request(first, "a" * 16, minutes + timedelta(seconds=2), SUPPORTED, None),
        _request(second, "b" * 16, minutes, SUPPORTED, None),
        # Between them in time, in the first trace, a span with the second request's span id, an unsupported
        # answer and a guard's verdict: both flat id sets let it through, and it is no request of this batch.
        _request(first, "b" * 16, minutes + timedelta(seconds=1), UNSUPPORTED, "unsupported"),
    ]
    store.insert("otel_traces", rows, SPAN_COLUMNS)
    # The crossed span is a request of its own that was judged before: only the two above are pending.
    judged = Judgment(
        RequestKey(first, "b" * 16, rows[2][0], "svc", "", "A"), Outcome.SCORED, "judged before"
    )
    ScoreWriter(store, "lexical", LexicalScorer.version, "w").write([judged], datetime.now(UTC))

    report = run_tick(settings_for(chdb_dsn), store, [LexicalScorer()])

    assert report.count("lexical", Outcome.SCORED) == 2
    verdicts = store.query(
        f"SELECT TraceId, SpanId, Label, Details FROM {store.table('ragpulse_scores')}"
        " WHERE Metric = 'hallucination' ORDER BY TraceId"
    )
    assert sorted((trace, span, label) for trace, span, label, _ in verdicts) == sorted(
        [(first, "a" * 16, "grounded"), (second, "b" * 16, "grounded")]
    )
    assert not any('"guard"' in details for *_, details in verdicts)


def _score_row(trace: str, span: str, scored_at: datetime, metric: str) -> list[Any]:
    row: list[Any] = [""] * len(SCORE_COLUMNS)
    for name, value in (("TraceId", trace), ("SpanId", span), ("ScoredAt", scored_at), ("Metric", metric),
                        ("Scorer", "lexical"), ("ScorerVersion", "3"), ("Details", trace * 3)):  # fmt: skip
        row[SCORE_COLUMNS.index(name)] = value
    return row


_TIMES = [datetime(2026, 1, 1, tzinfo=UTC) + timedelta(microseconds=n) for n in range(3)]
_ROW = st.tuples(st.sampled_from(["t1", "t2"]), st.sampled_from(["s1", "s2"]), st.sampled_from(_TIMES),
                 st.sampled_from(["hallucination", "support"]))  # fmt: skip


def _tokens(first: list[tuple[Any, ...]], second: list[tuple[Any, ...]]) -> list[str]:
    return [_token("ragpulse_scores", [_score_row(*key) for key in keys], SCORE_COLUMNS)
            for keys in (first, second)]  # fmt: skip


@given(st.lists(_ROW, min_size=1, max_size=8), st.lists(_ROW, min_size=1, max_size=8))
def test_two_writes_share_an_insert_token_only_when_their_keys_are_the_same(
    first: list[tuple[Any, ...]], second: list[tuple[Any, ...]]
) -> None:
    """A retried write is dropped as a repeat; any other write never is."""
    tokens = _tokens(first, second)
    assert (tokens[0] == tokens[1]) == (first == second)


@given(st.lists(st.sampled_from(_TIMES[:2]), min_size=1, max_size=6), st.data())
def test_the_same_requests_judged_at_other_times_are_another_write(
    times: list[datetime], data: st.DataObject
) -> None:
    """Rows alike but for when they were judged (times are digested by their runs) are not a repeat."""
    others = data.draw(st.lists(st.sampled_from(_TIMES[:2]), min_size=len(times), max_size=len(times)))
    first, second = ([("t1", "s1", at, "support") for at in column] for column in (times, others))
    tokens = _tokens(first, second)
    assert (tokens[0] == tokens[1]) == (times == others)
