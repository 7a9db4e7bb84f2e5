"""What ``ragpulse report``, ``requests`` and ``alerts`` print, rendered by the same code whether the command
opens the store itself or reads through a running ``ragpulse serve``.

Embedded chDB lets one process open a database, so while ``serve`` holds it the commands ask its live page
(``GET /api/v1/<view>``, behind the read token), which renders the view here on its reader thread for the
caller's terminal width and colours (:mod:`ragpulse_dashboards.commands.serve_reads`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime

from ragpulse_assembly.preview import preview, print_preview
from ragpulse_assembly.readings import template_readers
from ragpulse_assembly.template_listing import list_templates
from ragpulse_core.cli import invoked_as, store_hint
from ragpulse_core.printable import excerpt, printable, shown
from ragpulse_core.store import Store, StoreUnavailable, describe_dsn
from ragpulse_scorers.evaluators.stored import stored_requests
from ragpulse_scorers.evaluators.trials import stored_to_json
from ragpulse_scorers.rules.model import DEFAULT_RULE
from ragpulse_scorers.rules.preview import preview_rules, print_rules_preview, with_rules
from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table

from ragpulse_dashboards.alerts import AlertRecord, load_alerts
from ragpulse_dashboards.alerts.rules import SCORING_STALLED, SUPPORT_DROP
from ragpulse_dashboards.alerts.state import FIRING, count_resolved
from ragpulse_dashboards.commands.read_query import ReadQuery, Shown
from ragpulse_dashboards.report import queries, render_html, render_terminal
from ragpulse_dashboards.report.collect import collect_alerting_report
from ragpulse_dashboards.report.format import unscored_hint, unscored_label
from ragpulse_dashboards.report.model import RequestLine
from ragpulse_dashboards.rootcause.cause import Cause
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_dashboards.since import parse_since


def show(
    query: ReadQuery,
    store: Store,
    settings: DashboardsSettings,
    console: Console,
    errors: Console | None = None,
) -> Shown:
    """Print ``query``'s view of ``store`` on ``console``, or why it cannot be read on ``errors`` (default
    ``console``) with code 1."""
    try:
        if query.view == "report":
            return _report(query, store, settings, console)
        if query.view == "requests":
            return _requests(query, store, console)
        if query.view == "assembly-preview":
            return _assembly_preview(query, store, settings, console)
        if query.view == "assembly-templates":
            since = parse_since(query.since)
            return Shown(list_templates(store, since, query.service or None, console, query.pin))
        if query.view == "rules-preview":
            return _rules_preview(query, store, settings, console)
        if query.view == "evaluator-requests":
            return _evaluator_requests(query, store, console)
        return _alerts(query, store, console)
    except StoreUnavailable as exc:
        (errors or console).print(_unreadable(query.view, store, exc), soft_wrap=True, highlight=False)
        return Shown(1)


def _unreadable(view: str, store: Store, exc: StoreUnavailable) -> str:
    """Why ``view`` cannot be read, in one line, and what to do when that is known."""
    reason = escape(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
    if view == "requests":
        return f"[red]cannot read the requests:[/red] {reason}"
    hint = store_hint(exc)
    if view == "alerts":
        return f"[red]error:[/red] {reason}" + (f"\n{escape(hint)}" if hint else "")
    missing = "UNKNOWN_TABLE" in str(exc) or "UNKNOWN_DATABASE" in str(exc)
    return f"[red]cannot read the ragpulse tables at {escape(describe_dsn(store.dsn))}[/red]: {reason}" + (
        f"\nRun `{invoked_as()} migrate` (or `demo`) first, or pass --dsn." if missing else ""
    )


def _report(query: ReadQuery, store: Store, settings: DashboardsSettings, console: Console) -> Shown:
    data = collect_alerting_report(
        store, parse_since(query.since), query.service or None, settings.alerts, settings.judge.prices
    )
    render_terminal(data, console)
    return Shown(0, render_html(data) if query.html else None)


def _requests(query: ReadQuery, store: Store, console: Console) -> Shown:
    since = parse_since(query.since)
    params = {"since_ms": int(since.timestamp() * 1000), "service": query.service}
    lines = queries.request_lines(store, params, query.unscored, query.limit)
    console.print(request_listing(lines, query.unscored, f"{since:%Y-%m-%d %H:%M} UTC"))
    counts = Counter(line.unscorable for line in lines if line.unscorable)
    for code, count in counts.most_common():
        console.print(
            f"[yellow]{count} not scored: {escape(unscored_label(code))}[/yellow]"
            f" · {escape(unscored_hint(code))}"
        )
    return Shown(0)


def _rules_preview(query: ReadQuery, store: Store, settings: DashboardsSettings, console: Console) -> Shown:
    chosen = with_rules(settings, query.rules) if query.rules else settings
    known = [rule.name for rule in chosen.rules] + [DEFAULT_RULE]
    if query.rule and query.rule not in known:
        raise ValueError(f"no rule named {query.rule!r} in [[rules]] (rules: {', '.join(known)})")
    now = datetime.now(UTC)
    found = preview_rules(store, chosen, now - parse_since(query.since), now)
    print_rules_preview(found, console, query.rule or None)
    return Shown(0)


def reads_document(span: Sequence[str], resource: Sequence[str], requires: Sequence[str]) -> str:
    """What an evaluator reads of a request, as the read API carries it."""
    return json.dumps({"span": list(span), "resource": list(resource), "requires": list(requires)})


def _evaluator_requests(query: ReadQuery, store: Store, console: Console) -> Shown:
    """Stored requests as JSON lines: the caller judges them (its config's evaluator runs there, not here)."""
    try:
        reads = json.loads(query.reads) if query.reads else {}
        span, resource, requires = (
            [str(name) for name in reads.get(key, [])] for key in ("span", "resource", "requires")
        )
    except (ValueError, TypeError, AttributeError):
        raise ValueError("reads must be a JSON object of span, resource and requires lists") from None
    found = stored_requests(
        store,
        since=parse_since(query.since),
        trace_id=query.trace or None,
        service=query.service or None,
        limit=query.limit,
        attributes=(span, resource),
        requires=requires,
    )
    console.file.write(stored_to_json(found))
    return Shown(0)


def _assembly_preview(
    query: ReadQuery, store: Store, settings: DashboardsSettings, console: Console
) -> Shown:
    if not query.service:
        raise ValueError("an assembly preview names its service")
    window = datetime.now(UTC) - parse_since(query.since)
    readers = template_readers(settings.assembly.templates, store)
    found = preview(store, query.service, tuple(settings.assembly.mappings), query.limit, window, readers)
    print_preview(found, console)
    return Shown(0)


def request_listing(lines: list[RequestLine], unscored_only: bool, since: str) -> Group | str:
    """One short block per request, readable at 80 columns: when, which trace and service, the verdict (or
    why it has none), then its question and answer, each on a line of its own."""
    if not lines:
        kind = "unscorable requests" if unscored_only else "requests"
        return f"No {kind} since {since}."
    title = (
        f"[bold]{'Unscorable requests' if unscored_only else 'Requests'} since {since}[/bold], newest first"
    )
    blocks = Table.grid(padding=(0, 1))
    blocks.add_column(width=8, no_wrap=True)
    blocks.add_column(overflow="fold")
    for index, line in enumerate(lines):
        if index:
            blocks.add_row("", "")
        where = f"{line.service_name} · {line.source} · context from {line.context_source or '–'}"
        said = [
            f"[bold]{shown(line.trace_id[:16])}[/bold]  {shown(where)}",
            _verdict(line),
            f"[dim]Q[/dim] {shown(excerpt(line.question, 240))}"
            if line.question
            else "[dim]Q (none recorded)[/dim]",
            f"[dim]A[/dim] {shown(excerpt(line.answer, 240))}"
            if line.answer
            else "[dim]A (none recorded)[/dim]",
        ]
        blocks.add_row(f"{line.timestamp:%H:%M:%S}", "\n".join(said))
    return Group(title + " (times UTC)", blocks)


def _text(mark: str, text: str) -> str:
    return f"[dim]{mark}[/dim] {shown(excerpt(text, 240))}" if text else f"[dim]{mark} (none recorded)[/dim]"


def _verdict(line: RequestLine) -> str:
    if line.unscorable:
        return f"[yellow]not scored: {escape(unscored_label(line.unscorable))}[/yellow]"
    if not line.verdict:
        return "[dim]not scored yet[/dim]"
    style = "red" if line.verdict == "hallucinated" else "green"
    return f"[{style}]{line.verdict}[/{style}] (judge: {shown(line.judge)})"


def _alerts(query: ReadQuery, store: Store, console: Console) -> Shown:
    if not store.query(f"EXISTS TABLE {store.table('ragpulse_alerts')}")[0][0]:
        console.print("no alerts recorded (no alert has been evaluated on this store yet)")
        return Shown(0)
    print_alerts(store, console, include_resolved=query.include_resolved)
    return Shown(0)


def print_alerts(store: Store, console: Console, *, include_resolved: bool) -> None:
    """The firing alerts (and the resolved ones with ``include_resolved``), counted right either way."""
    records = load_alerts(store, include_resolved=include_resolved)
    resolved = count_resolved(store)
    if not records:
        more = f"; {resolved} resolved (--all lists them)" if resolved else ""
        console.print(f"no alerts firing{more}" if not include_resolved else "no alerts recorded")
        return
    console.print(listing(records, resolved, include_resolved))


def listing(records: list[AlertRecord], resolved: int | None = None, include_resolved: bool = True) -> Group:
    """``records`` one block each, under a title counting the firing and the resolved (``resolved`` of
    them, listed or not; by default those among ``records``)."""
    firing = sum(record.state == FIRING for record in records)
    if resolved is None:
        resolved = len(records) - firing
    more = "" if include_resolved or not resolved else "; --all lists the resolved"
    title = f"[bold]ragpulse alerts[/bold]: {firing} firing, {resolved} resolved{more} (times UTC)"
    blocks = Table.grid(padding=(0, 1))
    blocks.add_column(width=8, no_wrap=True)
    blocks.add_column(overflow="fold")
    for index, record in enumerate(records):
        if index:
            blocks.add_row("", "")
        blocks.add_row(*_block(record))
    return Group(title, blocks)


def _block(record: AlertRecord) -> tuple[str, str]:
    key = record.key
    parts = (key.rule, key.service, key.variant, record.scorer)
    labels = " · ".join(printable(part) for part in parts if part)
    if key.rule == SCORING_STALLED:
        value = f"{record.value:.0f} scores for {record.samples} requests"
    else:
        interval = f" [{record.lower:.3f}–{record.upper:.3f}]" if record.upper > record.lower else ""
        bound = "baseline lower bound" if key.rule == SUPPORT_DROP else "threshold"
        value = f"{record.value:.3f}{interval}, n={record.samples}, {bound} {record.threshold:.3f}"
    when = f"fired {_when(record.fired_at)}"
    if record.resolved_at is not None:
        when += f", resolved {_when(record.resolved_at)}"
    lines = [f"[bold]{escape(labels)}[/bold]", escape(value), when, shown(record.summary)]
    cause = Cause.from_json(record.cause)
    if cause is not None:
        lines.append(shown(cause.text()))
    if record.notify_error:
        lines.append(f"[yellow]notify failed: {shown(record.notify_error)}[/yellow]")
    state = (
        f"[bold red]{record.state}[/bold red]" if record.state == FIRING else f"[green]{record.state}[/green]"
    )
    return state, "\n".join(lines)


def _when(value: datetime) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S")
