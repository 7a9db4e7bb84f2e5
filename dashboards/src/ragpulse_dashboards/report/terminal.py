"""The report in a terminal, with rich tables; a report over several services names each variant's service
and compares each service's variants with that service's own baseline."""

from __future__ import annotations

from ragpulse_core.printable import excerpt, shown
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragpulse_dashboards.alerts.state import FIRING
from ragpulse_dashboards.report.compare import baseline_first
from ragpulse_dashboards.report.format import (
    AGREEMENT_HEADERS,
    AGREEMENT_NOTE,
    OUTCOMES_NOTE,
    above_threshold,
    agreement_cells,
    alert_key,
    alert_since,
    alerts_heading,
    interval_name,
    judgement,
    means_note,
    milliseconds,
    not_scored,
    notifications_heading,
    number,
    outcome_line,
    percent,
    quiet_alert,
    rate_with_interval,
    seconds,
    spend_cost,
    unscored_hint,
    unscored_label,
    variant_label,
    verdict_with_interval,
)
from ragpulse_dashboards.report.model import ReportData
from ragpulse_dashboards.report.people import (
    CORRECTED_HEADERS,
    FIGURES_HEADERS,
    FIGURES_NOTE,
    USER_NOTE,
    PeopleFigures,
    corrected_cells,
    corrected_note,
    figures_cells,
)
from ragpulse_dashboards.report.services import hallucination_alert_firing
from ragpulse_dashboards.rootcause.cause import cause_line, days_before
from ragpulse_dashboards.rootcause.figures import RootCauseFigures


def render_terminal(data: ReportData, console: Console) -> None:
    scope = f"service {data.service}" if data.service else "all services"
    console.rule(
        f"[bold]ragpulse report[/bold] · {shown(scope)} · since {data.since:%Y-%m-%d %H:%M} UTC"
        " (all times UTC)"
    )
    # The story first: is B better than A, what needs acting on (alerts can fire on a window without
    # requests: a stall), and the requests that show it.
    if data.differences:
        console.print(_verdict(data))
    if data.alerts:
        console.print(_alerts_table(data))
    if data.notifications.failed_total:
        console.print(_notifications_table(data))
    if not data.requests:
        console.print("No RAG requests in this window. Is traffic reaching the collector?")
        return
    if data.rootcause is not None and data.rootcause.causes:
        console.print(_where(data.rootcause, data.spans_services))
    if data.worst:
        console.print(_worst_table(data))
    if data.rootcause is not None and data.rootcause.topics:
        console.print(_topics_table(data.rootcause, data.spans_services))
    if data.rootcause is not None and data.rootcause.conversations:
        console.print(_conversations(data.rootcause))
    scoring = data.scoring
    console.print(
        f"requests [bold]{data.requests}[/bold] · scored [bold]{scoring.scored}[/bold]"
        f" ({percent(scoring.share_scored)}) · not scored (cannot be judged) {data.not_scored_total}"
        f" · scoring lag p50 {seconds(scoring.lag_p50_s)},"
        f" p95 {seconds(scoring.lag_p95_s)} · judge errors {scoring.judge_errors}"
    )
    if data.unscored:
        console.print(_not_scored(data))
    if data.outcomes:
        console.print(_outcomes(data))
    console.print(_traffic_table(data))
    console.print(_hallucination_table(data))
    if data.pass_rates:
        console.print(_pass_rate_table(data))
    if data.metrics:
        console.print(_metrics_table(data))
    if data.template_versions:
        console.print(_template_versions_table(data))
    if data.latency:
        console.print(_latency_table(data))
    if data.spend:
        console.print(_spend_table(data))
    if data.agreement:
        console.print(_agreement_table(data))
    if data.people is not None:
        for table in _people_tables(data.people):
            console.print(table)
    if scoring.outcomes or scoring.refused:
        console.print(_outcomes_table(data))


def _where(figures: RootCauseFigures, spans_services: bool) -> str:
    """Each service's cause in one line, against the days before the window."""
    lines = [f"[bold]Where the change sits[/bold] (this window against {days_before(figures.baseline_days)})"]
    for found in figures.causes:
        service = f"{shown(found.service)}: " if spans_services else ""
        lines.append(f"  {service}{shown(found.cause.text().removeprefix('Where: '))}")
    return "\n".join(lines)


