"""The report as one self-contained HTML file: inline CSS and SVG, no scripts, opens offline.

Traced strings (questions, answers, variant and service names) are untrusted: every one is escaped.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from html import escape

from ragpulse_scorers.alerts.state import FIRING
from ragpulse_scorers.report.format import (
    alert_key,
    alert_since,
    alert_value,
    clock,
    dollars,
    excerpt,
    milliseconds,
    number,
    percent,
    rate_with_interval,
    seconds,
)
from ragpulse_scorers.report.model import ReportData
from ragpulse_scorers.report.svg import Bar, Point, bar_chart, line_chart

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
.unsupported{color:#b91c1c;margin:2px 0}.mono{font-family:ui-monospace,Menlo,monospace;font-size:12px}
"""


def render_html(data: ReportData) -> str:
    scope = f"service {data.service}" if data.service else "all services"
    sections = [
        f"<h1>ragpulse report</h1><p class='sub'>{escape(scope)} · requests since"
        f" {data.since:%Y-%m-%d %H:%M} UTC · generated {data.generated_at:%Y-%m-%d %H:%M:%S} UTC</p>",
        _tiles(data),
    ]
    if data.alerts:
        sections.append(_alerts_card(data))
    if data.requests:
        sections += [
            _cards(_traffic_card(data), _hallucination_series_card(data)),
            _cards(_hallucination_card(data), _latency_card(data)),
        ]
        if data.metrics:
            sections.append(_metrics_card(data))
        sections.append(_cards(_spend_card(data), _scoring_card(data)))
        if data.worst:
            sections.append(_worst_card(data))
    else:
        sections.append("<p>No RAG requests in this window. Is traffic reaching the collector?</p>")
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        "<meta http-equiv='Content-Security-Policy'"
        " content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        f"<title>ragpulse report · {escape(scope)}</title><style>{_STYLE}</style></head>"
        f"<body><main>{''.join(sections)}</main></body></html>\n"
    )


def _cards(*cards: str) -> str:
    return f"<div class='grid2'>{''.join(card for card in cards if card)}</div>"


def _card(title: str, *content: str) -> str:
    return f"<section class='card'><h2>{escape(title)}</h2>{''.join(content)}</section>"


