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

Every feedback span comes from outside and is parsed by :func:`parse_feedback`, which returns the feedback
or why it cannot be used (a score that is no number in [0, 1], ids that are not hex, a start time that is no
whole number). One bad span costs that span: it is logged once and recorded (:mod:`ragpulse_scorers.refused`),
never the tick. Feedback counts only for requests of the service that sent it: the ingest token is what a
sender proves, and a sender that may write a service's spans could forge that service's requests anyway,
so a key per service would add a secret to hand out without adding trust. Feedback from another service is
quarantined: recorded apart with what it said, counted, never a label. A user's newest feedback on a request
is the label; older ones, and feedback already written as labels (read with ``FINAL``, after merges too),
are not written again.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from ragpulse_core.printable import printable
from ragpulse_core.store import Store
from ragpulse_core.untrusted import Refusals, Refused, finite_number, parse_with, quoted, whole_number

from ragpulse_scorers.labels.store import Label, RequestRef, Source, Verdict, write_labels
from ragpulse_scorers.refused import FEEDBACK, QUARANTINED_FEEDBACK
from ragpulse_scorers.refused import TABLE as REFUSED_TABLE

logger = logging.getLogger(__name__)

GROUNDED_FROM = 0.5
"""Scores at or above this are a satisfied user: ``grounded``."""
COMMENT_CHARS: Final = 2_000
"""A comment is kept to this many characters, as a reviewer's note is."""
_LATEST_MICROS: Final = 2**62
_TRACE_ID = re.compile(r"[0-9a-f]{32}")
_SPAN_ID = re.compile(r"[0-9a-f]{16}")


@dataclass(frozen=True)
class FeedbackSpan:
    item: str
    """The feedback span itself (trace id:span id), as refusals name it."""
    sender: str
    """The service that sent the feedback."""
    sent_at: datetime
    trace_id: str
    span_id: str
    request_time_us: int | None
    score: float
    comment: str


@dataclass
class FeedbackTally:
    """What one tick did with the feedback it read."""

    written: int = 0
    refused: int = 0
    quarantined: int = 0


def verdict_of(score: float) -> Verdict:
    return Verdict.GROUNDED if score >= GROUNDED_FROM else Verdict.HALLUCINATED


def parse_feedback(
    item: str, sender: str, sent_at: datetime, trace_id: str, span_id: str, request_time_us: str, score: str,
    comment: str,
) -> FeedbackSpan | Refused:  # fmt: skip
    """A feedback span's values (as the span table holds them: strings) as feedback, or why not."""
    trace = trace_id.strip().lower()
    if not _TRACE_ID.fullmatch(trace) or trace == "0" * 32:
        return Refused(f"ragpulse.feedback.trace_id {quoted(trace_id, 40)} is not a trace id (32 hex digits)")
    span = span_id.strip().lower()
    if span and (not _SPAN_ID.fullmatch(span) or span == "0" * 16):
        return Refused(f"ragpulse.feedback.span_id {quoted(span_id, 40)} is not a span id (16 hex digits)")
    value = finite_number(score, low=0.0, high=1.0, what="ragpulse.feedback.score")
    if isinstance(value, Refused):
        return value
    started: int | None = None
    if request_time_us.strip():
        micros = whole_number(
            request_time_us, low=1, high=_LATEST_MICROS, what="ragpulse.feedback.request_time_us"
        )
        if isinstance(micros, Refused):
            return micros
        started = micros
    return FeedbackSpan(
        item, sender, _aware(sent_at), trace, span, started, value, printable(comment)[:COMMENT_CHARS]
    )


