"""One request's span tree, read from ``otel_traces``, and drawn as a waterfall: each span a bar at its start,
as long as it took, under its parent.

Only the request's own subtree is drawn (a trace may hold several requests), in start order within each
parent, at most :data:`MAX_SPANS` spans: a hostile trace of a million spans costs the page one bounded read.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from ragpulse import semconv
from ragpulse_core.store import Store

from ragpulse_dashboards.report.format import html_text

MAX_SPANS: Final = 200
# A span's name and what it worked on are read and shown at most this long (a traced name may be megabytes).
_TITLE: Final = 300
# Deeper spans are indented no further, so their labels stay in the label column.
_MOST_INDENT: Final = 12
# Spans of a request start within this long after it (and a clock may lag a little before).
_SLACK: Final = timedelta(minutes=1)
# Spans one read takes: a request's own among a trace's others, bounded.
_MOST_READ: Final = 20 * MAX_SPANS
_ROW: Final = 22
_LABEL: Final = 260
_WIDTH: Final = 900
_BAR: Final = _WIDTH - _LABEL - 90
# Bar colours by what a span does.
_COLOURS: Final = {
    "rag": "#1e3a8a",
    "CHAIN": "#1e3a8a",
    "RETRIEVER": "#0891b2",
    "RERANKER": "#9333ea",
    "LLM": "#ea580c",
    "EMBEDDING": "#16a34a",
    "TOOL": "#ca8a04",
}


@dataclass(frozen=True)
class TraceSpan:
    span_id: str
    parent_id: str
    name: str
    kind: str
    start: datetime
    duration_ms: float
    failed: bool
    detail: str
    """What the span worked on, in a few words: the query of a retrieval, the model of a generation."""
    depth: int = 0


@dataclass(frozen=True)
class SpanTree:
    spans: list[TraceSpan]
    left_out: int
    """Spans of the request beyond MAX_SPANS."""
    read_all: bool = True
    """False when the trace held more spans than one read takes: ``left_out`` is then a lower bound."""

    @property
    def start(self) -> datetime | None:
        return min((span.start for span in self.spans), default=None)


def read_span_tree(
    store: Store, trace_id: str, root_span: str, start: datetime, duration_ms: float
) -> SpanTree:
    """The request's spans (the root span ``root_span`` and its descendants), parents before children."""
    rows = store.query_dicts(
        "SELECT SpanId, ParentSpanId, substringUTF8(SpanName, 1, {title:UInt32}) AS SpanName, SpanKind,"
        " Timestamp, Duration / 1e6 AS ms, StatusCode = 'Error' AS failed,"
        " SpanAttributes[{kind:String}] AS openinference_kind, SpanAttributes[{rag:String}] AS rag_kind,"
        " substringUTF8(SpanAttributes[{index:String}], 1, 20) AS query_index,"
        " substringUTF8(SpanAttributes[{input:String}], 1, {title:UInt32}) AS input,"
        " substringUTF8(coalesce(nullIf(SpanAttributes[{response_model:String}], ''),"
        "          nullIf(SpanAttributes[{request_model:String}], ''),"
        "          SpanAttributes[{model_name:String}]), 1, {title:UInt32}) AS model"
        f" FROM {store.table('otel_traces')}"
        " WHERE TraceId = {trace:String}"
        " AND Timestamp >= {from:DateTime64(9)} AND Timestamp <= {to:DateTime64(9)}"
        " ORDER BY Timestamp, SpanId LIMIT {most:UInt32}",
        {
            "trace": trace_id,
            "from": start - _SLACK,
            "to": start + timedelta(milliseconds=max(0.0, duration_ms)) + _SLACK,
            "most": _MOST_READ,
            "title": _TITLE,
            "kind": semconv.SPAN_KIND,
            "rag": semconv.KIND,
            "index": semconv.QUERY_INDEX,
            "input": semconv.INPUT_VALUE,
            "response_model": semconv.GEN_AI_RESPONSE_MODEL,
            "request_model": semconv.GEN_AI_REQUEST_MODEL,
            "model_name": semconv.LLM_MODEL_NAME,
        },
    )
    children: dict[str, list[dict[str, Any]]] = {}
    roots = []
    for row in rows:
        if row["SpanId"] == root_span:
            roots.append(row)
        children.setdefault(str(row["ParentSpanId"]), []).append(row)
    ordered: list[TraceSpan] = []
    pending = [(row, 0) for row in reversed(roots[:1])]
    seen: set[str] = set()
    total = 0
    while pending:
        row, depth = pending.pop()
        span_id = str(row["SpanId"])
        if span_id in seen:
            continue
        seen.add(span_id)
        total += 1
        if len(ordered) < MAX_SPANS:
            ordered.append(_span(row, depth))
        pending += [(child, depth + 1) for child in reversed(children.get(span_id, []))]
    return SpanTree(ordered, total - len(ordered), read_all=len(rows) < _MOST_READ)


