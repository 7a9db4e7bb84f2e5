"""What a tick writes for the lexical scorer is what the scorer says, encoded as a reader decodes it.

A reference path beside the pipeline: each stored request read back, judged directly with the root span's
guard attributes, its details encoded with ``json.dumps``; the tick's score rows must equal it, metric by
metric, over a batch large enough for every read to bind its requests in bulk.
"""

from __future__ import annotations

import json
from typing import Any

from pipeline_testing import SPAN_COLUMNS, root_span, settings_for, trace_id
from ragpulse import semconv
from ragpulse_core.store import Store
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import RagRequest
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import run_tick

CHUNKS = [
    "Der Eiffelturm steht in Paris und ist 330 Meter hoch.",
    'It opened in 1889 for the "Exposition Universelle"; its designer\'s firm was Eiffel & Cie.',
    "Paths like C:\\towers\\eiffel and tabs\tor\nnewlines are text too.",
]
ANSWERS = [
    "Der Eiffelturm steht in Paris.",
    "It opened in 1889. It was painted gold by the Romans.",
    "The tower's designer's firm was Eiffel & Cie, and it is 330 metres tall — 東京タワー is taller.",
]
GUARD = "ragpulse.guard."
COUNT = 90  # above the size from which a read binds its arrays itself


def _spans() -> list[list[Any]]:
    context = json.dumps([{"id": f"c{i}", "text": text, "rank": i + 1} for i, text in enumerate(CHUNKS)])
    spans = []
    for index in range(COUNT):
        span = root_span(trace_id("rows", index), answer=ANSWERS[index % len(ANSWERS)], context=context)
        if index % 4 == 0:  # a guard's verdict on some root spans: read with the candidates' attributes
            span[7] |= {semconv.GUARD_VERDICT: "supported", semconv.GUARD_SCORE: "0.9"}
        spans.append(span)
    return spans


def _reference(store: Store, scorer: LexicalScorer) -> dict[tuple[str, str], tuple[Any, ...]]:
    requests = store.query_dicts(f"SELECT * FROM {store.table('ragpulse_requests')}")
    attributes = {
        trace: dict(span_attributes)
        for trace, span_attributes in store.query(
            f"SELECT TraceId, SpanAttributes FROM {store.table('otel_traces')}"
        )
    }
    expected = {}
    for row in requests:
        request = RagRequest.from_row(row)
        guard = {key: value for key, value in attributes[request.trace_id].items() if key.startswith(GUARD)}
        request.span_attributes = guard
        for score in scorer.score(request):
            details = json.dumps(score.details, ensure_ascii=False, default=str) if score.details else "{}"
            expected[(request.trace_id, score.metric)] = (
                score.value, score.label, score.explanation, details
            )  # fmt: skip
    return expected


def test_the_rows_a_tick_writes_equal_the_scorers_own_scores(store: Store, chdb_dsn: str) -> None:
    store.insert("otel_traces", _spans(), SPAN_COLUMNS)
    scorer = LexicalScorer()

    report = run_tick(settings_for(chdb_dsn), store, [scorer])

    assert report.count("lexical", Outcome.SCORED) == COUNT
    written = {
        (trace, metric): (value, label, explanation, details)
        for trace, metric, value, label, explanation, details in store.query(
            "SELECT TraceId, Metric, Value, Label, Explanation, Details"
            f" FROM {store.table('ragpulse_scores')}"
        )
    }
    assert written == _reference(store, scorer)
    guarded = [details for (_, metric), (*_, details) in written.items() if metric == "hallucination"]
    assert sum('"guard"' in details for details in guarded) == len(range(0, COUNT, 4))
