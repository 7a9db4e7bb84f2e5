"""End-user feedback spans are untrusted: one bad span costs that span, never the tick (issue 37, cases 1, 3
and 4)."""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pipeline_testing import SPAN_COLUMNS, RecordingScorer, root_span, scored_traces, settings_for
from ragpulse_core.store import Store
from ragpulse_core.untrusted import Refused
from ragpulse_dashboards.report.queries import scoring_health
from ragpulse_scorers.labels.feedback import COMMENT_CHARS, FeedbackSpan, parse_feedback
from ragpulse_scorers.labels.store import read_labels
from ragpulse_scorers.pipeline.tick import ScoringJob
from ragpulse_scorers.refused import QUARANTINED_FEEDBACK, counts


def feedback_span(
    about: str,
    *,
    score: str = "0.0",
    service: str = "svc",
    request_time_us: str = "",
    comment: str = "",
    span_id: str = "",
    age: timedelta = timedelta(minutes=1),
) -> list[Any]:
    attributes = {
        "ragpulse.kind": "feedback",
        "ragpulse.feedback.trace_id": about,
        "ragpulse.feedback.span_id": span_id,
        "ragpulse.feedback.score": score,
    }
    if request_time_us:
        attributes["ragpulse.feedback.request_time_us"] = request_time_us
    if comment:
        attributes["ragpulse.feedback.comment"] = comment
    own = uuid.uuid4().hex
    start = datetime.now(UTC) - age
    return [start, own, own[:16], "", "ragpulse.feedback", "Internal", service, attributes, 1000, "Unset"]


def requests(store: Store, count: int, service: str = "svc") -> list[str]:
    traces = [uuid.uuid4().hex for _ in range(count)]
    store.insert("otel_traces", [root_span(trace, service=service) for trace in traces], SPAN_COLUMNS)
    return traces


def job(store: Store, dsn: str, scorer: RecordingScorer) -> ScoringJob:
    return ScoringJob(settings_for(dsn, sample_rate=1.0), store, [scorer])


def test_a_superscript_request_time_costs_that_span_not_the_tick(
    store: Store, chdb_dsn: str, caplog: pytest.LogCaptureFixture
) -> None:
    """'²' passes str.isdigit() and failed int(): every tick raised for a day and nothing was scored."""
    traces = requests(store, 3)
    store.insert(
        "otel_traces",
        [feedback_span(traces[0], request_time_us="²"), feedback_span(traces[1], score="1")],
        SPAN_COLUMNS,
    )
    scorer = RecordingScorer()
    with caplog.at_level(logging.WARNING):
        report = job(store, chdb_dsn, scorer).run()
    assert report.errors == {}
    assert sorted(scored_traces(store)) == sorted(traces)
    assert [label.trace_id for label in read_labels(store, source="user")] == [traces[1]]
    assert counts(store, datetime.now(UTC) - timedelta(hours=1)) == {"feedback": 1}
    since_ms = int((datetime.now(UTC) - timedelta(hours=1)).timestamp() * 1000)
    assert scoring_health(store, {"since_ms": since_ms, "service": ""}, 3).refused == {"feedback": 1}
    refused_lines = [r for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused_lines) == 1 and "request_time_us" in refused_lines[0].getMessage()


def test_a_refused_span_is_logged_once_across_ticks_and_restarts(
    store: Store, chdb_dsn: str, caplog: pytest.LogCaptureFixture
) -> None:
    """5,000 out-of-range feedback spans were logged again on every tick for 24 hours."""
    traces = requests(store, 1)
    store.insert("otel_traces", [feedback_span(traces[0], score="7") for _ in range(300)], SPAN_COLUMNS)
    first = job(store, chdb_dsn, RecordingScorer())
    with caplog.at_level(logging.WARNING):
        reports = [first.run(), first.run(), job(store, chdb_dsn, RecordingScorer()).run()]
    assert [report.errors for report in reports] == [{}, {}, {}]
    refused_lines = [r for r in caplog.records if "refused" in r.getMessage()]
    assert 1 <= len(refused_lines) <= 21  # the first minute's budget, once: not 300 lines a tick
    assert counts(store, datetime.now(UTC) - timedelta(hours=1)) == {"feedback": 300}