def _span(row: dict[str, Any], depth: int) -> TraceSpan:
    kind = str(row["rag_kind"]) or str(row["openinference_kind"]) or str(row["SpanKind"])
    detail = ""
    if str(row["query_index"]):
        detail = f"variation {row['query_index']}: {row['input']}"
    elif str(row["model"]):
        detail = str(row["model"])
    start = row["Timestamp"]
    return TraceSpan(
        str(row["SpanId"]),
        str(row["ParentSpanId"]),
        str(row["SpanName"]),
        kind,
        start if start.tzinfo else start.replace(tzinfo=UTC),
        float(row["ms"]),
        bool(row["failed"]),
        detail,
        depth,
    )


def waterfall_svg(tree: SpanTree) -> str:
    """The spans as bars on one time axis from the request's start; failed spans in red, each labelled with
    its name, what it worked on and how long it took."""
    start = tree.start
    if start is None:
        return "<p class='muted'>No spans of this request are stored (they may have expired).</p>"
    end = max((span.start - start).total_seconds() * 1000 + span.duration_ms for span in tree.spans)
    scale = _BAR / max(end, 1e-3)
    height = _ROW * len(tree.spans) + 24
    bars = []
    for row, span in enumerate(tree.spans):
        y = row * _ROW
        offset = (span.start - start).total_seconds() * 1000
        x = _LABEL + offset * scale
        width = max(1.5, span.duration_ms * scale)
        colour = "#dc2626" if span.failed else _COLOURS.get(span.kind, "#475569")
        indent = min(span.depth, _MOST_INDENT)
        name = f"{span.name[:_TITLE]}" + (f" · {span.detail[:_TITLE]}" if span.detail else "")
        timing = f"starts at +{offset:.1f} ms, takes {span.duration_ms:.1f} ms"
        bars.append(
            f"<g><title>{html_text(_shortened(name, _TITLE))}: {timing}</title>"
            f"<text class='tick' x='{4 + 12 * indent}' y='{y + 15}'>"
            f"{html_text(_shortened(name, 40 - 2 * indent))}</text>"
            f"<rect x='{x:.1f}' y='{y + 4}' width='{width:.1f}' height='{_ROW - 8}' rx='2'"
            f" fill='{colour}'/><text class='value' x='{min(x + width + 4, _WIDTH - 84):.1f}' y='{y + 15}'>"
            f"{span.duration_ms:.1f} ms</text></g>"
        )
    axis = (
        f"<text class='tick' x='{_LABEL}' y='{height - 4}'>0 ms</text>"
        f"<text class='tick' x='{_LABEL + _BAR - 60}' y='{height - 4}'>{end:.1f} ms</text>"
    )
    at_least = "" if tree.read_all else "at least "
    more = (
        f"<p class='muted'>{at_least}{tree.left_out} more span(s) of this request are not drawn.</p>"
        if tree.left_out
        else ""
    )
    return (
        f"<svg class='chart waterfall' viewBox='0 0 {_WIDTH} {height}' role='img'"
        f" aria-label='Span waterfall'>{''.join(bars)}{axis}</svg>{more}"
    )


def _shortened(text: str, room: int) -> str:
    shown = text.strip()
    return shown if len(shown) <= room else shown[: max(4, room - 1)] + "…"
