"""The labels table: labels written come back, an author's latest label of a request wins, sources stay apart,
and a label finds its request by trace id, refusing a trace id several requests reuse."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from ragpulse_core.store import Store
from ragpulse_scorers.labels.store import (
    AmbiguousRequest,
    Label,
    RequestRef,
    find_request,
    read_labels,
    write_labels,
)

REQUEST_COLUMNS = [
    "TraceId", "SpanId", "Timestamp", "ServiceName", "Pipeline", "Variant", "Question", "Answer",
]  # fmt: skip


def add_request(store: Store, trace_id: str, span_id: str, at: datetime) -> RequestRef:
    store.insert(
        store.table("ragpulse_requests"),
        [[trace_id, span_id, at, "svc", "capitals", "A", "Capital of France?", "Paris."]],
        REQUEST_COLUMNS,
    )
    return RequestRef(trace_id, span_id, at, "svc", "capitals", "A")


def test_latest_label_of_an_author_wins_and_sources_stay_apart(store: Store) -> None:
    now = datetime.now(UTC).replace(microsecond=123456)
    request = add_request(store, uuid.uuid4().hex, "a1", now - timedelta(minutes=5))
    first = Label.of(request, "hallucinated", author="ann", source="reviewer", sentences=[0, 2],
                     label_time=now - timedelta(seconds=2))  # fmt: skip
    changed = Label.of(request, "grounded", author="ann", source="reviewer", note="misread",
                       label_time=now - timedelta(seconds=1))  # fmt: skip
    user = Label.of(request, "hallucinated", author="", source="user", score=0.1, label_time=now)
    assert write_labels(store, [first]) == 1
    write_labels(store, [changed, user])

    reviewer_labels = read_labels(store, source="reviewer")
    assert reviewer_labels == [changed]
    assert reviewer_labels[0].request_time == request.request_time  # to the microsecond
    assert read_labels(store, source="user") == [user]
    assert read_labels(store, since=now - timedelta(milliseconds=500)) == [user]


def test_a_label_rejects_what_the_table_cannot_mean() -> None:
    request = RequestRef("t", "s", datetime.now(UTC), "svc", "p", "A")
    with pytest.raises(ValueError):
        Label.of(request, "maybe", author="ann", source="reviewer")
    with pytest.raises(ValueError):
        Label.of(request, "grounded", author="ann", source="robot")
    with pytest.raises(ValueError):
        Label.of(request, "grounded", author="ann", source="reviewer", sentences=[-1])


def test_find_request_names_one_occurrence_or_lists_them(store: Store) -> None:
    trace = uuid.uuid4().hex
    now = datetime.now(UTC).replace(microsecond=654321)
    assert find_request(store, trace) is None
    older = add_request(store, trace, "a1", now - timedelta(hours=1))
    assert find_request(store, trace) == older
    newer = add_request(store, trace, "a1", now)
    add_request(store, trace, "a1", now)  # a retried export of the same request: still one
    with pytest.raises(AmbiguousRequest) as refused:
        find_request(store, trace)
    assert refused.value.candidates == [newer, older]
    assert trace in str(refused.value) and "a1" in str(refused.value)
    assert find_request(store, trace, "a1", at=older.request_time) == older
    assert find_request(store, trace, "zz") is None