def _table(headers: Sequence[str], rows: Iterable[Sequence[str]], numeric: Sequence[bool] = ()) -> str:
    """Cells are already-escaped HTML; headers are plain text."""
    head = "".join(f"<th>{escape(header)}</th>" for header in headers)
    body = "".join(
        "<tr>"
        + "".join(
            f"<td class='n'>{cell}</td>" if index < len(numeric) and numeric[index] else f"<td>{cell}</td>"
            for index, cell in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _tiles(data: ReportData) -> str:
    scoring = data.scoring
    tiles = [
        (str(data.requests), "requests"),
        (str(sum(variant.errors for variant in data.variants)), "errors"),
        (f"{scoring.scored} ({percent(scoring.share_scored)})", "scored (share of traffic)"),
        (f"{seconds(scoring.lag_p50_s)} / {seconds(scoring.lag_p95_s)}", "scoring lag p50 / p95"),
        (str(scoring.judge_errors), "judge errors"),
        (dollars(sum(row.cost_usd for row in data.spend)), "judge spend"),
        (str(len(data.firing_alerts)), "alerts firing"),
    ]
    for variant in data.variants:
        rate = data.primary_rate(variant.variant)
        if rate is not None:
            tiles.append((percent(rate.value), f"hallucination · variant {variant.variant} (n={rate.n})"))
    return (
        "<div class='tiles'>"
        + "".join(
            f"<div class='tile'><b>{escape(value)}</b><span>{escape(label)}</span></div>"
            for value, label in tiles
        )
        + "</div>"
    )


def _alerts_card(data: ReportData) -> str:
    rows = [
        [
            f"<span class='{'bad' if alert.state == FIRING else 'good'}'>{escape(alert.state)}</span>",
            escape(alert.summary),
            f"<span class='mono'>{escape(alert_key(alert))}</span>",
            escape(alert_value(alert)),
            escape(alert_since(alert)),
        ]
        for alert in data.alerts
    ]
    table = _table(
        ["state", "alert", "rule / service / variant", "value [95% CI]", "since (UTC)"],
        rows,
        [False, False, False, True, False],
    )
    return _card(f"Alerts ({len(data.firing_alerts)} firing, then resolved in this window)", table)


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
    return _card(f"Traffic per {seconds(data.bucket_s)} bucket", chart)


def _hallucination_series_card(data: ReportData) -> str:
    if not data.hallucination_series:
        return _card("Hallucination rate over time", "<p class='muted'>Nothing scored yet.</p>")
    with_date = _x_clock(data)
    series: dict[str, list[Point]] = defaultdict(list)
    for point in data.hallucination_series:
        low, high = point.rate.interval
        series[f"variant {point.variant}"].append(Point(point.bucket, point.rate.value, low, high))
    chart = line_chart(
        dict(series),
        lambda x: clock(int(x), with_date),
        lambda y: percent(y, 0),
        "Hallucination rate",
        y_max=1.0,
    )
    return _card(
        f"Hallucination rate over time ({data.primary_scorer}; band: 95% Wilson interval)",
        chart,
    )


def _hallucination_card(data: ReportData) -> str:
    bars = []
    for row in data.hallucination:
        if row.rate.n:
            low, high = row.rate.interval
            bars.append(
                Bar(
                    f"variant {row.variant}",
                    row.scorer,
                    row.rate.value,
                    low,
                    high,
                    f"{percent(row.rate.value)}",
                )
            )
    chart = bar_chart(bars, lambda y: percent(y, 0), "Hallucination rate per variant", y_max=1.0)
    table = _table(
        ["scorer", "variant", "scored", "hallucinated", "rate [95% CI]"],
        (
            [
                escape(row.scorer),
                escape(row.variant),
                str(row.rate.n),
                str(row.rate.successes),
                rate_with_interval(row.rate),
            ]
            for row in data.hallucination
        ),
        [False, False, True, True, True],
    )
    return _card("Hallucination rate per variant", chart or "<p class='muted'>Nothing scored yet.</p>", table)


def _latency_card(data: ReportData) -> str:
    if not data.latency:
        return _card("Latency per step", "<p class='muted'>No step spans in this window.</p>")
    bars = [Bar(row.step, "p50", row.p50_ms, label=f"{row.p50_ms:.0f}") for row in data.latency]
    bars += [Bar(row.step, "p95", row.p95_ms, label=f"{row.p95_ms:.0f}") for row in data.latency]
    chart = bar_chart(bars, lambda y: f"{y:.0f} ms", "Latency per step (ms)")
    table = _table(
        ["step", "spans", "p50", "p95"],
        (
            [escape(row.step), str(row.count), milliseconds(row.p50_ms), milliseconds(row.p95_ms)]
            for row in data.latency
        ),
        [False, True, True, True],
    )
    return _card("Latency per step", chart, table)


def _metrics_card(data: ReportData) -> str:
    variants = sorted({row.variant for row in data.metrics})
    keys = sorted({(row.scorer, row.metric) for row in data.metrics})
    cells = {(row.scorer, row.metric, row.variant): row for row in data.metrics}
    unit_interval = [
        key
        for key in keys
        if all(0.0 <= row.mean <= 1.0 for row in data.metrics if (row.scorer, row.metric) == key)
    ]
    bars = [
        Bar(f"{metric}", f"variant {variant}", cell.mean, label=number(cell.mean, 2))
        for scorer, metric in unit_interval
        for variant in variants
        if (cell := cells.get((scorer, metric, variant))) is not None and not math.isnan(cell.mean)
    ]
    chart = bar_chart(bars, lambda y: number(y, 2), "Mean score per metric and variant", y_max=1.0)
    rows = []
    for scorer, metric in keys:
        values = []
        for variant in variants:
            cell = cells.get((scorer, metric, variant))
            values.append(f"{number(cell.mean, 3)} <span class='muted'>(n={cell.n})</span>" if cell else "–")
        rows.append([escape(scorer), escape(metric), *values])
    table = _table(
        ["scorer", "metric", *(f"variant {v}" for v in variants)],
        rows,
        [False, False] + [True] * len(variants),
    )
    return _card("Support, utilization and the other metrics per variant", chart, table)


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
        ["day", "scorer", "requests", "input tokens", "output tokens", "cost"],
        (
            [
                row.day,
                escape(row.scorer),
                str(row.scored),
                f"{row.input_tokens:,}",
                f"{row.output_tokens:,}",
                dollars(row.cost_usd),
            ]
            for row in data.spend
        ),
        [False, False, True, True, True, True],
    )
    return _card("Judge spend per day", chart, table)


def _scoring_card(data: ReportData) -> str:
    scoring = data.scoring
    summary = _table(
        ["requests", "scored", "share scored", "lag p50", "lag p95", "last score"],
        [
            [
                str(scoring.requests),
                str(scoring.scored),
                percent(scoring.share_scored),
                seconds(scoring.lag_p50_s),
                seconds(scoring.lag_p95_s),
                escape(scoring.last_scored_at or "–"),
            ]
        ],
        [True, True, True, True, True, False],
    )
    outcomes = (
        _table(
            ["scorer: outcome", "candidates"],
            ([escape(key), str(count)] for key, count in scoring.outcomes.items()),
            [False, True],
        )
        if scoring.outcomes
        else ""
    )
    return _card("Scoring lag and share of traffic scored", summary, outcomes)


def _worst_card(data: ReportData) -> str:
    rows = []
    for row in data.worst:
        verdict = (
            "<span class='bad'>hallucinated</span>"
            if row.hallucinated
            else "<span class='good'>supported</span>"
        )
        unsupported = "".join(
            f"<div class='unsupported'>✗ {escape(sentence)}</div>" for sentence in row.unsupported
        )
        rows.append(
            [
                f"<span class='mono'>{escape(row.trace_id)}</span><br>"
                f"variant {escape(row.variant)} · {verdict}",
                number(row.support, 3),
                f"<b>Q</b> {escape(row.question)}<br>"
                f"<b>A</b> {escape(excerpt(row.answer, 600))}{unsupported}",
            ]
        )
    table = _table(
        ["trace · variant", "support", "question · answer · unsupported sentences"], rows, [False, True]
    )
    return _card(f"Worst requests (judge: {data.primary_scorer})", table)
