"""End-user feedback spans (``ragpulse.feedback``, sent by ``ragpulse.feedback()``) become labels with source
``user``, once per scoring tick.

A score below 0.5 (a thumbs-down) becomes ``hallucinated``, 0.5 and above ``grounded``; the raw score is kept
in the label's Score and the comment in its Note. These labels stay apart from reviewers': an unhappy user is
not proof of an unsupported sentence, so the figures against them are shown on their own.

The feedback names its request by trace id, root span id and start time when sent inside the request; sent
later with a trace id (and span id) only, it goes to the newest request of that trace that started before
the feedback (a service that reuses trace ids started the one the user saw last). The author is the request's
user id (``ragpulse.set_user``), so a user's later feedback on a request replaces their earlier one.
Feedback whose request is not stored yet waits for a later tick, within the scorer's lookback.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from ragpulse_core.store import Store

from ragpulse_scorers.labels.store import Label, RequestRef, Source, Verdict, write_labels

logger = logging.getLogger(__name__)

GROUNDED_FROM = 0.5
"""Scores at or above this are a satisfied user: ``grounded``."""


@dataclass(frozen=True)
class FeedbackSpan:
    sent_at: datetime
    trace_id: str
    span_id: str
    request_time_us: int | None
    score: float
    comment: str


def verdict_of(score: float) -> Verdict:
    return Verdict.GROUNDED if score >= GROUNDED_FROM else Verdict.HALLUCINATED


def ingest_feedback(store: Store, oldest: datetime) -> int:
    """Write a ``user`` label for each feedback span sent since ``oldest`` and not labelled yet; returns how
    many it wrote."""
    spans = _feedback_spans(store, oldest)
    if not spans:
        return 0
    done = _labelled(store, oldest)
    waiting = [span for span in spans if (span.trace_id, _micros(span.sent_at)) not in done]
    requests = _requests(store, sorted({span.trace_id for span in waiting}))
    labels = []
    for span in waiting:
        found = _request_of(span, requests.get(span.trace_id, []))
        if found is None:
            continue
        request, user = found
        labels.append(
            Label.of(
                request,
                verdict_of(span.score),
                author=user,
                source=Source.USER,
                score=span.score,
                note=span.comment,
                label_time=span.sent_at,
            )
        )
    if labels:
        write_labels(store, labels)
        logger.info("%d end-user feedback labels written", len(labels))
    return len(labels)


def _feedback_spans(store: Store, oldest: datetime) -> list[FeedbackSpan]:
    rows = store.query(
        "SELECT DISTINCT toDateTime64(Timestamp, 6), SpanAttributes['ragpulse.feedback.trace_id'],"
        " SpanAttributes['ragpulse.feedback.span_id'], SpanAttributes['ragpulse.feedback.request_time_us'],"
        " SpanAttributes['ragpulse.feedback.score'], SpanAttributes['ragpulse.feedback.comment']"
        f" FROM {store.table('otel_traces')} WHERE Timestamp >= {{oldest:DateTime64(6)}}"
        " AND SpanAttributes['ragpulse.kind'] = 'feedback'",
        {"oldest": _naive(oldest)},
    )
    spans = []
    for sent_at, trace_id, span_id, request_time_us, score, comment in rows:
        try:
            value = float(score)
        except ValueError:
            logger.warning("feedback on trace %s has no numeric score (%r): skipped", trace_id, score)
            continue
        if not 0 <= value <= 1 or not trace_id:
            logger.warning("feedback on trace %r with score %r: skipped", trace_id, score)
            continue
        spans.append(
            FeedbackSpan(
                _aware(sent_at),
                trace_id,
                span_id,
                int(request_time_us) if request_time_us.isdigit() else None,
                value,
                comment,
            )
        )
    return spans


def _labelled(store: Store, oldest: datetime) -> set[tuple[str, int]]:
    rows = store.query(
        "SELECT DISTINCT TraceId, toUnixTimestamp64Micro(LabelTime)"
        f" FROM {store.table('ragpulse_labels')}"
        " WHERE Source = 'user' AND LabelTime >= {oldest:DateTime64(6)}",
        {"oldest": _naive(oldest)},
    )
    return {(str(trace_id), int(micros)) for trace_id, micros in rows}


def _requests(store: Store, trace_ids: Sequence[str]) -> dict[str, list[tuple[RequestRef, str]]]:
    if not trace_ids:
        return {}
    rows = store.query(
        "SELECT DISTINCT TraceId, SpanId, toDateTime64(Timestamp, 6), ServiceName, Pipeline, Variant, UserId"
        f" FROM {store.table('ragpulse_requests')} WHERE TraceId IN {{traces:Array(String)}}",
        {"traces": list(trace_ids)},
    )
    found: dict[str, list[tuple[RequestRef, str]]] = {}
    for trace_id, span_id, at, service, pipeline, variant, user in rows:
        ref = RequestRef(trace_id, span_id, _aware(at), service, pipeline, variant)
        found.setdefault(trace_id, []).append((ref, user))
    return found


def _request_of(
    span: FeedbackSpan, candidates: list[tuple[RequestRef, str]]
) -> tuple[RequestRef, str] | None:
    matching = [
        (ref, user)
        for ref, user in candidates
        if (not span.span_id or ref.span_id == span.span_id)
        and (span.request_time_us is None or _micros(ref.request_time) == span.request_time_us)
        and ref.request_time <= span.sent_at
    ]
    return max(matching, key=lambda found: found[0].request_time, default=None)


def _micros(moment: datetime) -> int:
    return (moment - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)


def _aware(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _naive(moment: datetime) -> datetime:
    return _aware(moment).replace(tzinfo=None)
