"""A reviewer's label from the live page's form, stored as a ``reviewer`` label.

It is stored with the request's service, pipeline and variant as the requests table has them, never as the
form says; a sentence the answer does not have is refused and nothing is written.
"""

from __future__ import annotations

from ragpulse_core.store import Store
from ragpulse_scorers.labels.store import Label, RequestRef, Source, write_labels

from ragpulse_dashboards.review.label_form import LabelForm
from ragpulse_dashboards.review.request import RequestView


def save_label(store: Store, view: RequestView, form: LabelForm) -> None:
    """Store ``form`` as a reviewer's label of the request ``view`` shows; ValueError when it marks a sentence
    the answer does not have."""
    beyond = [index for index in form.sentences if index >= len(view.sentences)]
    if beyond:
        raise ValueError(f"the answer has {len(view.sentences)} sentences; no sentence {beyond[0]}")
    request = RequestRef(
        view.id.trace_id, view.id.span_id, view.time, view.service, view.pipeline, view.variant
    )
    write_labels(
        store,
        [
            Label.of(
                request,
                form.label,
                author=form.author,
                source=Source.REVIEWER,
                sentences=form.sentences,
                note=form.note,
            )
        ],
    )
