"""``ragpulse label --next``: the queue's next request printed for a terminal, and the command labelling it.

The answer is numbered sentence by sentence as the judges split it, so a reviewer can name the unsupported
ones; the free judge's own sentence verdicts are marked beside them.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from ragpulse_assembly.context import context_texts
from ragpulse_core.printable import excerpt, printable, shown
from ragpulse_core.store import Store
from ragpulse_judge.text import split_sentences
from rich.console import Console

from ragpulse_scorers.metric_names import HALLUCINATION
from ragpulse_scorers.review.queue import FREE_JUDGE, Offer, review_queue
from ragpulse_scorers.services import services_since

_CHUNK_CHARS = 400


class UnknownService(LookupError):
    """A ``--service`` with no requests in the window: a typo, or the wrong store. The message names the
    services that have requests there."""

    def __init__(self, service: str, known: list[str], since: datetime) -> None:
        listed = ", ".join(printable(name) for name in known) if known else "none"
        super().__init__(
            f"no service {printable(service)!r} has requests since {since:%Y-%m-%d %H:%M} UTC"
            f" (services with requests: {listed})"
        )


def print_next(store: Store, console: Console, *, since: datetime, service: str | None, command: str) -> bool:
    """Print the queue's next request and how to label it; False (and a line saying so) when none is left.
    ``command`` is how the user invoked ragpulse (``ragpulse``, ``python -m ragpulse_core.cli``).
    :class:`UnknownService` when ``service`` sent no request since ``since``."""
    if service is not None:
        known = services_since(store, since)
        if service not in known:
            raise UnknownService(service, known, since)
    offers = review_queue(store, since=since, service=service, limit=1)
    if not offers:
        console.print("Nothing to review: every judged request in the window has a reviewer's label.")
        return False
    offer = offers[0]
    text = _texts(store, offer)
    console.print(f"[bold]Next to review[/bold]: {shown(offer.why)}", highlight=False)
    console.print(
        f"trace {shown(offer.trace_id)} · span {shown(offer.span_id)} · service {shown(offer.service)}"
        f" · variant {shown(offer.variant or '(no variant)')} · {offer.request_time:%Y-%m-%d %H:%M:%S} UTC",
        highlight=False,
    )
    console.print(f"[dim]Q[/dim] {shown(text['question'])}", highlight=False)
    for rank, chunk in enumerate(context_texts(text["context"]), 1):
        console.print(f"[dim]context {rank}[/dim] {shown(excerpt(chunk, _CHUNK_CHARS))}", highlight=False)
    unsupported = _free_judge_unsupported(store, offer)
    for index, sentence in enumerate(split_sentences(text["answer"])):
        mark = f"  [red]unsupported per {FREE_JUDGE}[/red]" if index in unsupported else ""
        console.print(f"[dim]A{index}[/dim] {shown(sentence)}{mark}", highlight=False)
    verdicts = [(FREE_JUDGE, offer.free_hallucinated), *offer.others]
    console.print(
        "judges: " + ", ".join(f"{judge} {'hallucinated' if bad else 'grounded'}" for judge, bad in verdicts),
        highlight=False,
    )
    console.print(
        f"label it: {command} label {offer.trace_id} hallucinated|grounded --span {offer.span_id}",
        highlight=False,
        soft_wrap=True,
    )
    return True


def _texts(store: Store, offer: Offer) -> dict[str, str]:
    rows = store.query_dicts(
        "SELECT Question AS question, Context AS context, Answer AS answer"
        f" FROM {store.table('ragpulse_requests')} WHERE TraceId = {{trace:String}}"
        " AND SpanId = {span:String} AND toUnixTimestamp64Micro(Timestamp) = {at:Int64} LIMIT 1",
        {"trace": offer.trace_id, "span": offer.span_id, "at": offer.at_us},
    )
    if not rows:
        return {"question": "", "context": "", "answer": ""}
    return {name: str(value) for name, value in rows[0].items()}


def _free_judge_unsupported(store: Store, offer: Offer) -> set[int]:
    """Indices of answer sentences the free judge marked unsupported (its details list one per sentence)."""
    rows = store.query(
        f"SELECT argMax(Details, ScoredAt) FROM {store.table('ragpulse_scores')}"
        " WHERE TraceId = {trace:String} AND SpanId = {span:String}"
        " AND toUnixTimestamp64Micro(RequestTime) = {at:Int64} AND Scorer = {free:String}"
        " AND Metric = {metric:String} AND Error = ''",
        {"trace": offer.trace_id, "span": offer.span_id, "at": offer.at_us, "free": FREE_JUDGE,
         "metric": HALLUCINATION},
    )  # fmt: skip
    try:
        details: Any = json.loads(str(rows[0][0])) if rows and rows[0][0] else {}
    except json.JSONDecodeError:
        return set()
    sentences = details.get("sentences", []) if isinstance(details, dict) else []
    return {
        index
        for index, item in enumerate(sentences)
        if isinstance(item, dict) and item.get("verdict") == "unsupported"
    }
