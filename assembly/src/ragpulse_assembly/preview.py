"""What the rules, and a service's mapping, make of its recent stored traces (``ragpulse assembly preview``),
computed without writing anything, and printed for a person."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from ragpulse_core.printable import excerpt, shown
from ragpulse_core.sampling import Shard
from ragpulse_core.store import Store
from rich.console import Console
from rich.table import Table

from ragpulse_assembly.context import context_texts
from ragpulse_assembly.job import AssemblyWindow, assemble_trace, marker_sql, read_events, read_spans
from ragpulse_assembly.mapping import trace_attributes
from ragpulse_assembly.names import Source
from ragpulse_assembly.readings import RULES_ONLY, Readers
from ragpulse_assembly.reasons import explain
from ragpulse_assembly.rules import AssembledRequest, assemble
from ragpulse_assembly.settings import ServiceMapping


@dataclass(frozen=True)
class PreviewedTrace:
    trace_id: str
    by_rules: AssembledRequest | None
    """What the rules alone make of the trace (None: not a request)."""
    mapped: AssembledRequest | None
    """What assembly writes: the rules, then the service's mapping when one matches."""
    mapping: ServiceMapping | None

    @property
    def documents(self) -> list[str]:
        return context_texts(self.mapped.context) if self.mapped is not None else []


@dataclass
class Preview:
    service: str
    traces: list[PreviewedTrace] = field(default_factory=list)

    @property
    def scorable(self) -> int:
        return sum(1 for t in self.traces if t.mapped is not None and not t.mapped.unscorable)

    @property
    def scorable_by_rules(self) -> int:
        return sum(1 for t in self.traces if t.by_rules is not None and not t.by_rules.unscorable)

    @property
    def reasons(self) -> Counter[str]:
        """Why the others would not be scored, by reason code ("not_a_request" for traces that hold none)."""
        return Counter(
            t.mapped.unscorable.value if t.mapped is not None else "not_a_request"
            for t in self.traces
            if t.mapped is None or t.mapped.unscorable
        )


def preview(
    store: Store,
    service: str,
    mappings: tuple[ServiceMapping, ...],
    last: int,
    since: timedelta,
    readers: Readers = RULES_ONLY,
) -> Preview:
    """The ``last`` newest foreign traces of ``service`` within ``since``, each read by the rules and by
    the mapping that matches it (a pinned template among ``readers``' templates), settled or not, decided
    before or not."""
    now = datetime.now(UTC)
    window = AssemblyWindow(
        oldest=now - since, settled=now, shard=Shard(), batch_size=last, max_traces=last, mappings=mappings
    )
    traces = _recent_traces(store, window, service, last)
    spans = read_spans(store, window, traces, read_events(store, window, traces))
    result = Preview(service)
    for trace in traces:
        found = spans.get(trace, [])
        by_rules = assemble(trace, found)
        mapped = assemble_trace(trace, found, mappings, readers)
        attributes = trace_attributes(found)
        mapping = None
        if by_rules is not None:
            mapping = next((m for m in mappings if m.matches(by_rules.service_name, attributes)), None)
        result.traces.append(PreviewedTrace(trace, by_rules, mapped, mapping))
    return result


def _recent_traces(store: Store, window: AssemblyWindow, service: str, last: int) -> list[str]:
    parameters: dict[str, Any] = {
        "oldest": window.oldest,
        "service": service,
        "ragpulse": Source.RAGPULSE.value,
        "last": last,
    }
    marked = marker_sql(parameters)
    rows = store.query(
        f"""
        SELECT TraceId
        FROM {store.table("otel_traces")}
        WHERE Timestamp >= {{oldest:DateTime64(6)}} AND ServiceName = {{service:String}}
        GROUP BY TraceId
        HAVING countIf(ScopeName != {{ragpulse:String}} AND ({marked})) > 0
        ORDER BY max(Timestamp) DESC, TraceId
        LIMIT {{last:UInt32}}
        """,
        parameters,
    )
    return [str(trace) for (trace,) in rows]


def print_preview(found: Preview, out: Console) -> None:
    if not found.traces:
        out.print(f"No traces of service {shown(found.service)!r} from other instrumentations in the window.")
        return
    title = f"{shown(found.service)}: the {len(found.traces)} newest traces"
    table = Table(title=title, title_justify="left")
    table.add_column("trace", no_wrap=True, min_width=16)
    table.add_column("scored?", min_width=12)
    table.add_column("question", ratio=1, overflow="fold")
    table.add_column("documents", ratio=2, overflow="fold")
    table.add_column("answer", ratio=1, overflow="fold")
    for traced in found.traces:
        request = traced.mapped
        if request is None:
            table.add_row(shown(traced.trace_id[:16]), "[yellow]not a request[/yellow]", "", "", "")
            continue
        documents = traced.documents
        listed = " · ".join(f"[{n}] {shown(excerpt(text, 60))}" for n, text in enumerate(documents[:3], 1))
        more = f" (+{len(documents) - 3})" if len(documents) > 3 else ""
        table.add_row(
            shown(traced.trace_id[:16]),
            "yes" if not request.unscorable else f"[yellow]{_label(request.unscorable.value)}[/yellow]",
            shown(excerpt(request.question, 120)),
            f"{len(documents)}: {listed}{more}" if documents else "–",
            shown(excerpt(request.answer, 120)),
        )
    out.print(table)
    mapped = sum(1 for traced in found.traces if traced.mapping is not None)
    out.print(
        f"{found.scorable} of {len(found.traces)} would be scored"
        f" ({found.scorable_by_rules} by the rules alone; {mapped} read through a mapping)."
    )
    for code, count in found.reasons.most_common():
        explanation = explain(code)
        what = f"{explanation.label}: {explanation.hint}" if explanation else code.replace("_", " ")
        out.print(f"  {count} × {shown(what)}", soft_wrap=True)


def _label(code: str) -> str:
    explanation = explain(code)
    return explanation.label if explanation is not None else code