def _topics_table(figures: RootCauseFigures, spans_services: bool) -> Table:
    table = Table(title="Topics of the questions (learnt from their words)", title_justify="left")
    for header in ("topic", "hallucination [95% CI]", "n", "before", "example"):
        table.add_column(header, justify="right" if header == "n" else "left")
    for row in figures.topics:
        name = f"{row.service} · {row.name}" if spans_services else row.name
        example = row.examples[0].question if row.examples else ""
        table.add_row(
            shown(name) + (" [yellow]new[/yellow]" if row.new else ""),
            shown(f"{percent(row.window.rate)} [{percent(row.window.low)}, {percent(row.window.high)}]"),
            str(row.window.n),
            "–" if row.new else shown(percent(row.baseline.rate)),
            shown(excerpt(example, 60)),
        )
    return table


def _conversations(figures: RootCauseFigures) -> str:
    return "\n".join(
        f"conversations with an unsupported answer · {shown(found.service)}: {found.unsupported} of"
        f" {found.conversations} ({shown(found.rate.text())})"
        for found in figures.conversations
    )


def _agreement_table(data: ReportData) -> Table:
    table = Table(title="Can the free judge be trusted here? (online agreement)", title_justify="left",
                  caption=AGREEMENT_NOTE)  # fmt: skip
    for index, header in enumerate(AGREEMENT_HEADERS):
        table.add_column(header, justify="right" if index == 3 else "left")
    for row in data.agreement:
        table.add_row(*(shown(cell) for cell in agreement_cells(row)))
    return table


def _people_tables(people: PeopleFigures) -> list[Table]:
    """Judges against people: reviewer figures, end-user figures apart, and the corrected rates."""
    tables = []
    for title, note, rows in (
        ("Judges against people (reviewer labels)", FIGURES_NOTE, people.reviewer),
        ("Judges against end-user feedback (apart from reviewers)", USER_NOTE, people.user),
    ):
        if not rows:
            continue
        table = Table(title=title, title_justify="left", caption=note)
        for header in FIGURES_HEADERS:
            table.add_column(header)
        for row in rows:
            table.add_row(*(shown(cell) for cell in figures_cells(row)))
        tables.append(table)
    if people.corrected:
        table = Table(title="Hallucination rate corrected for the judge's errors", title_justify="left",
                      caption=corrected_note(people.corrected))  # fmt: skip
        for header in CORRECTED_HEADERS:
            table.add_column(header)
        for corrected in people.corrected:
            table.add_row(*(shown(cell) for cell in corrected_cells(corrected)))
        tables.append(table)
    return tables


def _named(data: ReportData, variant: str, service: str) -> str:
    return shown(variant_label(variant, service if data.spans_services else None))


def _outcomes(data: ReportData) -> str:
    lines = [f"[dim]{escape(OUTCOMES_NOTE)}[/dim]"]
    lines += [escape(outcome_line(row, data.spans_services)) for row in data.outcomes]
    return "\n".join(lines)


def _not_scored(data: ReportData) -> str:
    """The requests no judge may score, and for each reason what would let them be scored."""
    lines = [f"[yellow]{escape(not_scored(data))}[/yellow] · list them: ragpulse requests --unscored"]
    lines += [
        f"  [dim]{escape(unscored_label(reason.code))}: {escape(unscored_hint(reason.code))}[/dim]"
        for reason in data.unscored
    ]
    return "\n".join(lines)


def _verdict(data: ReportData) -> Table:
    first = data.differences[0]
    one_pair = len({(d.service, d.variant, d.baseline) for d in data.differences}) == 1
    title = (
        f"Is {shown(variant_label(first.variant))} better than {shown(variant_label(first.baseline))}?"
        if one_pair
        else "Is each variant better than its service's baseline?"
    )
    table = Table(title=f"{title} (difference, 95% interval)", title_justify="left")
    if data.spans_services:
        table.add_column("service")
    table.add_column("compared")
    table.add_column("metric")
    table.add_column("scorer")
    table.add_column("verdict", ratio=1)
    for difference in data.differences:
        style = {"better": "green", "worse": "red"}.get(judgement(difference), "")
        said = shown(verdict_with_interval(difference))
        table.add_row(
            *([shown(difference.service)] if data.spans_services else []),
            shown(f"{variant_label(difference.variant)} − {variant_label(difference.baseline)}"),
            "[bold]hallucination rate[/bold]" if difference.is_rate else shown(difference.metric),
            shown(difference.scorer),
            f"[{style}]{said}[/{style}]" if style else said,
        )
    return table


