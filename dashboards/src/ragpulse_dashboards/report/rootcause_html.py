"""The report's root-cause cards: where the change sits, the questions' topics, conversations. On the live
page (``live``) every request, slice and conversation links to the page that opens it."""

from __future__ import annotations

from urllib.parse import urlencode

from ragpulse_core.printable import excerpt

from ragpulse_dashboards.report.format import html_text, percent
from ragpulse_dashboards.report.html_blocks import card, table
from ragpulse_dashboards.rootcause.cause import Cause, CauseSlice, RateFigure, days_before
from ragpulse_dashboards.rootcause.figures import RequestRef, RootCauseFigures
from ragpulse_dashboards.rootcause.ranking import Finding

REQUEST_PATH = "./review/request"
SLICE_PATH = "./slice"
CONVERSATIONS_PATH = "./conversations"
METHOD_NOTE = (
    "Slices (model and model version, template version, question topic, document, source, pipeline, variant,"
    " configured attributes) are ranked by Adtributor's surprise (NSDI 2014); share is its explanatory power,"
    " the part of the overall change the slice's own change explains. A slice is named only when its 95%"
    " interval lies beyond its baseline's and its change outgrows the rest of the traffic's, in points and as"
    " a factor, at a level corrected for every slice tested; a slice with no baseline of its own (new) is"
    " held against the service's baseline."
)


def request_href(ref: RequestRef) -> str:
    return f"{REQUEST_PATH}?{urlencode({'trace': ref.trace_id, 'span': ref.span_id, 'at': str(ref.at_us)})}"


def where_card(figures: RootCauseFigures, spans_services: bool, live: bool) -> str:
    title = f"Where the change sits: this window against {days_before(figures.baseline_days)}"
    parts = [_service_cause(found.service, found.cause, spans_services, live) for found in figures.causes]
    return card(title, *parts, f"<p class='muted'>{html_text(METHOD_NOTE)}</p>")


def _service_cause(service: str, cause: Cause, spans_services: bool, live: bool) -> str:
    head = f"<h3>{html_text(service)}</h3>" if spans_services else ""
    overall = (
        f"<p class='sub'>Hallucination rate {html_text(cause.window.text())} in this window against"
        f" {html_text(cause.baseline.text())} before.</p>"
    )
    if cause.finding is not Finding.FOUND:
        said = {
            Finding.SPREAD: "No single slice explains it: the change is spread across the traffic.",
            Finding.NO_CHANGE: "No change against the baseline, and no slice stands out.",
            Finding.TOO_FEW: "Too few judged requests in this window or the baseline to tell.",
        }[cause.finding]
        return f"{head}{overall}<p class='verdict'><b>{html_text(said)}</b></p>"
    rows = [_slice_cells(service, part, live) for part in cause.slices]
    listed = table(
        ["slice", "hallucination now [95% CI]", "n", "before [95% CI]", "n", "share of the change"],
        rows,
        [False, True, True, True, True, True],
    )
    return f"{head}{overall}{listed}"


def _slice_cells(service: str, part: CauseSlice, live: bool) -> list[str]:
    name = html_text(part.label)
    if live:
        query = urlencode({"service": service, "dimension": part.dimension, "value": part.value})
        name = f"<a href='{html_text(f'{SLICE_PATH}?{query}')}'>{name}</a>"
    if part.new:
        name += " <span class='tag'>new</span>"
    share = "–" if part.share is None else percent(min(1.0, max(0.0, part.share)), 0)
    return [
        name,
        f"<span class='bad'>{_interval(part.window)}</span>",
        str(part.window.n),
        _interval(part.baseline) + (" <span class='muted'>(service)</span>" if part.new else ""),
        str(part.baseline.n),
        share,
    ]


def _interval(figure: RateFigure) -> str:
    return html_text(f"{percent(figure.rate)} [{percent(figure.low)}, {percent(figure.high)}]")


def topics_card(figures: RootCauseFigures, spans_services: bool, live: bool) -> str:
    rows = []
    for row in figures.topics:
        name = html_text(row.name) + (" <span class='tag'>new</span>" if row.new else "")
        if spans_services:
            name = f"{html_text(row.service)} · {name}"
        examples = "".join(
            ("<div class='unsupported'>✗ " if ref.hallucinated else "<div class='muted'>✓ ")
            + (
                f"<a href='{html_text(request_href(ref))}'>{html_text(excerpt(ref.question, 140))}</a>"
                if live
                else html_text(excerpt(ref.question, 140))
            )
            + "</div>"
            for ref in row.examples
        )
        rows.append([name, _interval(row.window), str(row.window.n),
                     "–" if row.new else _interval(row.baseline), examples])  # fmt: skip
    listed = table(
        ["topic (its top words)", "hallucination [95% CI]", "n", "before [95% CI]", "example requests"],
        rows,
        [False, True, True, True, False],
    )
    note = (
        "<p class='muted'>Topics are learnt from the questions' words (TF-IDF over the free judge's stems,"
        " k-means on the unit sphere), without a model; the same questions always give the same topics. New:"
        " no judged request of the topic in the baseline.</p>"
    )
    return card("Topics of the questions", listed, note)


def conversations_card(figures: RootCauseFigures, spans_services: bool, live: bool) -> str:
    rows = []
    for found in figures.conversations:
        rate = found.rate
        target = f"{CONVERSATIONS_PATH}?{urlencode({'service': found.service})}"
        link = f" <a href='{html_text(target)}'>open</a>" if live else ""
        rows.append([html_text(found.service) + link, str(found.conversations), str(found.unsupported),
                     _interval(rate)])  # fmt: skip
    listed = table(
        ["service", "conversations", "with an unsupported answer", "share [95% CI]"],
        rows,
        [False, True, True, True],
    )
    note = (
        "<p class='muted'>A conversation is the requests sharing a session id (session.id); counted here when"
        " one of its answers in this window was judged, unsupported when any judged answer was.</p>"
    )
    return card("Conversations with at least one unsupported answer", listed, note)
