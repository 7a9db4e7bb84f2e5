"""The ``ragpulse_labels`` table: write labels, read them back, and find the request a label names.

A label names its request as every ragpulse table does since migration 0035: (trace id, root span id, start
time to the microsecond). The span id and start time matter: a service that seeds ``random`` reuses trace
ids, and a label put on the wrong occurrence would measure a judge against an answer nobody read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from ragpulse_core.store import Store

TABLE = "ragpulse_labels"
COLUMNS = (
    "LabelTime", "TraceId", "SpanId", "RequestTime", "ServiceName", "Pipeline", "Variant", "Label",
    "Sentences", "Author", "Source", "Score", "Note",
)  # fmt: skip
_UINT16_MAX = 2**16 - 1


class Verdict(StrEnum):
    """What a person says of a request's answer."""

    HALLUCINATED = "hallucinated"
    GROUNDED = "grounded"


class Source(StrEnum):
    """Where a label came from; figures never mix sources."""

    REVIEWER = "reviewer"
    USER = "user"
    IMPORT = "import"


@dataclass(frozen=True)
class RequestRef:
    """A stored request, as a label names it and copies its service, pipeline and variant."""

    trace_id: str
    span_id: str
    request_time: datetime
    service_name: str
    pipeline: str
    variant: str


@dataclass(frozen=True)
class Label:
    """One person's label of one request (one row of ``ragpulse_labels``)."""

    label_time: datetime
    trace_id: str
    span_id: str
    request_time: datetime
    service_name: str
    pipeline: str
    variant: str
    label: Verdict
    author: str
    source: Source
    sentences: tuple[int, ...] = field(default=())
    """Indices of the sentences marked hallucinated (empty when none were marked)."""
    score: float | None = None
    """An end user's own score as sent; None for reviewers and imports without one."""
    note: str = ""

    def __post_init__(self) -> None:
        # Checked here so that a bad label fails where it is made, not as a refused insert of a whole batch.
        object.__setattr__(self, "label", Verdict(self.label))
        object.__setattr__(self, "source", Source(self.source))
        if any(not 0 <= index <= _UINT16_MAX for index in self.sentences):
            raise ValueError(f"sentence indices must be between 0 and {_UINT16_MAX}: {list(self.sentences)}")

    @classmethod
    def of(
        cls,
        request: RequestRef,
        label: Verdict | str,
        *,
        author: str,
        source: Source | str,
        sentences: Sequence[int] = (),
        score: float | None = None,
        note: str = "",
        label_time: datetime | None = None,
    ) -> Label:
        """A label of ``request``, given now unless ``label_time`` says when."""
        return cls(
            label_time=label_time or datetime.now(UTC),
            trace_id=request.trace_id,
            span_id=request.span_id,
            request_time=request.request_time,
            service_name=request.service_name,
            pipeline=request.pipeline,
            variant=request.variant,
            label=Verdict(label),
            author=author,
            source=Source(source),
            sentences=tuple(sentences),
            score=score,
            note=note,
        )

    @property
    def request(self) -> RequestRef:
        return RequestRef(
            self.trace_id, self.span_id, self.request_time, self.service_name, self.pipeline, self.variant
        )


TRACE_ID_CHARS = 32
"""A trace id as stored: 16 bytes in lowercase hex."""
MIN_PREFIX_CHARS = 8
"""The shortest trace id prefix taken for the whole: ``requests`` and the report print 16 characters."""
_CANDIDATES_SHOWN = 10
_HEX = frozenset("0123456789abcdefABCDEF")


class AmbiguousPrefix(LookupError):
    """A trace id prefix that several stored traces start with: the message lists them."""

    def __init__(self, prefix: str, candidates: Sequence[RequestRef], more: bool) -> None:
        self.candidates = list(candidates)
        listed = "; ".join(
            f"{ref.trace_id} ({ref.service_name}, {_utc(ref.request_time):%Y-%m-%d %H:%M:%S} UTC)"
            for ref in self.candidates
        )
        super().__init__(
            f"trace id prefix {prefix} names {'more than ' if more else ''}{len(self.candidates)} traces:"
            f" {listed}{' …' if more else ''}. Give more of the trace id."
        )


class RequestNotFound(LookupError):
    """No stored request has the trace id (and span id) a label names."""


class AmbiguousRequest(LookupError):
    """A trace id (and span id) names several stored requests: the service reused ids."""

    def __init__(self, trace_id: str, candidates: Sequence[RequestRef]) -> None:
        self.candidates = list(candidates)
        listed = "; ".join(
            f"span {ref.span_id} at {_utc(ref.request_time).isoformat()} ({ref.service_name})"
            for ref in self.candidates
        )
        super().__init__(
            f"trace {trace_id} names {len(self.candidates)} requests (the service reused its ids): {listed}."
            " Name one with its span id and start time."
        )


def write_labels(store: Store, labels: Sequence[Label]) -> int:
    """Insert ``labels``; returns how many were written. A retried batch of the same labels is a no-op."""
    rows = [_row(label) for label in labels]
    token = hashlib.sha256(repr(rows).encode()).hexdigest()
    store.insert(store.table(TABLE), rows, COLUMNS, dedup_token=token)
    return len(rows)


