"""The live page's review pages: the queue, and one request with the form that labels it.

Like the report, no script and every traced string escaped. The form posts to this page only (the policy's
``form-action 'self'``) and carries the browser's form key (:mod:`ragpulse_dashboards.live.forms`).
"""

from __future__ import annotations

from urllib.parse import urlencode

from ragpulse_core.printable import excerpt
from ragpulse_scorers.review import DISAGREEMENT, FREE_JUDGE, UNCERTAIN, UNIFORM, Offer

from ragpulse_dashboards.live.forms import FIELD
from ragpulse_dashboards.report.format import html_text, variant_label
from ragpulse_dashboards.report.html import page
from ragpulse_dashboards.review.label_form import AUTHOR_LIMIT, LABELS, NOTE_LIMIT
from ragpulse_dashboards.review.request import RequestId, RequestView
from ragpulse_dashboards.review.request_details import RequestDetails
from ragpulse_dashboards.review.request_html import context_card, run_card, sentence_evidence, variations_card

QUEUE_PATH = "/review"
NEXT_PATH = "/review/next"
REQUEST_PATH = "/review/request"
LABEL_PATH = "/review/label"
WRITE_SIGN_IN_PATH = "/review/write-login"
HALLUCINATED, GROUNDED = LABELS

_REASONS = {
    DISAGREEMENT: "the judges disagree",
    UNCERTAIN: "the free judge is least certain",
    UNIFORM: "drawn at random (keeps the agreement figures unbiased)",
}


def scope_query(service: str | None) -> str:
    return f"?{urlencode({'service': service})}" if service is not None else ""


def request_link(request: RequestId, reason: str | None, service: str | None) -> str:
    """The request view's address; ``reason`` (why the queue offered it) and ``service`` (the queue's scope,
    where a label leads back to) ride along."""
    query = {"trace": request.trace_id, "span": request.span_id, "at": str(request.at_us)}
    if reason:
        query["why"] = reason
    if service is not None:
        query["service"] = service
    return f"{REQUEST_PATH}?{urlencode(query)}"


def queue_page(offers: list[Offer], service: str | None, figures: str, saved: bool = False) -> str:
    """The queue: what to label next and why, then ``figures`` (HTML: judges against people, the corrected
    rate)."""
    scope = f"service {service}" if service is not None else "all services"
    said = "<p class='good'>Label saved. The queue has nothing more to offer.</p>" if saved else ""
    if offers:
        first = offers[0]
        start = (
            f"<p><a class='button' href='{html_text(_offer_link(first, service))}'>Label the next request</a>"
            f" <span class='muted'>— offered because {html_text(_REASONS[first.reason])}</span></p>"
        )
        rows = "".join(
            f"<tr><td>{html_text(f'{offer.request_time:%m-%d %H:%M:%S}')}</td>"
            f"<td>{html_text(variant_label(offer.variant, offer.service))}</td>"
            f"<td>{html_text(_REASONS[offer.reason])}</td>"
            f"<td>{_verdicts(offer)}</td>"
            f"<td><a href='{html_text(_offer_link(offer, service))}'>review</a></td></tr>"
            for offer in offers
        )
        listing = (
            "<table class='queue'><thead><tr><th>request (UTC)</th><th>service · variant</th>"
            f"<th>offered because</th><th>judges</th><th></th></tr></thead><tbody>{rows}</tbody></table>"
        )
    else:
        start = "<p>Nothing to review: every judged request in the window has a reviewer's label.</p>"
        listing = ""
    body = (
        f"<h1>Review queue · {html_text(scope)}</h1>"
        "<p class='sub'>Requests most worth a person's label: where the judges disagree, where the free judge"
        " is least certain, and a random draw, in turn. <a href='/" + html_text(scope_query(service)) + "'>"
        "Back to the report</a></p>"
        f"{said}{start}{listing}{figures}"
    )
    return page(f"ragpulse review · {scope}", body)


def _offer_link(offer: Offer, service: str | None) -> str:
    return request_link(RequestId(offer.trace_id, offer.span_id, offer.at_us), offer.reason, service)


def _verdicts(offer: Offer) -> str:
    judges = [(FREE_JUDGE, offer.free_hallucinated), *offer.others]
    return html_text(", ".join(f"{judge}: {HALLUCINATED if bad else GROUNDED}" for judge, bad in judges))


def request_page(
    view: RequestView,
    *,
    reason: str | None,
    service: str | None,
    form_key: str,
    may_write: bool,
    author: str,
    details: RequestDetails | None = None,
) -> str:
    """The request, each judge's verdict and flagged sentences, the labels given, and the form; with its
    ``details``, how it ran, its variations and rankings, and every judge's evidence per sentence."""
    request = view.id
    offered = (
        f"<p class='why'>Offered because {html_text(_REASONS[reason])}.</p>" if reason in _REASONS else ""
    )
    head = (
        "<h1>Review a request</h1>"
        f"<p class='sub'>{html_text(variant_label(view.variant, view.service))}"
        f" · {view.time:%Y-%m-%d %H:%M:%S}"
        f" UTC · trace <span class='mono'>{html_text(request.trace_id)}</span> ·"
        f" <a href='{QUEUE_PATH}{html_text(scope_query(service))}'>review queue</a></p>{offered}"
    )
    question = f"<section class='card'><h2>Question</h2><p>{html_text(view.question)}</p></section>"
    if details is not None:
        context = variations_card(details) + context_card(details)
        question = run_card(view, details) + question
    else:
        chunks = "".join(f"<li>{html_text(chunk)}</li>" for chunk in view.context) or "<li>(no context)</li>"
        context = f"<section class='card'><h2>Context</h2><ol class='context'>{chunks}</ol></section>"
    judges = (
        "".join(
            f"<li><b>{html_text(verdict.judge)}</b>: {HALLUCINATED if verdict.hallucinated else GROUNDED}"
            + (
                f" <span class='muted'>— {html_text(excerpt(verdict.explanation, 400))}</span>"
                if verdict.explanation
                else ""
            )
            + "</li>"
            for verdict in view.verdicts
        )
        or "<li>No judge has scored this request yet.</li>"
    )
    sentences = "".join(
        f"<li><label><input type='checkbox' name='sentence' value='{index}'{_disabled(may_write)}>"
        f" {html_text(sentence)}</label>{_flags(view, index)}"
        f"{sentence_evidence(details, index) if details is not None else ''}</li>"
        for index, sentence in enumerate(view.sentences)
    )
    answer = (
        "<section class='card'><h2>Answer and the judges' verdicts</h2>"
        f"<ul class='judges'>{judges}</ul>"
        "<p class='muted'>Tick the sentences the context does not support, then say what the whole answer"
        " is.</p>"
        + (_label_form(request, reason, service, form_key, author, sentences) if may_write
           else _write_sign_in(request, reason, service, sentences))
        + "</section>"
    )  # fmt: skip
    return page("ragpulse review · request", head + question + context + answer + _labels_card(view))