def _notifications_table(data: ReportData) -> Table:
    """Alert notifications that did not reach their destination."""
    log = data.notifications
    table = Table(title=notifications_heading(log.failed_total, log.delivered_total), title_justify="left")
    for column in ("destination", "alert", "attempts", "last error", "last try (UTC)"):
        table.add_column(column, justify="right" if column == "attempts" else "left")
    for sent in log.failed:
        table.add_row(
            shown(sent.destination),
            f"{shown(sent.event)} {shown(sent.summary)}",
            str(sent.attempts),
            f"[red]{shown(sent.error)}[/red]",
            f"{sent.at:%m-%d %H:%M:%S}",
        )
    return table


def _alerts_table(data: ReportData) -> Table:
    table = Table(
        title=alerts_heading(len(data.firing_alerts), len(data.resolved_alerts)), title_justify="left"
    )
    # The summary says the value, its interval and the labels; the key under it is what the rule and its
    # settings are named by. Columns of their own squeezed the summary to a word a line at 80 columns.
    for column in ("state", "alert", "since (UTC)"):
        table.add_column(column, no_wrap=column != "alert")
    for alert in data.alerts:
        style = "red" if alert.state == FIRING else "green"
        where = cause_line(alert.cause)
        said = f"{shown(alert.summary)}\n{shown(where)}" if where else shown(alert.summary)
        table.add_row(
            f"[{style}]{shown(alert.state)}[/{style}]",
            f"{said}\n[dim]{escape(alert_key(alert))}[/dim]",
            alert_since(alert),
            style="red" if alert.state == FIRING else None,
        )
    return table


def _traffic_table(data: ReportData) -> Table:
    table = Table(title="Traffic per variant", title_justify="left")
    for column in ("variant", "requests", "errors", "scored", "share scored"):
        table.add_column(column, justify="left" if column == "variant" else "right")
    for row in data.variants:
        share = row.scored / row.requests if row.requests else None
        table.add_row(
            _named(data, row.variant, row.service),
            str(row.requests),
            str(row.errors),
            str(row.scored),
            percent(share),
        )
    return table


def _template_versions_table(data: ReportData) -> Table:
    table = Table(
        title="Per prompt template version, learnt from each service's traffic (ragpulse assembly templates)",
        title_justify="left",
    )
    for column in ("service", "version", "requests", "not scored", "judged", "hallucination rate [95% CI]"):
        table.add_column(column, justify="left" if column in ("service", "version") else "right")
    for row in data.template_versions:
        table.add_row(
            shown(row.service), row.version, str(row.requests), str(row.not_scored), str(row.hallucination.n),
            rate_with_interval(row.hallucination),
        )
    return table


def _pass_rate_table(data: ReportData) -> Table:
    table = Table(
        title=f"Evaluators: pass rate per variant ({interval_name(row.rate for row in data.pass_rates)};"
        " red below the evaluator's alert threshold)",
        title_justify="left",
    )
    for column in ("evaluator", "variant", "judged", "passed", "pass rate [95% CI]", "alert below"):
        table.add_column(column, justify="left" if column in ("evaluator", "variant") else "right")
    for row in data.pass_rates:
        threshold = data.pass_thresholds.get(row.scorer)
        rate = rate_with_interval(row.rate)
        low = threshold is not None and row.rate.n > 0 and row.rate.value < threshold
        table.add_row(
            shown(row.scorer),
            _named(data, row.variant, row.service),
            str(row.rate.n),
            str(row.rate.successes),
            f"[bold red]{rate}[/bold red]" if low else rate,
            percent(threshold) if threshold is not None else "–",
        )
    return table


