"""A ``ragpulse_scores`` row as a ``gen_ai.evaluation.result`` event (OTel GenAI semantic conventions).

What is sent, and why:

- every row the scorers write, of every metric of every judge: ``gen_ai.evaluation.name`` is
  ``<scorer>.<metric>`` (``lexical.hallucination``, ``support.hallucination``), so a backend that groups by
  name never pools two judges' verdicts;
- ``gen_ai.evaluation.score.value`` when the metric has a value; a metric the judge could not define for this
  request (nothing to count) has no value and the label ``undefined``, its reason as the explanation;
- ``gen_ai.evaluation.score.label`` only where the metric is a verdict (:data:`VERDICT_LABELS`, an
  evaluator's ``pass`` among them), derived from the value so every judge says it the same way; ratios,
  ranks and counts have no label (the convention asks for low-cardinality labels, and inventing thresholds
  for them would be a verdict no judge made);
- a failed judgment (the row ragpulse keeps under the metric ``error``) is an event named after the scorer
  with ``error.type`` (the exception's class, or ``_OTHER``) and the message as the explanation: the
  evaluation ran and failed, which the convention's error attributes describe;
- a request that was not scored (sampled out, unscorable, over budget) has no score row and sends nothing:
  there is no verdict to show beside the trace.

The event is parented to the evaluated request's root span (trace id and span id) and carries the request's
time, so it sits in the same time bucket as the span it judges (backends look for a trace's logs around its
spans' times); the scoring time is its observed time.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from ragpulse import semconv

from ragpulse_scorers import metric_names

UNDEFINED_LABEL: Final = "undefined"
OTHER_ERROR: Final = "_OTHER"
# Verdict metrics: (label when the value is 0, label when it is 1).
VERDICT_LABELS: Final[Mapping[str, tuple[str, str]]] = {
    metric_names.HALLUCINATION: ("grounded", "hallucinated"),
    metric_names.ADHERENCE: ("unsupported", "supported"),
    metric_names.CORRECTNESS: ("incorrect", "correct"),
    metric_names.PASS: ("fail", "pass"),
}
_ERROR_CLASS = re.compile(r"^([A-Za-z_][\w.]*): ")


@dataclass(frozen=True)
class EvaluationEvent:
    trace_id: int
    span_id: int
    timestamp_ns: int
    observed_ns: int
    body: str
    attributes: dict[str, str | float]


def evaluation_event(row: Mapping[str, Any]) -> EvaluationEvent | None:
    """The event of one score row (keys: ``ragpulse_scores`` column names); None for a row with no trace id
    it could be parented to."""
    trace_id = _hex_id(row["TraceId"], 32)
    if not trace_id:
        return None
    scorer, metric = str(row["Scorer"]), str(row["Metric"])
    attributes: dict[str, str | float] = {
        semconv.SCORER: scorer,
        semconv.SCORER_VERSION: str(row["ScorerVersion"]),
        semconv.EVALUATED_SERVICE: str(row["ServiceName"]),
        semconv.PIPELINE: str(row["Pipeline"]),
        semconv.VARIANT: str(row["Variant"]),
    }
    error = str(row["Error"] or "")
    value = row["Value"]
    value = float(value) if value is not None and math.isfinite(float(value)) else None
    if error or metric == metric_names.ERROR:
        name = scorer
        match = _ERROR_CLASS.match(error)
        attributes[semconv.ERROR_TYPE] = match.group(1) if match else OTHER_ERROR
        explanation = error or "the judgment failed"
        body = f"{name} failed: {explanation}"
    else:
        name = f"{scorer}.{metric}"
        attributes[semconv.METRIC] = metric
        explanation = str(row["Explanation"] or "")
        label = _label(metric, value)
        if value is None:
            label = UNDEFINED_LABEL
            explanation = explanation or str(row["Label"] or "")
        else:
            attributes[semconv.GEN_AI_EVALUATION_SCORE_VALUE] = value
        if label:
            attributes[semconv.GEN_AI_EVALUATION_SCORE_LABEL] = label
        shown = "undefined" if value is None else f"{value:g}"
        body = f"{name} = {shown}" + (f" ({label})" if label and value is not None else "")
    attributes[semconv.GEN_AI_EVALUATION_NAME] = name
    if explanation:
        attributes[semconv.GEN_AI_EVALUATION_EXPLANATION] = explanation
    return EvaluationEvent(
        trace_id=trace_id,
        span_id=_hex_id(row["SpanId"], 16),
        timestamp_ns=_epoch_ns(row["RequestTime"]),
        observed_ns=_epoch_ns(row["ScoredAt"]),
        body=body,
        attributes=attributes,
    )


def _label(metric: str, value: float | None) -> str:
    labels = VERDICT_LABELS.get(metric)
    if labels is None or value is None:
        return ""
    return labels[1] if value >= 0.5 else labels[0]


def _hex_id(text: object, digits: int) -> int:
    """The id as the integer the SDK takes; 0 (invalid, left out on the wire) for anything not an id."""
    text = str(text or "")
    if len(text) != digits:
        return 0
    try:
        return int(text, 16)
    except ValueError:
        return 0


def _epoch_ns(moment: datetime) -> int:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1_000
