"""One trace's spans in the common model, deduplicated and ordered, with their tree: depths, ancestors, the
outermost span of a kind, the root."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, timedelta

from ragpulse_assembly.dialects import normalise
from ragpulse_assembly.model import Span, TraceSpan


class Trace:
    """The deduplicated spans of one trace in the common model, in start order, with their tree."""

    def __init__(self, delivered: Iterable[TraceSpan]) -> None:
        unique: dict[str, TraceSpan] = {}
        # A span delivered twice keeps one copy; which one must not depend on arrival order.
        for span in delivered:
            kept = unique.get(span.span_id)
            if kept is None or (kept != span and repr(span) < repr(kept)):
                unique[span.span_id] = span
        self.spans = sorted(
            (normalise(span) for span in unique.values()), key=lambda s: (s.timestamp, s.span_id)
        )
        self._parents = {
            span.span_id: span.parent_span_id
            for span in self.spans
            if span.parent_span_id in unique and span.parent_span_id != span.span_id
        }
        self._depths = self._depth_map({span.span_id: span for span in self.spans})

    def _depth_map(self, unique: dict[str, Span]) -> dict[str, int]:
        depths: dict[str, int] = {}
        for span in self.spans:
            chain: list[Span] = []
            on_path: set[str] = set()
            current: Span | None = span
            # Walk up until a known depth, a missing parent or a cycle (malformed input must not hang).
            while current is not None and current.span_id not in depths and current.span_id not in on_path:
                chain.append(current)
                on_path.add(current.span_id)
                current = unique.get(current.parent_span_id)
            depth = depths.get(current.span_id, -1) if current is not None else -1
            for visited in reversed(chain):
                depth += 1
                depths[visited.span_id] = depth
        return depths

    def depth(self, span: Span) -> int:
        return self._depths[span.span_id]

    def ancestors(self, span_ids: set[str]) -> set[str]:
        """Every span above any of ``span_ids``: one walk up per span, each ancestor visited once."""
        found: set[str] = set()
        for span_id in span_ids:
            parent = self._parents.get(span_id)
            while parent is not None and parent not in found:
                found.add(parent)
                parent = self._parents.get(parent)
        return found

    def outermost(self, spans: Iterable[Span]) -> Span | None:
        found = list(spans)
        return min(found, key=lambda s: (self.depth(s), s.timestamp, s.span_id)) if found else None

    def root(self) -> Span:
        """The ragpulse root when there is one, else the top span (earliest, then longest)."""
        rag_roots = [span for span in self.spans if span.rag is not None]
        if rag_roots:
            return rag_roots[0]
        return min(self.spans, key=lambda s: (self.depth(s), s.timestamp, -s.duration_ns, s.span_id))


# A span's own events are emitted while it runs; an occurrence keeps those within this margin of its spans.
_EVENT_MARGIN = timedelta(seconds=60)


def occurrences(delivered: Iterable[TraceSpan]) -> list[list[TraceSpan]]:
    """The spans of one trace id split into the traces that carried it: a service whose ids repeat (a
    seeded ``random``, a restarted process, a replica) sends the same trace and span ids again later.

    In start order, a span id seen before at another start time opens a new occurrence; the same span at the
    same time is an exporter's retry and stays where it is. Events joined by trace and span id go to the
    occurrence whose span was running when they were emitted.
    """
    found: list[list[TraceSpan]] = []
    started: dict[str, datetime] = {}
    for span in sorted(delivered, key=lambda s: (s.timestamp, s.span_id)):
        if not found or started.get(span.span_id, span.timestamp) != span.timestamp:
            found.append([])
            started = {}
        started.setdefault(span.span_id, span.timestamp)
        found[-1].append(span)
    if len(found) < 2:
        return found
    return [[_own_events(span) for span in spans] for spans in found]


def _own_events(span: TraceSpan) -> TraceSpan:
    end = span.timestamp + timedelta(microseconds=span.duration_ns // 1000)
    kept = tuple(
        event
        for event in span.events
        if span.timestamp - _EVENT_MARGIN <= event.timestamp <= end + _EVENT_MARGIN
    )
    return replace(span, events=kept)


def bounds(spans: Iterable[TraceSpan]) -> tuple[datetime, datetime]:
    """When an occurrence began and when its last span ended."""
    listed = list(spans)
    return (
        min(span.timestamp for span in listed),
        max(span.timestamp + timedelta(microseconds=span.duration_ns // 1000) for span in listed),
    )