def _disabled(may_write: bool) -> str:
    return "" if may_write else " disabled"


def _flags(view: RequestView, index: int) -> str:
    judges = [verdict.judge for verdict in view.verdicts if index in verdict.flagged]
    if not judges:
        return ""
    return f" <span class='flag'>unsupported per {html_text(', '.join(judges))}</span>"


def _hidden(request: RequestId, reason: str | None, service: str | None) -> str:
    fields = {"trace": request.trace_id, "span": request.span_id, "at": str(request.at_us)}
    if reason:
        fields["why"] = reason
    if service is not None:
        fields["service"] = service
    return "".join(
        f"<input type='hidden' name='{name}' value='{html_text(value)}'>" for name, value in fields.items()
    )


def _label_form(
    request: RequestId, reason: str | None, service: str | None, form_key: str, author: str, sentences: str
) -> str:
    return (
        f"<form class='label' method='post' action='{LABEL_PATH}'>"
        f"<input type='hidden' name='{FIELD}' value='{html_text(form_key)}'>"
        f"{_hidden(request, reason, service)}"
        f"<ol class='sentences' start='0'>{sentences}</ol>"
        "<p><label>Your name <input name='author' required"
        f" maxlength='{AUTHOR_LIMIT}' value='{html_text(author)}' autocomplete='name'></label>"
        f" <label>Note <input name='note' maxlength='{NOTE_LIMIT}' placeholder='optional'></label></p>"
        f"<p><button type='submit' name='label' value='{HALLUCINATED}'>Hallucinated</button>"
        f" <button type='submit' name='label' value='{GROUNDED}'>Grounded</button></p></form>"
    )


def _write_sign_in(request: RequestId, reason: str | None, service: str | None, sentences: str) -> str:
    target = request_link(request, reason, service)
    return (
        f"<ol class='sentences' start='0'>{sentences}</ol>"
        "<p>Labelling needs the write token (<span class='mono'>live.write_token</span>).</p>"
        f"<form class='signin' method='post' action='{WRITE_SIGN_IN_PATH}'>"
        f"<input type='hidden' name='next' value='{html_text(target)}'>"
        "<input type='password' name='token' aria-label='Write token' placeholder='write token' required>"
        "<button type='submit'>Sign in to label</button></form>"
    )


def _labels_card(view: RequestView) -> str:
    if not view.labels:
        return ""
    rows = "".join(
        f"<tr><td>{label.at:%Y-%m-%d %H:%M:%S}</td><td>{html_text(label.source)}</td>"
        f"<td>{html_text(label.author)}</td><td>{html_text(label.label)}</td>"
        f"<td>{html_text(', '.join(str(index) for index in label.sentences))}</td>"
        f"<td>{html_text(label.note)}</td></tr>"
        for label in view.labels
    )
    return (
        "<section class='card'><h2>Labels given</h2><table><thead><tr><th>when (UTC)</th><th>source</th>"
        "<th>author</th><th>label</th><th>sentences</th><th>note</th></tr></thead>"
        f"<tbody>{rows}</tbody></table></section>"
    )


def not_found(request: RequestId, service: str | None) -> str:
    return page(
        "ragpulse review · no such request",
        f"<h1>No such request</h1><p class='sub'>No request with trace"
        f" <span class='mono'>{html_text(request.trace_id)}</span> starting at that time is stored (it may"
        f" have expired). <a href='{QUEUE_PATH}{html_text(scope_query(service))}'>Back to the queue</a></p>",
    )


def bad_form(reason: str) -> str:
    return page(
        "ragpulse review · not saved",
        f"<h1>The label was not saved</h1><p class='sub'>{html_text(reason)}.</p>"
        f"<p><a href='{QUEUE_PATH}'>Back to the review queue</a></p>",
    )


def stale_form(reason: str) -> str:
    """A post refused before anything was read from it (another site, a stale form, no write session)."""
    return page(
        "ragpulse review · refused",
        f"<h1>The label was not taken</h1><p class='sub'>The post was refused: {html_text(reason)}. Open the"
        " request again from the review queue and label it there.</p>"
        f"<p><a href='{QUEUE_PATH}'>Back to the review queue</a></p>",
    )


def unavailable(reason: str) -> str:
    return page(
        "ragpulse review · unavailable",
        f"<h1>The review pages are unavailable</h1><p class='sub'>{html_text(reason)}.</p>"
        f"<p><a href='{QUEUE_PATH}'>Try the review queue again</a></p>",
    )