def ingest_feedback(store: Store, oldest: datetime, refusals: Refusals | None = None) -> FeedbackTally:
    """Write a ``user`` label for each feedback span sent since ``oldest`` and not labelled yet; refused and
    quarantined spans go to ``refusals`` (logged once each)."""
    refusals = refusals or Refusals(logger)
    tally = FeedbackTally()
    spans = []
    for row in _feedback_rows(store, oldest):
        parsed = parse_with(lambda values: parse_feedback(*values), row)
        if isinstance(parsed, FeedbackSpan):
            spans.append(parsed)
        else:
            reason = parsed.reason if isinstance(parsed, Refused) else "unreadable"
            refusals.refuse(FEEDBACK, str(row[0]), reason, service=str(row[1]), detail=_detail(row))
            tally.refused += 1
    if not spans:
        return tally
    requests = _requests(store, sorted({span.trace_id for span in spans}))
    newest: dict[tuple[RequestRef, str], FeedbackSpan] = {}
    for span in spans:
        found = _request_of(span, requests.get(span.trace_id, []))
        if found is None:
            continue
        request, user = found
        if request.service_name != span.sender:
            refusals.refuse(
                QUARANTINED_FEEDBACK,
                span.item,
                f"sent by service {span.sender!r} about a request of service {request.service_name!r}",
                service=span.sender,
                detail=json.dumps(
                    {
                        "trace_id": span.trace_id,
                        "span_id": span.span_id,
                        "score": span.score,
                        "comment": span.comment,
                    },
                    ensure_ascii=False,
                ),
            )
            tally.quarantined += 1
            continue
        key = (request, user)
        if key not in newest or newest[key].sent_at < span.sent_at:
            newest[key] = span
    written = _latest_labels(store, sorted({request.trace_id for request, _ in newest}))
    labels = [
        Label.of(
            request,
            verdict_of(span.score),
            author=user,
            source=Source.USER,
            score=span.score,
            note=span.comment,
            label_time=span.sent_at,
        )
        for (request, user), span in newest.items()
        if written.get(_label_key(request, user), -1) < _micros(span.sent_at)
    ]
    if labels:
        write_labels(store, labels)
        logger.info("%d end-user feedback labels written", len(labels))
    tally.written = len(labels)
    return tally


def _feedback_rows(
    store: Store, oldest: datetime
) -> list[tuple[str, str, datetime, str, str, str, str, str]]:
    rows = store.query(
        "SELECT DISTINCT concat(TraceId, ':', SpanId), ServiceName, toDateTime64(Timestamp, 6),"
        " SpanAttributes['ragpulse.feedback.trace_id'], SpanAttributes['ragpulse.feedback.span_id'],"
        " SpanAttributes['ragpulse.feedback.request_time_us'], SpanAttributes['ragpulse.feedback.score'],"
        " SpanAttributes['ragpulse.feedback.comment']"
        f" FROM {store.table('otel_traces')} WHERE Timestamp >= {{oldest:DateTime64(6)}}"
        " AND SpanAttributes['ragpulse.kind'] = 'feedback'"
        # Spans refused on an earlier tick are not read again: a flood of bad feedback costs one read.
        " AND concat(TraceId, ':', SpanId) NOT IN ("
        f"  SELECT Item FROM {store.table(REFUSED_TABLE)}"
        "   WHERE Kind IN {kinds:Array(String)} AND RefusedAt >= {oldest:DateTime64(6)})",
        {"oldest": _naive(oldest), "kinds": [FEEDBACK, QUARANTINED_FEEDBACK]},
    )
    return [tuple(row) for row in rows]


def _detail(row: Sequence[object]) -> str:
    names = ("item", "service", "sent_at", "trace_id", "span_id", "request_time_us", "score", "comment")
    values = {name: str(value)[:COMMENT_CHARS] for name, value in zip(names, row, strict=False)}
    return json.dumps(values, ensure_ascii=False)


def _latest_labels(store: Store, trace_ids: Sequence[str]) -> dict[tuple[str, str, int, str], int]:
    """Per (trace, span, request start, author), the time of the user label stored, as merges leave it."""
    if not trace_ids:
        return {}
    rows = store.query(
        "SELECT TraceId, SpanId, toUnixTimestamp64Micro(RequestTime), Author,"
        " max(toUnixTimestamp64Micro(LabelTime))"
        f" FROM {store.table('ragpulse_labels')} FINAL"
        " WHERE Source = 'user' AND TraceId IN {traces:Array(String)}"
        " GROUP BY TraceId, SpanId, RequestTime, Author",
        {"traces": list(trace_ids)},
    )
    return {(str(t), str(s), int(r), str(a)): int(at) for t, s, r, a, at in rows}


def _label_key(request: RequestRef, author: str) -> tuple[str, str, int, str]:
    return (request.trace_id, request.span_id, _micros(request.request_time), author)


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