def read_labels(
    store: Store, *, since: datetime | None = None, source: Source | str | None = None
) -> list[Label]:
    """The current labels (an author's latest per request), given at or after ``since``, of ``source``."""
    conditions = []
    parameters: dict[str, Any] = {}
    if since is not None:
        conditions.append("LabelTime >= {since:DateTime64(6)}")
        parameters["since"] = _utc(since).replace(tzinfo=None)
    if source is not None:
        conditions.append("Source = {source:String}")
        parameters["source"] = str(Source(source))
    where = f"WHERE {' AND '.join(conditions)}" if conditions else ""
    rows = store.query(
        f"SELECT {', '.join(COLUMNS)} FROM {store.table(TABLE)} FINAL {where}"
        " ORDER BY LabelTime, TraceId, SpanId, RequestTime, Source, Author",
        parameters,
    )
    return [_label(row) for row in rows]


def find_request(
    store: Store, trace_id: str, span_id: str | None = None, *, at: datetime | None = None
) -> RequestRef | None:
    """The stored request with ``trace_id`` (and ``span_id``, and start time ``at``), or None when none is.
    A ``trace_id`` shorter than a whole one is a prefix of one (at least :data:`MIN_PREFIX_CHARS`
    characters): a prefix several stored traces start with is refused (:class:`AmbiguousPrefix` lists them).

    A trace id several requests reuse is refused (:class:`AmbiguousRequest` lists them) rather than taken to
    mean the newest: a label on the wrong occurrence would silently measure the judges against an answer the
    person never read. ``span_id`` or ``at`` (to the microsecond) tells the occurrences apart.
    """
    trace_id = whole_trace_id(store, trace_id)
    conditions = ["TraceId = {trace:String}"]
    parameters: dict[str, Any] = {"trace": trace_id}
    if span_id:
        conditions.append("SpanId = {span:String}")
        parameters["span"] = span_id
    if at is not None:
        conditions.append("toUnixTimestamp64Micro(Timestamp) = {micros:Int64}")
        parameters["micros"] = _micros(at)
    rows = store.query(
        "SELECT DISTINCT TraceId, SpanId, toDateTime64(Timestamp, 6) AS RequestTime, ServiceName, Pipeline,"
        f" Variant FROM {store.table('ragpulse_requests')} WHERE {' AND '.join(conditions)}"
        " ORDER BY RequestTime DESC, SpanId",
        parameters,
    )
    found = [RequestRef(trace, span, _utc(at_), *rest) for trace, span, at_, *rest in rows]
    if len(found) > 1:
        raise AmbiguousRequest(trace_id, found)
    return found[0] if found else None


def whole_trace_id(store: Store, trace_id: str) -> str:
    """``trace_id`` when it is a whole one, else the one stored trace id starting with it (the prefix itself
    when none does, so the caller says nothing is stored under it); :class:`AmbiguousPrefix` when several do,
    ValueError for a prefix under :data:`MIN_PREFIX_CHARS` that is not a stored trace id."""
    prefix = trace_id.strip()
    if len(prefix) >= TRACE_ID_CHARS:
        return prefix
    if set(prefix) <= _HEX:
        prefix = prefix.lower()
    short = len(prefix) < MIN_PREFIX_CHARS
    match = "TraceId = {prefix:String}" if short else "startsWith(TraceId, {prefix:String})"
    rows = store.query(
        "SELECT TraceId, min(toDateTime64(Timestamp, 6)) AS First, any(ServiceName), any(Pipeline),"
        f" any(Variant) FROM {store.table('ragpulse_requests')} WHERE {match}"
        " GROUP BY TraceId ORDER BY First DESC, TraceId LIMIT {shown:UInt32}",
        {"prefix": prefix, "shown": _CANDIDATES_SHOWN + 1},
    )
    if short and not rows:
        raise ValueError(
            f"no stored request has trace id {prefix}, and a prefix needs at least {MIN_PREFIX_CHARS}"
            " characters (the 16 that `requests` and the report print will do)"
        )
    if len(rows) > 1:
        found = [RequestRef(trace, "", _utc(at), *rest) for trace, at, *rest in rows[:_CANDIDATES_SHOWN]]
        raise AmbiguousPrefix(prefix, found, more=len(rows) > _CANDIDATES_SHOWN)
    return str(rows[0][0]) if rows else prefix


def _row(label: Label) -> list[Any]:
    return [
        _utc(label.label_time).replace(tzinfo=None),
        label.trace_id,
        label.span_id,
        _utc(label.request_time).replace(tzinfo=None),
        label.service_name,
        label.pipeline,
        label.variant,
        str(label.label),
        list(label.sentences),
        label.author,
        str(label.source),
        label.score,
        label.note,
    ]


def _label(row: Sequence[Any]) -> Label:
    values = dict(zip(COLUMNS, row, strict=True))
    return Label(
        label_time=_utc(values["LabelTime"]),
        trace_id=values["TraceId"],
        span_id=values["SpanId"],
        request_time=_utc(values["RequestTime"]),
        service_name=values["ServiceName"],
        pipeline=values["Pipeline"],
        variant=values["Variant"],
        label=Verdict(values["Label"]),
        author=values["Author"],
        source=Source(values["Source"]),
        sentences=tuple(values["Sentences"]),
        score=values["Score"],
        note=values["Note"],
    )


def _utc(moment: datetime) -> datetime:
    """A stored time (naive means UTC, as the store returns it) as an aware UTC time."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _micros(moment: datetime) -> int:
    return (_utc(moment) - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)
