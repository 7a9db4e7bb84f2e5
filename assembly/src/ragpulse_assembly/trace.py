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

    Services that repeat each other's span ids (seeded alike, running at once) are apart first, each with its
    own spans. Then, in start order, a span id seen before at another start time opens a new occurrence; the
    same span at the same time is an exporter's retry and stays where it is. Events joined by trace and span
    id go to the occurrence whose span was running when they were emitted.
    """
    spans = sorted(delivered, key=lambda s: (s.timestamp, s.span_id))
    services: dict[str, set[str]] = {}
    for span in spans:
        services.setdefault(span.span_id, set()).add(span.service_name)
    if any(len(names) > 1 for names in services.values()):
        groups: dict[str, list[TraceSpan]] = {}
        for span in spans:
            groups.setdefault(span.service_name, []).append(span)
        found = _in_start_order(part for group in groups.values() for part in _repeats(group))
    else:
        found = _repeats(spans)
    if len(found) < 2:
        return found
    return [[_own_events(span) for span in part] for part in found]


def _repeats(spans: list[TraceSpan]) -> list[list[TraceSpan]]:
    """``spans`` (in start order) cut where a span id comes back at another start time."""
    found: list[list[TraceSpan]] = []
    started: dict[str, datetime] = {}
    for span in spans:
        if not found or started.get(span.span_id, span.timestamp) != span.timestamp:
            found.append([])
            started = {}
        started.setdefault(span.span_id, span.timestamp)
        found[-1].append(span)
    return found


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


def apart(spans: list[TraceSpan]) -> list[list[TraceSpan]]:
    """The parts of one occurrence of a trace id that may each hold a request of their own, in start order.

    Requests that share a trace id (two services, or two concurrent requests of one) form trees that no
    parent link joins, each from a span with no parent: one part per tree. A tree whose top span names a
    parent that is not there (a remote caller that exports elsewhere) is a piece of a larger request, so then
    the occurrence stays whole.
    """
    parents = {span.span_id: span.parent_span_id for span in spans}
    tops: dict[str, str] = {}
    for span_id in parents:
        top, seen = span_id, {span_id}
        while parents.get(top, "") in parents and parents[top] not in seen:
            top = parents[top]
            seen.add(top)
        tops[span_id] = top
    if any(parents[top] for top in tops.values()):
        return [spans]
    groups: dict[str, list[TraceSpan]] = {}
    for span in spans:
        groups.setdefault(tops[span.span_id], []).append(span)
    return _in_start_order(groups.values())


def _in_start_order(groups: Iterable[list[TraceSpan]]) -> list[list[TraceSpan]]:
    return sorted(groups, key=lambda group: min((span.timestamp, span.span_id) for span in group))
