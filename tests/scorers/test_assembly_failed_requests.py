"""A foreign trace whose root span ended in error and recorded no answer is "the request failed", not "no
answer" with advice about content capture; a failed root that still recorded an answer is judged as usual."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ragpulse_assembly.model import TraceSpan
from ragpulse_assembly.reasons import Unscorable, skip_reason
from ragpulse_assembly.rules import assemble

START = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
DOCUMENTS = {
    "retrieval.documents.0.document.id": "d1",
    "retrieval.documents.0.document.content": "The museum opens at nine on weekdays.",
    "retrieval.documents.0.document.score": "0.9",
}


def trace(status: str, answer: str) -> list[TraceSpan]:
    chain = {"openinference.span.kind": "CHAIN", "input.value": "When does the museum open?"}
    if answer:
        chain["output.value"] = answer
    retriever = {"openinference.span.kind": "RETRIEVER", "input.value": "museum opening", **DOCUMENTS}

    def span(span_id: str, parent: str, name: str, attributes: dict[str, str], code: str) -> TraceSpan:
        at = START + timedelta(milliseconds=len(span_id))
        return TraceSpan(
            span_id, parent, name, "museum-bot", "openinference", at, 5_000_000, code, attributes
        )

    return [
        span("a1", "", "RetrievalQA", chain, status),
        span("b22", "a1", "VectorStoreRetriever", retriever, "Ok"),
    ]


def test_a_failed_foreign_request_without_an_answer_is_the_request_failed() -> None:
    request = assemble("t1", trace("Error", answer=""))
    assert request is not None
    assert request.unscorable is Unscorable.REQUEST_FAILED
    reason = skip_reason(request.unscorable.value, ("answer",))
    assert reason == "the request failed"
    assert "content capture" not in (reason or "") and "no answer" not in (reason or "")


def test_a_failed_root_that_recorded_an_answer_is_judged() -> None:
    request = assemble("t1", trace("Error", answer="It opens at nine on weekdays."))
    assert request is not None and request.unscorable is Unscorable.SCORABLE


def test_without_an_error_a_missing_answer_stays_no_answer() -> None:
    request = assemble("t1", trace("Ok", answer=""))
    assert request is not None and request.unscorable is Unscorable.NO_ANSWER