def test_feedback_already_labelled_is_not_written_again_after_merges(store: Store, chdb_dsn: str) -> None:
    """Labels read without FINAL: 20,000 feedback spans of one user on one trace were rewritten every tick."""
    traces = requests(store, 1)
    spans = [
        feedback_span(traces[0], score=str(index % 2), age=timedelta(seconds=200 - index))
        for index in range(200)
    ]
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    scoring = job(store, chdb_dsn, RecordingScorer())
    assert scoring.run().feedback == 1  # one user's newest word on one request: one label
    store.command(f"OPTIMIZE TABLE {store.table('ragpulse_labels')} FINAL")
    assert scoring.run().feedback == 0
    assert job(store, chdb_dsn, RecordingScorer()).run().feedback == 0
    [label] = read_labels(store, source="user")
    assert label.score == 1.0  # the newest span (index 199) said 1


def test_feedback_from_another_service_is_quarantined_not_a_label(store: Store, chdb_dsn: str) -> None:
    """Any sender of OTLP could label any service's requests as end-user feedback under the victim's user."""
    [victim] = requests(store, 1, service="bank")
    store.insert(
        "otel_traces",
        [feedback_span(victim, score="0", service="intruder", comment="this answer is wrong")],
        SPAN_COLUMNS,
    )
    report = job(store, chdb_dsn, RecordingScorer()).run()
    assert report.feedback == 0 and report.refused == 1
    assert read_labels(store, source="user") == []
    assert counts(store, datetime.now(UTC) - timedelta(hours=1)) == {QUARANTINED_FEEDBACK: 1}
    [kept] = store.query_dicts(f"SELECT ServiceName, Detail FROM {store.table('ragpulse_refused')}")
    assert kept["ServiceName"] == "intruder" and "this answer is wrong" in kept["Detail"]


def test_hostile_ids_are_logged_printable_and_comments_are_capped(
    store: Store, chdb_dsn: str, caplog: pytest.LogCaptureFixture
) -> None:
    traces = requests(store, 1)
    hostile = "\x1b]0;owned\x07\n2026-01-01 CRITICAL forged line\x1b[2J"
    store.insert(
        "otel_traces",
        [feedback_span(hostile), feedback_span(traces[0], comment="\x1b[31m" + "x" * (1 << 20))],
        SPAN_COLUMNS,
    )
    with caplog.at_level(logging.WARNING):
        job(store, chdb_dsn, RecordingScorer()).run()
    messages = [record.getMessage() for record in caplog.records]
    assert any("owned" in message for message in messages)  # the id is named, printably
    assert not any("\x1b" in message or "\n" in message or "\x07" in message for message in messages)
    [label] = read_labels(store, source="user")
    assert len(label.note) <= COMMENT_CHARS and "\x1b" not in label.note


ATTRIBUTE_VALUES = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["²", "٣", "NaN", "inf", "-0", "1e309", "9" * 400, "0x10", " 1 ", "[1]", '{"a":1}', "١"]),
    st.integers(-(2**70), 2**70).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)


@settings(max_examples=300, deadline=None)
@given(
    trace=st.one_of(st.just("ab" * 16), ATTRIBUTE_VALUES),
    span=st.one_of(st.just(""), st.just("cd" * 8), ATTRIBUTE_VALUES),
    micros=st.one_of(st.just(""), ATTRIBUTE_VALUES),
    score=ATTRIBUTE_VALUES,
    comment=st.text(max_size=50),
)
@example(trace="ab" * 16, span="", micros="²", score="0", comment="")
@example(trace="ab" * 16, span="", micros="1", score="nan", comment="")
@example(trace="ab" * 16, span="", micros="9" * 400, score="1", comment="")
def test_a_feedback_span_is_feedback_or_a_reason(
    trace: str, span: str, micros: str, score: str, comment: str
) -> None:
    parsed = parse_feedback("item", "svc", datetime.now(UTC), trace, span, micros, score, comment)
    if isinstance(parsed, Refused):
        assert parsed.reason and len(parsed.reason) < 200
    else:
        assert isinstance(parsed, FeedbackSpan)
        assert 0 <= parsed.score <= 1 and len(parsed.trace_id) == 32
        assert parsed.request_time_us is None or 0 < parsed.request_time_us < 2**63
