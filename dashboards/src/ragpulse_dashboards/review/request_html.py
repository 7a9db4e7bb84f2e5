"""The request page's sections beyond the reviewer's: how the request ran (its spans as a waterfall, and when
each judge judged it), its query variations with their rankings, the fused chunks marked with the answer
sentences that used them, and each judge's evidence under every answer sentence. Every traced string is
escaped (:func:`~ragpulse_dashboards.report.format.html_text`)."""

from __future__ import annotations

from typing import Final
from urllib.parse import urlencode

from ragpulse_core.printable import excerpt

from ragpulse_dashboards.report.format import html_text, number
from ragpulse_dashboards.report.html_blocks import card, table
from ragpulse_dashboards.review.request import RequestView
from ragpulse_dashboards.review.request_details import RequestDetails
from ragpulse_dashboards.review.trace import waterfall_svg

CONVERSATION_PATH: Final = "/conversation"
# Documents of a variation's ranking listed, and characters of a chunk's text shown.
RANKING_SHOWN: Final = 10
CHUNK_CHARS: Final = 600


def run_card(view: RequestView, details: RequestDetails) -> str:
    """The spans as a waterfall, then each judge: its verdict, how long after the request it judged, how
    long it took."""
    judged = [
        [
            html_text(run.judge),
            "–" if run.hallucinated is None else ("<span class='bad'>hallucinated</span>" if run.hallucinated
                                                  else "<span class='good'>grounded</span>"),
            html_text(f"{run.after_s:.1f} s after the request"),
            html_text(f"{run.latency_ms:.1f} ms"),
        ]
        for run in details.judges
    ]  # fmt: skip
    judges = (
        table(["judge", "verdict", "judged", "took"], judged, [False, False, True, True])
        if judged
        else "<p class='muted'>No judge has scored this request yet.</p>"
    )
    conversation = ""
    if details.session:
        target = f"{CONVERSATION_PATH}?{urlencode({'service': view.service, 'session': details.session})}"
        conversation = (
            f"<p>Turn of conversation <a href='{html_text(target)}'>"
            f"<span class='mono'>{html_text(excerpt(details.session, 80))}</span></a></p>"
        )
    return card("How it ran: spans and judges", waterfall_svg(details.spans), judges, conversation)


def variations_card(details: RequestDetails) -> str:
    """Each query (0: the question itself) with the ranking its retrieval returned; documents that made the
    fused context are marked with their place in it."""
    if not details.retrievals and not details.variations:
        return ""
    fused = {chunk.id: position for position, chunk in enumerate(details.chunks, 1)}
    rows = []
    for retrieval in details.retrievals:
        query = retrieval.query or (
            details.variations[retrieval.query_index - 1]
            if 0 < retrieval.query_index <= len(details.variations)
            else ""
        )
        ranked = sorted(retrieval.documents, key=lambda found: found.rank)[:RANKING_SHOWN]
        ranking = "".join(
            f"<li>{_document(document.id, fused)} <span class='muted'>{html_text(number(document.score, 3))}"
            "</span></li>"
            for document in ranked
        )
        rows.append(
            [
                str(retrieval.query_index),
                html_text(query) or "<span class='muted'>(not recorded)</span>",
                f"<ol class='ranking'>{ranking}</ol>" if ranking else "–",
            ]
        )
    if not rows:
        rows = [[str(index), html_text(text), "–"] for index, text in enumerate(details.variations, 1)]
    note = (
        "<p class='muted'>Variation 0 is the question itself. <b>Bold</b> documents made the fused context,"
        " with their place in it.</p>"
    )
    return card("Query variations and their rankings", table(["#", "query", "ranking (score)"], rows), note)


def _document(document_id: str, fused: dict[str, int]) -> str:
    name = f"<span class='mono'>{html_text(excerpt(document_id, 60))}</span>"
    position = fused.get(document_id)
    return f"<b>{name} → #{position}</b>" if position is not None else name


def context_card(details: RequestDetails) -> str:
    """The fused chunks in the order the generator saw them, each marked with the answer sentences whose
    evidence it holds, per judge, and the judges that say the answer used it."""
    if details.unreadable:
        return card(
            "Fused context", f"<p class='bad'>The context cannot be read: {html_text(details.unreadable)}</p>"
        )
    items = []
    for position, chunk in enumerate(details.chunks):
        marks = [
            f"<span class='used'>sentence{'s' if len(indices) > 1 else ''} {', '.join(map(str, indices))}"
            f" ({html_text(judge)})</span>"
            for judge, indices in details.sentences_using(position).items()
        ]
        marks += [
            f"<span class='used'>used per {html_text(run.judge)}</span>"
            for run in details.judges
            if position in run.used
        ]
        source = f" · {html_text(chunk.source)}" if chunk.source else ""
        score = f" · score {html_text(number(chunk.score, 3))}" if chunk.score is not None else ""
        items.append(
            f"<li><span class='mono'>{html_text(excerpt(chunk.id, 60))}</span>{source}{score}"
            f" {''.join(marks)}<div>{html_text(excerpt(chunk.text, CHUNK_CHARS))}</div></li>"
        )
    listed = "".join(items) or "<li>(no context)</li>"
    note = (
        "<p class='muted'>Marks: the answer sentences (numbered as below) whose evidence is in the chunk.</p>"
    )
    return card("Fused context: what the generator saw", f"<ol class='context chunks'>{listed}</ol>", note)


def sentence_evidence(details: RequestDetails, index: int) -> str:
    """Under answer sentence ``index``: each judge's verdict on it and the evidence it found."""
    lines = []
    for run in details.judges:
        judged = run.sentences.get(index)
        if judged is None:
            continue
        verdict = {True: "supported", False: "unsupported", None: "no claim to check"}[judged.supported]
        tone = {True: "good", False: "bad", None: "muted"}[judged.supported]
        found = "backed by" if judged.supported else "closest in the context"
        evidence = f" — {found}: “{html_text(excerpt(judged.evidence, 300))}”" if judged.evidence else ""
        chunk = (
            f" <span class='mono'>({html_text(excerpt(judged.chunk_id, 60))})</span>"
            if judged.chunk_id
            else ""
        )
        lines.append(
            f"<div class='evidence'><b>{html_text(run.judge)}</b>: <span class='{tone}'>{verdict}</span>"
            f"{evidence}{chunk}</div>"
        )
    return "".join(lines)
