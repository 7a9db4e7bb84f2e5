"""The report as one self-contained HTML file: inline CSS and SVG, no scripts, opens offline.

Traced strings (questions, answers, variant and service names) are untrusted: every one is escaped and its
control characters neutralised (:func:`~ragpulse_dashboards.report.format.html_text`). The headline (tiles,
and one row per service when the report spans several) comes first; each service's variants are compared with
that service's own baseline.
"""

from __future__ import annotations

import base64
import hashlib
import math
from collections import defaultdict
from dataclasses import dataclass
from urllib.parse import quote

from ragpulse_core.printable import excerpt
from ragpulse_scorers.metric_names import COUNT_METRICS, SUPPORT

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
    alert_threshold,
    alert_value,
    alerts_heading,
    clock,
    dollars,
    html_text,
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
    signed_difference,
    spend_cost,
    unscored_hint,
    unscored_label,
    variant_label,
    verdict,
)
from ragpulse_dashboards.report.glossary import GLOSSARY, term
from ragpulse_dashboards.report.html_blocks import card as _card
from ragpulse_dashboards.report.html_blocks import cards as _cards
from ragpulse_dashboards.report.html_blocks import table as _table
from ragpulse_dashboards.report.model import Difference, MetricRow, Rate, ReportData
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
from ragpulse_dashboards.report.rootcause_html import (
    conversations_card,
    request_href,
    topics_card,
    where_card,
)
from ragpulse_dashboards.report.services import ServiceRow, hallucination_alert_firing, service_rows
from ragpulse_dashboards.report.svg import Bar, Point, Threshold, bar_chart, line_chart
from ragpulse_dashboards.rootcause.cause import cause_line
from ragpulse_dashboards.rootcause.figures import RequestRef

_STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f8fafc;
color:#0f172a}
main{max-width:1180px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px}
.sub{color:#475569;margin:0 0 16px}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:10px}
.tile{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:10px 12px}
.tile b{display:block;font-size:20px}.tile span{color:#475569;font-size:12px}
.grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(520px,1fr));gap:16px}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:12px 14px;overflow-x:auto}
.card h2{margin-top:0}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid #e2e8f0;vertical-align:top}
th{background:#f1f5f9;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}
.chart{width:100%;max-width:640px;height:auto;display:block;margin:0 auto}
.chart .grid{stroke:#e2e8f0}.chart .tick{font-size:11px;fill:#475569}
.chart .value{font-size:11px;fill:#0f172a}.chart .errorbar{stroke:#0f172a;stroke-width:1.5;fill:none}
.bad{color:#b91c1c;font-weight:600}.good{color:#15803d}.muted{color:#64748b}
.tile.alarm{border-color:#dc2626;background:#fef2f2}.tile.alarm b{color:#b91c1c}
.verdict{font-size:18px;margin:4px 0 10px}.verdict.worse{color:#b91c1c}.verdict.better{color:#15803d}
.verdict small{display:block;font-size:13px;color:#475569;font-weight:400}
dl.glossary{display:grid;grid-template-columns:max-content 1fr;gap:4px 14px;margin:0}
dl.glossary dt{font-weight:600}dl.glossary dd{margin:0}
.unsupported{color:#b91c1c;margin:2px 0}.mono{font-family:ui-monospace,Menlo,monospace;font-size:12px}
.tile small{display:block;color:#b45309;font-size:11px;margin-top:2px}
nav.services{display:flex;flex-wrap:wrap;gap:6px;margin:0 0 12px}
nav.services a{padding:3px 10px;border:1px solid #cbd5e1;border-radius:14px;color:#1e3a8a;
text-decoration:none;background:#fff}nav.services a[aria-current]{background:#1e3a8a;color:#fff}
main>section,main>.grid2{margin-top:16px}
form.signin{display:flex;gap:8px;align-items:center;margin:16px 0}form.signin input{padding:6px 8px;
border:1px solid #cbd5e1;border-radius:6px;min-width:280px}form.signin button{padding:6px 14px}
ol.sentences li{margin:4px 0}.flag{color:#b91c1c;font-size:12px;margin-left:6px}.why{color:#1e3a8a}
.tag{display:inline-block;padding:0 6px;border-radius:8px;background:#fef3c7;color:#92400e;font-size:11px}
.card h3{font-size:14px;margin:14px 0 4px}
.evidence{font-size:12px;color:#334155;margin:2px 0 2px 22px}.used{display:inline-block;padding:0 6px;
border-radius:8px;background:#dbeafe;color:#1e3a8a;font-size:11px;margin-left:4px}
ol.ranking{margin:0;padding-left:20px}ol.chunks li{margin:6px 0}.chart.waterfall{max-width:900px;margin:0}
a.button,form.label button{display:inline-block;padding:6px 14px;border:1px solid #1e3a8a;border-radius:6px;
background:#1e3a8a;color:#fff;text-decoration:none;font:inherit;cursor:pointer}
form.label input[name=author],form.label input[name=note]{padding:5px 8px;border:1px solid #cbd5e1;
border-radius:6px}form.label input[name=note]{min-width:320px}
"""
# The live page's Content-Security-Policy allows this style sheet by its hash, and no inline script at all.
STYLE_HASH = "sha256-" + base64.b64encode(hashlib.sha256(_STYLE.encode()).digest()).decode()
_DOCUMENT_POLICY = f"default-src 'none'; style-src '{STYLE_HASH}'; form-action 'self'; base-uri 'none'"
# frame-ancestors only counts in a header (a <meta> policy cannot forbid framing).
CONTENT_SECURITY_POLICY = f"{_DOCUMENT_POLICY}; frame-ancestors 'none'"


@dataclass(frozen=True)
class ServiceSelector:
    """The live page's links to each service's view and to all services (``current`` None)."""

    services: list[str]
    current: str | None


def service_link(service: str | None) -> str:
    # surrogatepass: a name holding a lone surrogate still gets a link rather than failing the page
    return "./" if service is None else f"./?service={quote(service, safe='', errors='surrogatepass')}"


def render_html(
    data: ReportData, refresh_s: int | None = None, selector: ServiceSelector | None = None
) -> str:
    """The report page; ``refresh_s`` makes it reload itself and ``selector`` links each service's view (the
    live page of ``ragpulse serve``)."""
    scope = f"service {data.service}" if data.service is not None else "all services"
    refresh = f"<meta http-equiv='refresh' content='{refresh_s}'>" if refresh_s else ""
    live = f" · reloads every {refresh_s} s" if refresh_s else ""
    sections = [
        f"<h1>ragpulse report · {html_text(scope)}</h1><p class='sub'>requests since"
        f" {data.since:%Y-%m-%d %H:%M} UTC · generated {data.generated_at:%Y-%m-%d %H:%M:%S} UTC{live}"
        " · all times are UTC</p>",
    ]
    if selector is not None:
        sections.append(selector_links(selector))
        sections.append(_review_link(selector.current))
    # The headline first: the tiles, each service's verdict, what is on fire, and the requests that show it.
    sections.append(_tiles(data))
    if data.spans_services:
        sections.append(_services_card(data))
    if data.requests:
        sections.append(_verdict_card(data))
    if data.alerts:
        sections.append(_alerts_card(data))
    if data.notifications.failed_total or data.notifications.delivered_total:
        sections.append(_notifications_card(data))
    linked = selector is not None
    rootcause = data.rootcause
    if rootcause is not None and rootcause.causes:
        sections.append(where_card(rootcause, data.spans_services, linked))
    if data.worst:
        sections.append(_worst_card(data, linked))
    if rootcause is not None and rootcause.topics:
        sections.append(topics_card(rootcause, data.spans_services, linked))
    if rootcause is not None and rootcause.conversations:
        sections.append(conversations_card(rootcause, data.spans_services, linked))
    if data.unscored:
        sections.append(_not_scored_card(data))
    if data.outcomes:
        sections.append(_outcomes_card(data))
    if data.agreement:
        sections.append(_agreement_card(data))
    if data.people is not None and (data.people.reviewer or data.people.user or data.people.corrected):
        sections.append(_people_card(data.people))
    if data.requests:
        sections += [
            _cards(_hallucination_series_card(data), _traffic_card(data)),
            _cards(_hallucination_card(data), _latency_card(data)),
        ]
        if data.pass_rates:
            sections.append(_pass_rate_card(data))
        if data.metrics:
            sections.append(_metrics_card(data))
        if data.template_versions:
            sections.append(_template_versions_card(data))
        sections.append(_cards(_spend_card(data), _scoring_card(data)))
        sections.append(_glossary_card(data))
    else:
        sections.append("<p>No RAG requests in this window. Is traffic reaching the collector?</p>")
    title = f"ragpulse report · {scope}"
    return page(title, "".join(sections), refresh)


def page(title: str, body: str, head: str = "") -> str:
    """A document around ``body`` (HTML): the report's style and policy, no script; ``title`` is text."""
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<meta http-equiv='Content-Security-Policy' content=\"{_DOCUMENT_POLICY}\">"
        f"{head}<title>{html_text(title)}</title><style>{_STYLE}</style></head>"
        f"<body><main>{body}</main></body></html>\n"
    )


def _review_link(service: str | None) -> str:
    """The live page's way to its review queue (where people label requests and the judges are measured)."""
    query = "" if service is None else f"?service={quote(service, safe='', errors='surrogatepass')}"
    return (
        f"<p class='sub'><a href='{html_text(f'./review{query}')}'>Review queue</a>: label requests, and see"
        " each judge against people and the hallucination rate corrected for the free judge's errors</p>"
    )


def selector_links(selector: ServiceSelector) -> str:
    choices = [(None, "All services"), *((service, service) for service in selector.services)]
    links = "".join(
        f"<a href='{html_text(service_link(service))}'"
        f"{' aria-current=page' if service == selector.current else ''}>{html_text(name)}</a>"
        for service, name in choices
    )
    return f"<nav class='services' aria-label='Service'>{links}</nav>"


def _service_of(data: ReportData) -> str | None:
    """The one service a report covers (asked for, or the only one with requests); None for several."""
    if data.service is not None:
        return data.service
    return data.services[0] if len(data.services) == 1 else None


def _name(data: ReportData, variant: str, service: str) -> str:
    """``variant B``, or ``search · variant B`` when the report spans several services."""
    named = f"variant {variant_label(variant)}"
    return f"{service} · {named}" if data.spans_services else named


def _tiles(data: ReportData) -> str:
    scoring = data.scoring
    limit = data.hallucination_threshold
    tiles = [(str(len(data.firing_alerts)), "alerts firing", "", bool(data.firing_alerts))]
    service = _service_of(data)
    if data.spans_services:
        tiles.append((str(len(data.services)), "services", "", False))
    elif service is not None:
        for variant in baseline_first(v.variant for v in data.variants):
            rate = data.primary_rate(variant, service)
            if rate is not None:
                above = f", alert above {percent(limit)}" if limit is not None else ""
                label = f"hallucination · variant {variant_label(variant)} (n={rate.n}{above})"
                firing = hallucination_alert_firing(data, service, variant)
                check = data.hallucination_check(service, variant)
                note = quiet_alert(rate, limit, data.alert_limits, firing, check)
                tiles.append((percent(rate.value), label, note, above_threshold(rate.value, limit)))
    not_scored = sum(row.requests for row in data.not_scored)
    reasons = " · ".join(f"{reason} {count}" for reason, count in _not_scored_by_reason(data).items())
    tiles += [
        (str(data.requests), "requests", "", False),
        (str(sum(variant.errors for variant in data.variants)), "errors", "", False),
        (f"{scoring.scored} ({percent(scoring.share_scored)})", "scored (share of traffic)", "", False),
        (str(not_scored), "not scored (cannot be judged)", reasons, False),
        (f"{seconds(scoring.lag_p50_s)} / {seconds(scoring.lag_p95_s)}", "scoring lag p50 / p95", "", False),
        (str(scoring.judge_errors), "judge errors", "", scoring.judge_errors > 0),
        (spend_cost(data.spend), "judge spend", "", False),
    ]
    return (
        "<div class='tiles'>"
        + "".join(
            f"<div class='tile{' alarm' if alarm else ''}'><b>{html_text(value)}</b>"
            f"<span>{html_text(label)}</span>{f'<small>{html_text(note)}</small>' if note else ''}</div>"
            for value, label, note, alarm in tiles
        )
        + "</div>"
    )


def _not_scored_by_reason(data: ReportData) -> dict[str, int]:
    totals: dict[str, int] = defaultdict(int)
    for row in data.not_scored:
        totals[row.reason] += row.requests
    return dict(sorted(totals.items()))


def _services_card(data: ReportData) -> str:
    rows = [_service_cells(data, row) for row in service_rows(data)]
    table = _table(
        ["service", "requests", "errors", "scored", f"hallucination ({data.primary_scorer or 'no judge'})",
         "against its baseline [95% CI]", "alerts firing", "not scored"],
        rows,
        [False, True, True, True, False, False, True, False],
    )  # fmt: skip
    note = (
        "<p class='muted'>Each service's variants are compared with that service's own baseline (its first"
        " variant by name); requests without a variant label are shown as (no variant).</p>"
    )
    return (
        "<section class='card services-card'><h2>Services (each against its own baseline)</h2>"
        f"{table}{note}</section>"
    )


def _service_cells(data: ReportData, row: ServiceRow) -> list[str]:
    limit = data.hallucination_threshold
    rates = "<br>".join(
        f"{html_text(variant_label(variant))} "
        + (
            f"<span class='bad'>{html_text(rate_with_interval(rate))}</span>"
            if above_threshold(rate.value, limit)
            else html_text(rate_with_interval(rate))
        )
        + _quiet_note(data, rate, row.service, variant)
        for variant, rate in row.rates
    )
    lead = (
        f"<span class='muted'>{html_text(variant_label(row.lead.variant))} −"
        f" {html_text(variant_label(row.lead.baseline))}:</span>"
        f" <span class='{_TONE.get(judgement(row.lead), '')}'>{html_text(verdict(row.lead))}</span>"
        if row.lead is not None
        else "<span class='muted'>nothing to compare</span>"
    )
    if rates and row.judge != data.primary_scorer:
        rates += f"<br><span class='muted'>judged by {html_text(row.judge or '')}</span>"
    not_scored = "<br>".join(f"{html_text(reason)} {count}" for reason, count in row.not_scored.items())
    return [
        f"<a href='{html_text(service_link(row.service))}'>{html_text(row.service)}</a>",
        str(row.requests),
        str(row.errors),
        str(row.scored),
        rates or f"<span class='muted'>{html_text(unrated(row))}</span>",
        lead,
        f"<span class='bad'>{row.firing}</span>" if row.firing else "0",
        not_scored or "0",
    ]


def unrated(row: ServiceRow) -> str:
    """Why a service has no hallucination rate: its requests still wait for a judge, or every judge that saw
    them logged why it left them unscored (the "not scored" column and the scoring outcomes say why)."""
    return "not scored yet" if row.waiting else "no judge scored it (see not scored)"


def _quiet_note(data: ReportData, rate: Rate, service: str, variant: str) -> str:
    firing = hallucination_alert_firing(data, service, variant)
    check = data.hallucination_check(service, variant)
    note = quiet_alert(rate, data.hallucination_threshold, data.alert_limits, firing, check)
    return f" <span class='muted'>({html_text(note)})</span>" if note else ""


def _agreement_card(data: ReportData) -> str:
    table = _table(
        AGREEMENT_HEADERS,
        ([html_text(cell) for cell in agreement_cells(row)] for row in data.agreement),
        [False, False, False, True, False, False],
    )
    return _card("Can the free judge be trusted here? (online agreement)",
                 f"<p class='muted'>{html_text(AGREEMENT_NOTE)}</p>", table)  # fmt: skip


def _people_card(people: PeopleFigures) -> str:
    parts = []
    for note, rows in ((FIGURES_NOTE, people.reviewer), (USER_NOTE, people.user)):
        if rows:
            cells = ([html_text(cell) for cell in figures_cells(row)] for row in rows)
            numeric = [False, False, False, True, False, False, False, False]
            parts += [f"<p class='muted'>{html_text(note)}</p>", _table(FIGURES_HEADERS, cells, numeric)]
    if people.corrected:
        cells = ([html_text(cell) for cell in corrected_cells(row)] for row in people.corrected)
        parts += [f"<p class='muted'>{html_text(corrected_note(people.corrected))}</p>",
                  _table(CORRECTED_HEADERS, cells, [False, False, False, True, False, False])]  # fmt: skip
    return _card("Judges against people", *parts)


def _outcomes_card(data: ReportData) -> str:
    lines = "".join(f"<li>{html_text(outcome_line(row, data.spans_services))}</li>" for row in data.outcomes)
    return _card(
        "Every request's outcome", f"<p class='muted'>{html_text(OUTCOMES_NOTE)}</p><ul>{lines}</ul>"
    )


def _not_scored_card(data: ReportData) -> str:
    """Requests no judge may score, per reason, with what would let them be scored."""
    table = _table(
        ["reason", "requests", "what to do"],
        (
            [html_text(unscored_label(reason.code)), str(reason.count), html_text(unscored_hint(reason.code))]
            for reason in data.unscored
        ),
        [False, True, False],
    )
    note = f"<p>{html_text(not_scored(data))}; no judge reads them.</p>"
    listed = _table(
        ["time (UTC)", "trace", "service", "reason", "question"],
        (
            [
                f"{line.timestamp:%H:%M:%S}",
                f"<span class='mono'>{html_text(line.trace_id)}</span>",
                html_text(line.service_name),
                html_text(unscored_label(line.unscorable)),
                html_text(excerpt(line.question, 120)) if line.question else "<span class='muted'>–</span>",
            ]
            for line in data.unscored_requests
        ),
    )
    newest = (
        f"<p>The newest {len(data.unscored_requests)}, each with its reason"
        " (all of them: <code>ragpulse requests --unscored</code>):</p>"
    )
    return _card("Requests not scored", note, table, newest, listed)


def _template_versions_card(data: ReportData) -> str:
    """Figures per learnt prompt template version: a changed prompt is a new version, so "did the new prompt
    help?" needs no variant named by the service."""
    table = _table(
        ["service", "version", "requests", "not scored", "judged", "hallucination rate [95% CI]"],
        (
            [
                html_text(row.service),
                f"<span class='mono'>{html_text(row.version)}</span>",
                str(row.requests),
                str(row.not_scored),
                str(row.hallucination.n),
                html_text(rate_with_interval(row.hallucination)),
            ]
            for row in data.template_versions
        ),
        [False, False, True, True, True, True],
    )
    note = (
        "<p class='muted'>Each version is a prompt template learnt from the service's own traffic; a changed"
        " prompt is a new version. Their skeletons: <code>ragpulse assembly templates</code>.</p>"
    )
    return _card("Per prompt template version", note, table)


def _verdict_card(data: ReportData) -> str:
    """B − A per service, said plainly: the primary hallucination rate leads, every other metric follows."""
    title = "Is B better than A?" + (" Each service against its own baseline" if data.spans_services else "")
    if not data.differences:
        variants = sorted({variant_label(v.variant) for v in data.variants})
        only = (
            f"only variant {html_text(variants[0])}"
            if len(variants) == 1
            else "no service has two scored variants"
        )
        return _card(title, f"<p class='muted'>Nothing to compare: {only} in this window.</p>")
    parts = [_lead_verdict(data, lead) for lead in data.differences if lead.is_rate]
    service_column = ["service"] if data.spans_services else []
    rows = [
        [
            *([html_text(difference.service)] if data.spans_services else []),
            html_text("hallucination rate" if difference.is_rate else difference.metric),
            html_text(difference.scorer),
            html_text(f"{variant_label(difference.variant)} − {variant_label(difference.baseline)}"),
            html_text(signed_difference(difference)),
            f"<span class='{_TONE.get(judgement(difference), '')}'>{html_text(verdict(difference))}</span>",
        ]
        for difference in data.differences
    ]
    table = _table([*service_column, "metric", "scorer", "compared", "difference [95% CI]", "verdict"], rows,
                   [False] * len(service_column) + [False, False, False, True, False])  # fmt: skip
    note = (
        "<p class='muted'>Rates: Newcombe's interval for a difference of proportions; means: Welch's"
        " interval. “No detectable difference” means the 95% interval includes zero at these sample"
        " sizes.</p>"
    )
    return _card(title, *parts, table, note)


def _lead_verdict(data: ReportData, lead: Difference) -> str:
    base, other = (
        data.primary_rate(lead.baseline, lead.service),
        data.primary_rate(lead.variant, lead.service),
    )
    baseline, variant = variant_label(lead.baseline), variant_label(lead.variant)
    rates = (
        f"{html_text(baseline)} {percent(base.value)} (n={base.n}) → {html_text(variant)}"
        f" {percent(other.value)} (n={other.n})"
        if base is not None and other is not None
        else ""
    )
    service = f"{html_text(lead.service)}: " if data.spans_services else ""
    return (
        f"<p class='verdict {judgement(lead)}'><b>{service}Hallucination rate: {html_text(verdict(lead))}</b>"
        f"<small>{rates} · {html_text(lead.scorer)} judge · difference {html_text(variant)} −"
        f" {html_text(baseline)} with its 95% Newcombe interval, in percentage points</small></p>"
    )


def _glossary_card(data: ReportData) -> str:
    shown_metrics = [*GLOSSARY, *sorted({row.metric for row in data.metrics})]
    entries = "".join(
        f"<dt>{html_text(metric)}</dt><dd>{html_text(term(metric).meaning)}"
        f" <span class='muted'>({_direction(metric)}; {html_text(term(metric).unit or 'custom')})</span></dd>"
        for metric in dict.fromkeys(shown_metrics)
    )
    return _card("What the metrics mean", f"<dl class='glossary'>{entries}</dl>")


def _direction(metric: str) -> str:
    better = term(metric).better
    return "no better direction" if better == "neither" else f"{better} is better"


_TONE = {"better": "good", "worse": "bad"}


def _alerts_card(data: ReportData) -> str:
    rows = [
        [
            f"<span class='{'bad' if alert.state == FIRING else 'good'}'>{html_text(alert.state)}</span>",
            html_text(alert.summary) + _where(alert.cause),
            f"<span class='mono'>{html_text(alert_key(alert))}</span>",
            f"<span class='{'bad' if alert.state == FIRING else ''}'>{html_text(alert_value(alert))}</span>",
            html_text(alert_threshold(alert)),
            html_text(alert_since(alert)),
        ]
        for alert in data.alerts
    ]
    table = _table(
        ["state", "alert", "rule / service / variant", "value [95% CI]", "fired on", "since (UTC)"],
        rows,
        [False, False, False, True, False, False],
    )
    return _card(alerts_heading(len(data.firing_alerts), len(data.resolved_alerts)), table)


def _where(stored: str) -> str:
    """Under an alert on answers: where its change sits."""
    where = cause_line(stored)
    return f"<br><span class='muted'>{html_text(where)}</span>" if where else ""


def _notifications_card(data: ReportData) -> str:
    """Alert notifications that did not reach their destination, so a silent pager is seen here."""
    log = data.notifications
    title = notifications_heading(log.failed_total, log.delivered_total)
    if not log.failed_total:
        return _card(
            title, "<p class='muted'>Every alert notification in this window reached its destination.</p>"
        )
    rows = [
        [
            f"<span class='mono'>{html_text(sent.destination)}</span>",
            f"<span class='{'bad' if sent.event == FIRING else 'good'}'>{html_text(sent.event)}</span>"
            f" {html_text(sent.summary)}",
            str(sent.attempts),
            f"<span class='bad'>{html_text(sent.error)}</span>",
            f"{sent.at:%m-%d %H:%M:%S}",
        ]
        for sent in log.failed
    ]
    table = _table(
        ["destination", "alert", "attempts", "last error", "last try (UTC)"],
        rows,
        [False, False, True, False, False],
    )
    shown = (
        f"the newest {len(log.failed)} of {log.failed_total} listed; "
        if len(log.failed) < log.failed_total
        else ""
    )
    note = (
        f"<p class='muted'>Not delivered after their retries ({shown}the alerts themselves are recorded)."
        " Check the destination's URL or key (<span class='mono'>[[alerts.destinations]]</span>) and that it"
        " is up.</p>"
    )
    return _card(title, note, table)


def _x_clock(data: ReportData) -> bool:
    return data.bucket_s >= 3600


def _traffic_card(data: ReportData) -> str:
    with_date = _x_clock(data)
    series = {
        "requests": [Point(point.bucket, point.requests) for point in data.traffic_series],
        "errors": [Point(point.bucket, point.errors) for point in data.traffic_series],
    }
    chart = line_chart(
        series, lambda x: clock(int(x), with_date), lambda y: f"{y:.0f}", "Requests and errors over time"
    )
    return _card(f"Traffic per {seconds(data.bucket_s)} bucket (UTC)", chart)


def _hallucination_series_card(data: ReportData) -> str:
    if not data.hallucination_series:
        return _card("Hallucination rate over time", "<p class='muted'>Nothing scored yet.</p>")
    with_date = _x_clock(data)
    series: dict[str, list[Point]] = defaultdict(list)
    for point in data.hallucination_series:
        low, high = point.rate.interval
        name = _name(data, point.variant, point.service)
        series[name].append(Point(point.bucket, point.rate.value, low, high))
    chart = line_chart(
        dict(series),
        lambda x: clock(int(x), with_date),
        lambda y: percent(y, 0),
        "Hallucination rate",
        y_max=1.0,
        thresholds=_thresholds(data),
    )
    return _card(
        f"Hallucination rate over time ({data.primary_scorer}; band or bar:"
        f" {interval_name(point.rate for point in data.hallucination_series)};"
        f" buckets of {seconds(data.bucket_s)}, UTC)",
        chart,
    )


def _thresholds(data: ReportData) -> list[Threshold]:
    limit = data.hallucination_threshold
    return [] if limit is None else [Threshold(limit, f"alert threshold {percent(limit, 0)}")]


def _hallucination_card(data: ReportData) -> str:
    bars = []
    for row in data.hallucination:
        if row.rate.n:
            low, high = row.rate.interval
            bars.append(
                Bar(
                    _name(data, row.variant, row.service),
                    row.scorer,
                    row.rate.value,
                    low,
                    high,
                    f"{percent(row.rate.value)}",
                )
            )
    chart = bar_chart(
        bars,
        lambda y: percent(y, 0),
        "Hallucination rate per variant",
        y_max=1.0,
        thresholds=_thresholds(data),
    )
    table = _table(
        ["scorer", "variant", "scored", "hallucinated", "rate [95% CI]"],
        (
            [
                html_text(row.scorer),
                html_text(variant_label(row.variant, row.service if data.spans_services else None)),
                str(row.rate.n),
                str(row.rate.successes),
                (
                    f"<span class='bad'>{rate_with_interval(row.rate)}</span>"
                    if above_threshold(row.rate.value, data.hallucination_threshold)
                    else rate_with_interval(row.rate)
                )
                + (
                    _quiet_note(data, row.rate, row.service, row.variant)
                    if row.scorer == data.primary_scorer
                    else ""
                ),
            ]
            for row in data.hallucination
        ),
        [False, False, True, True, True],
    )
    title = "Hallucination rate per variant"
    if any(row.rate.is_weighted for row in data.hallucination):
        title += f" ({interval_name(row.rate for row in data.hallucination)})"
    return _card(title, chart or "<p class='muted'>Nothing scored yet.</p>", table)


def _latency_card(data: ReportData) -> str:
    if not data.latency:
        return _card("Latency per step", "<p class='muted'>No step spans in this window.</p>")
    bars = [Bar(row.step, "p50", row.p50_ms, label=_short_ms(row.p50_ms)) for row in data.latency]
    bars += [Bar(row.step, "p95", row.p95_ms, label=_short_ms(row.p95_ms)) for row in data.latency]
    chart = bar_chart(bars, _short_ms, "Latency per step")
    table = _table(
        ["step", "spans", "p50", "p95"],
        (
            [html_text(row.step), str(row.count), milliseconds(row.p50_ms), milliseconds(row.p95_ms)]
            for row in data.latency
        ),
        [False, True, True, True],
    )
    return _card("Latency per step", chart, table)


def _short_ms(value: float) -> str:
    """Tick and bar labels: ``0 ms``, ``2.5 ms``, ``40 ms``, ``1.2 s``."""
    if value >= 1000:
        return f"{value / 1000:g} s"
    return f"{value:.2g} ms" if value < 10 else f"{value:.0f} ms"


def _pass_rate_card(data: ReportData) -> str:
    """The team's own evaluators: each one's pass rate per variant, red below its alert threshold."""
    rows = []
    for row in data.pass_rates:
        threshold = data.pass_thresholds.get(row.scorer)
        low = threshold is not None and row.rate.n > 0 and row.rate.value < threshold
        rate = html_text(rate_with_interval(row.rate))
        rows.append([
            *([html_text(row.service)] if data.spans_services else []),
            html_text(row.scorer),
            html_text(variant_label(row.variant)),
            str(row.rate.n),
            str(row.rate.successes),
            f"<span class='bad'>{rate}</span>" if low else rate,
            html_text(percent(threshold)) if threshold is not None else "–",
        ])  # fmt: skip
    service_column = ["service"] if data.spans_services else []
    table = _table(
        [*service_column, "evaluator", "variant", "judged", "passed", "pass rate [95% CI]", "alert below"],
        rows,
        [False] * len(service_column) + [False, False, True, True, True, True],
    )
    title = f"Evaluators: pass rate per variant ({interval_name(row.rate for row in data.pass_rates)})"
    return _card(title, table)


def _metrics_card(data: ReportData) -> str:
    """Rows per (service, scorer, metric), a column per variant name; each service's verdicts beside them."""
    variants = baseline_first(row.variant for row in data.metrics)
    keys = sorted({(row.service, row.scorer, row.metric) for row in data.metrics})
    cells = {(row.service, row.scorer, row.metric, row.variant): row for row in data.metrics}
    # Counts (sentences per answer) get their own scale: plotted with 0-1 shares they would dwarf them.
    counts = [key for key in keys if key[2] in COUNT_METRICS]
    ratios = [
        key
        for key in keys
        if key not in counts
        and all(
            0.0 <= row.mean <= 1.0 for row in data.metrics if (row.service, row.scorer, row.metric) == key
        )
    ]
    ratio_chart = bar_chart(
        _metric_bars(data, ratios, variants, cells),
        lambda y: number(y, 1),
        "Mean score per metric and variant (0–1)",
        y_max=1.0,
    )
    count_chart = bar_chart(
        _metric_bars(data, counts, variants, cells), lambda y: f"{y:g}", "Mean count per answer and variant"
    )
    charts = [
        f"<p class='muted'>{caption}</p>{chart}"
        for caption, chart in (("Shares, 0 to 1:", ratio_chart), ("Counts per answer:", count_chart))
        if chart
    ]  # fmt: skip
    differences = {(d.service, d.scorer, d.metric, d.variant): d for d in data.differences if not d.is_rate}
    rows = []
    for service, scorer, metric in keys:
        values = []
        for variant in variants:
            cell = cells.get((service, scorer, metric, variant))
            values.append(f"{number(cell.mean, 3)} <span class='muted'>(n={cell.n})</span>" if cell else "–")
        compared = [
            differences[(service, scorer, metric, v)]
            for v in variants
            if (service, scorer, metric, v) in differences
        ]
        verdicts = "<br>".join(
            f"<span class='{_TONE.get(judgement(d), '')}'>{html_text(verdict(d))}</span>" for d in compared
        )
        rows.append([*([html_text(service)] if data.spans_services else []), html_text(scorer),
                     f"<span title='{html_text(term(metric).meaning)}'>{html_text(metric)}</span>",
                     *values, verdicts or "–"])  # fmt: skip
    service_column = ["service"] if data.spans_services else []
    table = _table(
        [*service_column, "scorer", "metric", *(f"variant {variant_label(v)}" for v in variants),
         "difference (95%)"],
        rows,
        [False] * len(service_column) + [False, False] + [True] * len(variants) + [False],
    )  # fmt: skip
    title = f"Support, utilization and the other metrics per variant{means_note(data.metrics)}"
    return _card(title, *charts, table)


def _metric_bars(
    data: ReportData,
    keys: list[tuple[str, str, str]],
    variants: list[str],
    cells: dict[tuple[str, str, str, str], MetricRow],
) -> list[Bar]:
    return [
        Bar(metric, _name(data, variant, service), cell.mean, label=number(cell.mean, 2))
        for service, scorer, metric in keys
        for variant in variants
        if (cell := cells.get((service, scorer, metric, variant))) is not None and not math.isnan(cell.mean)
    ]


def _spend_card(data: ReportData) -> str:
    if not data.spend:
        return _card("Judge spend per day", "<p class='muted'>No scores in this window.</p>")
    bars = [Bar(row.day, row.scorer, row.cost_usd, label=dollars(row.cost_usd)) for row in data.spend]
    chart = (
        bar_chart(bars, dollars, "Judge spend per day (USD)")
        if any(row.cost_usd for row in data.spend)
        else ""
    )
    table = _table(
        ["day (UTC)", "scorer", "requests", "input tokens", "output tokens", "cost"],
        (
            [
                row.day,
                html_text(row.scorer),
                str(row.scored),
                f"{row.input_tokens:,}",
                f"{row.output_tokens:,}",
                html_text(spend_cost([row])),
            ]
            for row in data.spend
        ),
        [False, False, True, True, True, True],
    )
    return _card("Judge spend per day", chart, table)


def _scoring_card(data: ReportData) -> str:
    scoring = data.scoring
    summary = _table(
        ["requests", "scored", "share scored", "lag p50", "lag p95", "last score (UTC)"],
        [
            [
                str(scoring.requests),
                str(scoring.scored),
                percent(scoring.share_scored),
                seconds(scoring.lag_p50_s),
                seconds(scoring.lag_p95_s),
                html_text(scoring.last_scored_at or "–"),
            ]
        ],
        [True, True, True, True, True, False],
    )
    rows = [*scoring.outcomes.items(), *((f"refused: {kind}", n) for kind, n in scoring.refused.items())]
    outcomes = (
        _table(
            ["scorer: outcome", "candidates"],
            ([html_text(key), str(count)] for key, count in rows),
            [False, True],
        )
        if rows
        else ""
    )
    return _card("Scoring lag and share of traffic scored", summary, outcomes)


def _worst_card(data: ReportData, linked: bool) -> str:
    rows = []
    for row in data.worst:
        verdict = (
            "<span class='bad'>hallucinated</span>"
            if row.hallucinated
            else "<span class='good'>supported</span>"
        )
        unsupported = "".join(
            f"<div class='unsupported'>✗ {html_text(sentence)}</div>" for sentence in row.unsupported
        )
        trace = f"<span class='mono'>{html_text(row.trace_id)}</span>"
        if linked and row.span_id:
            ref = RequestRef(row.trace_id, row.span_id, row.at_us, row.question, row.hallucinated)
            trace = f"<a href='{html_text(request_href(ref))}'>{trace}</a>"
        rows.append(
            [
                f"{trace}<br>{html_text(_name(data, row.variant, row.service))} · {verdict}",
                number(row.support, 3),
                f"<b>Q</b> {html_text(row.question)}<br>"
                f"<b>A</b> {html_text(excerpt(row.answer, 600))}{unsupported}",
            ]
        )
    table = _table(
        ["trace · variant", "support (0–1)", "question · answer · unsupported sentences"], rows, [False, True]
    )
    note = (
        f"<p class='muted'>Support: {html_text(term(SUPPORT).meaning)} Red ✗ lines are the sentences the"
        " judge found no backing for.</p>"
    )
    return _card(f"Worst requests (judge: {data.primary_scorer})", note, table)
