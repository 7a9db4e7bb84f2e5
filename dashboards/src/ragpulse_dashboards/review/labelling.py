"""A reviewer's label from the live page's form, stored as a ``reviewer`` label.

It is stored with the request's service, pipeline and variant as the requests table has them, never as the
form says; a sentence the answer does not have is refused and nothing is written.
"""

from __future__ import annotations

from datetime import UTC, datetime

from ragpulse_core.store import Store

from ragpulse_dashboards.review.label_form import LabelForm
from ragpulse_dashboards.review.request import RequestView

SOURCE = "reviewer"


def save_label(store: Store, view: RequestView, form: LabelForm) -> None:
    """Store ``form`` as a reviewer's label of the request ``view`` shows; ValueError when it marks a sentence
    the answer does not have."""
    # Imported here while the labels part (its table and store) lands on a branch of its own.
    from ragpulse_scorers.labels.store import Label, write_labels

    beyond = [index for index in form.sentences if index >= len(view.sentences)]
    if beyond:
        raise ValueError(f"the answer has {len(view.sentences)} sentences; no sentence {beyond[0]}")
    write_labels(
        store,
        [
            Label(
                trace_id=view.id.trace_id,
                span_id=view.id.span_id,
                request_time=view.time,
                service=view.service,
                pipeline=view.pipeline,
                variant=view.variant,
                label=form.label,
                sentences=form.sentences,
                author=form.author,
                source=SOURCE,
                note=form.note,
                label_time=datetime.now(UTC),
            )
        ],
    )
