"""``ragpulse.feedback``: an end user's verdict on an answer, sent over the same OTLP path as the spans.

Feedback is one small span of its own (``ragpulse.feedback``, ``ragpulse.kind = feedback``), the root of a
trace of its own, whose attributes name the request it is about. Its own span rather than attributes on the
request's root span: feedback often comes after the request ended (a thumbs-down a minute later), when its
span is gone; and a trace that is already stored never grows a span. The scorer turns these spans into
labels with source ``user``.
"""

from __future__ import annotations

import logging
import math

from opentelemetry.trace import INVALID_SPAN_CONTEXT, NonRecordingSpan, set_span_in_context
from opentelemetry.util.types import AttributeValue

from ragpulse import semconv
from ragpulse.calls import _tracer
from ragpulse.internal import report_internal_error
from ragpulse.request import current_request
from ragpulse.settings import current_settings
from ragpulse.text import TextRecorder

logger = logging.getLogger("ragpulse")

# A root context: the feedback span never joins the trace of whatever is running when it is sent.
_ROOT = set_span_in_context(NonRecordingSpan(INVALID_SPAN_CONTEXT))


def feedback(
    score: float,
    comment: str | None = None,
    *,
    trace_id: str | int | None = None,
    span_id: str | int | None = None,
) -> bool:
    """Record an end user's ``score`` (0 = bad answer, 1 = good; a bool is 0 or 1) of a request.

    Inside a ``@ragpulse.rag`` request it is about that request; later, name the request by ``trace_id``
    (and its root ``span_id`` when the service may reuse trace ids), as 32 and 16 hex digits or as ints.
    Returns whether the feedback was sent; a bad score or no request to name is logged, never raised.
    """
    try:
        value = float(score)
        if not math.isfinite(value) or not 0 <= value <= 1:
            logger.warning("ragpulse.feedback: score must lie between 0 and 1, got %r; not sent", score)
            return False
        target = _target(trace_id, span_id)
        if target is None:
            logger.warning("ragpulse.feedback outside a @ragpulse.rag request needs trace_id=...; not sent")
            return False
        attributes = {semconv.KIND: semconv.KIND_FEEDBACK, semconv.FEEDBACK_SCORE: value, **target}
        if comment:
            text = TextRecorder(current_settings()).content(semconv.FEEDBACK_COMMENT, str(comment))
            if text is not None:
                attributes[semconv.FEEDBACK_COMMENT] = text
        _tracer().start_span(semconv.SPAN_FEEDBACK, context=_ROOT, attributes=attributes).end()
        return True
    except ValueError as exc:  # a malformed trace or span id
        logger.warning("ragpulse.feedback: %s; not sent", exc)
        return False
    except Exception:
        report_internal_error("feedback")
        return False


def _target(trace_id: str | int | None, span_id: str | int | None) -> dict[str, AttributeValue] | None:
    if trace_id is not None:
        named: dict[str, AttributeValue] = {semconv.FEEDBACK_TRACE_ID: _hex(trace_id, 32)}
        if span_id is not None:
            named[semconv.FEEDBACK_SPAN_ID] = _hex(span_id, 16)
        return named
    state = current_request.get()
    if state is None:
        return None
    context = state.span.get_span_context()
    found: dict[str, AttributeValue] = {
        semconv.FEEDBACK_TRACE_ID: format(context.trace_id, "032x"),
        semconv.FEEDBACK_SPAN_ID: format(context.span_id, "016x"),
    }
    start_ns = getattr(state.span, "start_time", None)
    if isinstance(start_ns, int):
        found[semconv.FEEDBACK_REQUEST_TIME_US] = start_ns // 1000
    return found


def _hex(value: str | int, digits: int) -> str:
    if isinstance(value, int):
        return format(value, f"0{digits}x")
    text = value.strip().lower()
    if len(text) != digits or text.strip("0123456789abcdef"):
        raise ValueError(f"expected {digits} hex digits, got {value!r}")
    return text
