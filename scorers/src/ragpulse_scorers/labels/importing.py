"""``ragpulse labels import``: a JSON Lines file read as a stream, each line on its own.

A line is what ends at ``\\n`` (``\\r\\n`` too), never at U+2028 or another character ``str.splitlines`` takes
for a break, so line numbers are the ones an editor shows. Each line costs only itself: bytes that are not
UTF-8, JSON nested too deeply, a line longer than :data:`MAX_LINE_BYTES` (read past, never held or echoed),
a score outside [0, 1], a sentence the answer does not have, a request that is not stored. Lines are looked
up and written in batches of :data:`BATCH_LINES`, so what was read is stored as the import goes, and the
caller hears after each batch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import IO, Final

from ragpulse_core.store import Store
from ragpulse_core.untrusted import Refused
from ragpulse_judge.text import split_sentences

from ragpulse_scorers.labels.lines import BadLine, LabelLine, parse_line
from ragpulse_scorers.labels.store import (
    AmbiguousPrefix,
    AmbiguousRequest,
    Label,
    RequestRef,
    Source,
    whole_trace_id,
    write_labels,
)

MAX_LINE_BYTES: Final = 1 << 20
"""A longer line is refused unread: no label needs a megabyte."""
BATCH_LINES: Final = 1_000
_SKIP_CHUNK: Final = 1 << 16
REFUSED_KEPT: Final = 1_000
"""Refused lines listed with their reasons; past this they are only counted."""


@dataclass
class ImportProgress:
    """Where an import is: lines read, labels written, lines refused (the first :data:`REFUSED_KEPT`
    listed by line number with the reason)."""

    lines: int = 0
    written: int = 0
    refused_total: int = 0
    refused: list[tuple[int, str]] = field(default_factory=list)

    def refuse(self, number: int, reason: str) -> None:
        self.refused_total += 1
        if len(self.refused) < REFUSED_KEPT:
            self.refused.append((number, reason))


def json_lines(stream: IO[bytes]) -> Iterator[tuple[int, str | Refused]]:
    """Each non-blank line of ``stream`` with its number (from 1): its text, or why it cannot be read."""
    number = 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            size = len(raw) + _skip_rest_of_line(stream)
            yield number, Refused(f"line of {size} bytes is longer than {MAX_LINE_BYTES} bytes; not read")
            continue
        line = raw.rstrip(b"\n").removesuffix(b"\r")
        if not line.strip():
            continue
        try:
            yield number, line.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield number, Refused(f"not UTF-8 (byte {exc.start + 1} of the line)")


def _skip_rest_of_line(stream: IO[bytes]) -> int:
    skipped = 0
    while chunk := stream.readline(_SKIP_CHUNK):
        skipped += len(chunk)
        if chunk.endswith(b"\n"):
            break
    return skipped


def import_labels(
    store: Store,
    stream: IO[bytes],
    author: str,
    on_batch: Callable[[ImportProgress], None] | None = None,
) -> ImportProgress:
    """Import the labels of ``stream`` as ``author`` (unless a line names its own), batch by batch."""
    progress = ImportProgress()
    batch: list[tuple[int, LabelLine]] = []
    for number, text in json_lines(stream):
        progress.lines = number
        if isinstance(text, Refused):
            progress.refuse(number, text.reason)
            continue
        try:
            batch.append((number, parse_line(text)))
        except BadLine as exc:
            progress.refuse(number, str(exc))
        if len(batch) >= BATCH_LINES:
            _write_batch(store, batch, author, progress)
            batch = []
            if on_batch is not None:
                on_batch(progress)
    if batch:
        _write_batch(store, batch, author, progress)
    if on_batch is not None:
        on_batch(progress)
    return progress


@dataclass(frozen=True)
class _Stored:
    request: RequestRef
    sentences: int
    """How many sentences its answer has, split as the review page and the judges split it."""


def _write_batch(
    store: Store, batch: Sequence[tuple[int, LabelLine]], author: str, progress: ImportProgress
) -> None:
    whole = _whole_trace_ids(store, {line.trace_id for _, line in batch})
    stored = _requests(store, sorted({trace for trace in whole.values() if isinstance(trace, str)}))
    labels = []
    for number, line in batch:
        trace = whole[line.trace_id]
        found = trace if isinstance(trace, Refused) else _request_of(line, stored.get(trace, []))
        if isinstance(found, Refused):
            progress.refuse(number, found.reason)
            continue
        beyond = [index for index in line.sentences if index >= found.sentences]
        if beyond:
            progress.refuse(number, f"the answer has {found.sentences} sentences; no sentence {beyond[0]}")
            continue
        label = Label.of(
            found.request, line.label, author=line.author or author, source=Source.IMPORT,
            sentences=line.sentences, score=line.score, note=line.note,
        )  # fmt: skip
        labels.append(label)
    if labels:
        progress.written += write_labels(store, labels)


def _whole_trace_ids(store: Store, trace_ids: set[str]) -> dict[str, str | Refused]:
    """Each trace id of a batch as a whole one: a line may give a prefix, as ``ragpulse label`` may."""
    whole: dict[str, str | Refused] = {}
    for trace_id in trace_ids:
        try:
            whole[trace_id] = whole_trace_id(store, trace_id)
        except (AmbiguousPrefix, ValueError) as exc:
            whole[trace_id] = Refused(str(exc))
    return whole


def _request_of(line: LabelLine, candidates: Sequence[_Stored]) -> _Stored | Refused:
    matching = [
        stored
        for stored in candidates
        if (not line.span_id or stored.request.span_id == line.span_id)
        and (line.request_time is None or _micros(stored.request.request_time) == _micros(line.request_time))
    ]
    if not matching:
        span = f" and span id {line.span_id}" if line.span_id else ""
        return Refused(f"no stored request has trace id {line.trace_id}{span}")
    if len(matching) > 1:
        return Refused(str(AmbiguousRequest(line.trace_id, [stored.request for stored in matching])))
    return matching[0]


def _requests(store: Store, trace_ids: Sequence[str]) -> dict[str, list[_Stored]]:
    rows = store.query(
        "SELECT DISTINCT TraceId, SpanId, toDateTime64(Timestamp, 6) AS RequestTime, ServiceName, Pipeline,"
        f" Variant, Answer FROM {store.table('ragpulse_requests')} WHERE TraceId IN {{traces:Array(String)}}"
        " ORDER BY RequestTime DESC, SpanId",
        {"traces": list(trace_ids)},
    )
    found: dict[str, list[_Stored]] = {}
    for trace, span, at, service, pipeline, variant, answer in rows:
        request = RequestRef(trace, span, _utc(at), service, pipeline, variant)
        found.setdefault(trace, []).append(_Stored(request, len(split_sentences(answer))))
    return found


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _micros(moment: datetime) -> int:
    return (_utc(moment) - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)