def _hallucination_table(data: ReportData) -> Table:
    limit = data.hallucination_threshold
    table = Table(
        title=f"Hallucination rate per variant ({interval_name(row.rate for row in data.hallucination)}"
        + (f"; red above the alert threshold {percent(limit)})" if limit is not None else ")"),
        title_justify="left",
    )
    for column in ("scorer", "variant", "scored", "hallucinated", "rate [95% CI]"):
        table.add_column(column, justify="left" if column in ("scorer", "variant") else "right")
    table.add_column("alert", ratio=1)
    if not data.hallucination:
        table.add_row("–", "–", "0", "0", "not scored yet", "")
    for row in data.hallucination:
        marker = (
            " *"
            if row.scorer == data.primary_scorer and len({r.scorer for r in data.hallucination}) > 1
            else ""
        )
        bad = above_threshold(row.rate.value, data.hallucination_threshold)
        rate = rate_with_interval(row.rate)
        firing = hallucination_alert_firing(data, row.service, row.variant)
        note = (
            quiet_alert(
                row.rate, limit, data.alert_limits, firing, data.hallucination_check(row.service, row.variant)
            )
            if row.scorer == data.primary_scorer
            else ""
        )
        table.add_row(
            shown(row.scorer) + marker,
            _named(data, row.variant, row.service),
            str(row.rate.n),
            str(row.rate.successes),
            f"[bold red]{rate}[/bold red]" if bad else rate,
            "[red]firing[/red]" if firing and not note else shown(note),
        )
    return table


def _metrics_table(data: ReportData) -> Table:
    variants = baseline_first(row.variant for row in data.metrics)
    title = f"Mean score per variant (n scored){means_note(data.metrics)}"
    table = Table(title=title, title_justify="left")
    if data.spans_services:
        table.add_column("service")
    table.add_column("scorer")
    table.add_column("metric")
    for variant in variants:
        table.add_column(f"variant {shown(variant_label(variant))}", justify="right")
    cells = {(row.service, row.scorer, row.metric, row.variant): row for row in data.metrics}
    for service, scorer, metric in sorted({(row.service, row.scorer, row.metric) for row in data.metrics}):
        values = []
        for variant in variants:
            cell = cells.get((service, scorer, metric, variant))
            values.append(f"{number(cell.mean, 3)} ({cell.n})" if cell else "–")
        table.add_row(
            *([shown(service)] if data.spans_services else []), shown(scorer), shown(metric), *values
        )
    return table


def _latency_table(data: ReportData) -> Table:
    table = Table(title="Latency per step", title_justify="left")
    for column in ("step", "spans", "p50", "p95"):
        table.add_column(column, justify="left" if column == "step" else "right")
    for row in data.latency:
        table.add_row(shown(row.step), str(row.count), milliseconds(row.p50_ms), milliseconds(row.p95_ms))
    return table


def _worst_table(data: ReportData) -> Table:
    table = Table(
        title=f"Worst requests (judge: {shown(data.primary_scorer or '')}; support: how well the weakest"
        " claim sentence is backed by the context, 0 none to 1 fully)",
        title_justify="left",
        show_lines=True,
    )
    table.add_column("trace / variant", no_wrap=True)
    table.add_column("support (0-1)", justify="right")
    table.add_column("question · answer · unsupported sentences", ratio=1)
    for row in data.worst:
        label = "[red]hallucinated[/red]" if row.hallucinated else "[green]supported[/green]"
        lines = [
            f"[bold]Q[/bold] {escape(excerpt(row.question, 120))}",
            f"[bold]A[/bold] {escape(excerpt(row.answer, 200))}",
            *(f"[red]✗[/red] {escape(excerpt(sentence, 200))}" for sentence in row.unsupported),
        ]
        table.add_row(
            f"{shown(row.trace_id[:16])}\n{_named(data, row.variant, row.service)} · {label}",
            number(row.support, 3),
            "\n".join(lines),
        )
    return table


def _spend_table(data: ReportData) -> Table:
    table = Table(title="Judge spend per day", title_justify="left")
    for column in ("day", "scorer", "requests", "input tokens", "output tokens", "cost"):
        table.add_column(column, justify="left" if column in ("day", "scorer") else "right")
    for row in data.spend:
        table.add_row(
            shown(row.day),
            shown(row.scorer),
            str(row.scored),
            f"{row.input_tokens:,}",
            f"{row.output_tokens:,}",
            shown(spend_cost([row])),
        )
    return table


def _outcomes_table(data: ReportData) -> Table:
    table = Table(title="Scoring log outcomes", title_justify="left")
    table.add_column("scorer: outcome")
    table.add_column("candidates", justify="right")
    for key, count in data.scoring.outcomes.items():
        table.add_row(shown(key), str(count))
    for kind, count in data.scoring.refused.items():
        table.add_row(shown(f"refused: {kind}"), str(count))
    return table
