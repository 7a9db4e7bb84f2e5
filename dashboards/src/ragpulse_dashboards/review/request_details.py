"""What the request page shows beyond the reviewer's view: the span tree, the query variations with their
rankings, the fused chunks the generator saw, and each judge's run: when and how fast it judged, its verdict
on each answer sentence with the evidence it found, and which chunks it says the answer used.

Everything is read from the stored request row, its spans and its scores; a value that cannot be read (a
variation list that is not JSON) is said to be unreadable, never guessed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from ragpulse_core.store import Store
from ragpulse_scorers.metric_names import HALLUCINATION, UTILIZATION
from ragpulse_scorers.models import ContextChunk, RagRequest, RequestRowError, Retrieval

from ragpulse_dashboards.report.details import JudgedSentence, judged_sentences
from ragpulse_dashboards.review.request import RequestView, normal_sentence
from ragpulse_dashboards.review.trace import SpanTree, read_span_tree

# A utilised sentence key names its document by position: "0a" is document 0's first sentence.
_DOCUMENT_KEY: Final = re.compile(r"^\s*(\d{1,4})[a-z]+\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class JudgeRun:
    """One judge's newest scoring of the request."""

    judge: str
    hallucinated: bool | None
    latency_ms: float
    after_s: float
    """Seconds from the request's start to the judgment."""
    sentences: dict[int, JudgedSentence] = field(default_factory=dict)
    """Its verdict on each answer sentence it judged one by one, by the sentence's index."""
    used: frozenset[int] = frozenset()
    """Positions (from 0) of the context chunks it says the answer used."""


@dataclass(frozen=True)
class RequestDetails:
    spans: SpanTree
    variations: list[str]
    retrievals: list[Retrieval]
    chunks: list[ContextChunk]
    judges: list[JudgeRun]
    session: str
    unreadable: str = ""
    """Why the variations, rankings or chunks could not be read ("" when they could)."""

    def sentences_using(self, position: int) -> dict[str, list[int]]:
        """Per judge, the answer sentences whose evidence came from the chunk at ``position``."""
        chunk = self.chunks[position]
        used: dict[str, list[int]] = {}
        for run in self.judges:
            indices = [
                index for index, judged in sorted(run.sentences.items()) if judged.chunk_id == chunk.id
            ]
            if indices:
                used[run.judge] = indices
        return used


def read_request_details(store: Store, view: RequestView) -> RequestDetails:
    request = view.id
    params: dict[str, Any] = {"trace": request.trace_id, "span": request.span_id, "at": request.at_us}
    rows = store.query_dicts(
        "SELECT TraceId, SpanId, Timestamp, Context, Variations, Retrievals, SessionId, DurationMs"
        f" FROM {store.table('ragpulse_requests')}"
        " WHERE TraceId = {trace:String} AND SpanId = {span:String}"
        " AND toUnixTimestamp64Micro(Timestamp) = {at:Int64} LIMIT 1",
        params,
    )
    row = rows[0] if rows else {}
    unreadable = ""
    try:
        parsed = RagRequest.from_row(row) if row else None
    except RequestRowError as exc:
        parsed, unreadable = None, str(exc)
    duration = float(row.get("DurationMs", 0.0) or 0.0)
    return RequestDetails(
        spans=read_span_tree(store, request.trace_id, request.span_id, view.time, duration),
        variations=parsed.variations if parsed is not None else [],
        retrievals=sorted(parsed.retrievals, key=lambda found: found.query_index)
        if parsed is not None
        else [],
        chunks=parsed.context if parsed is not None else [],
        judges=_judge_runs(store, params, view),
        session=str(row.get("SessionId", "")),
        unreadable=unreadable,
    )


def _judge_runs(store: Store, params: dict[str, Any], view: RequestView) -> list[JudgeRun]:
    rows = store.query_dicts(
        "SELECT Scorer, Metric, argMax(Value, ScoredAt) AS value, argMax(Details, ScoredAt) AS details,"
        " argMax(LatencyMs, ScoredAt) AS latency, max(ScoredAt) AS scored"
        f" FROM {store.table('ragpulse_scores')}"
        " WHERE TraceId = {trace:String} AND SpanId = {span:String}"
        " AND toUnixTimestamp64Micro(RequestTime) = {at:Int64} AND Error = ''"
        " GROUP BY Scorer, Metric ORDER BY Scorer, Metric",
        params,
    )
    by_judge: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_judge.setdefault(str(row["Scorer"]), []).append(row)
    normalised = [normal_sentence(sentence) for sentence in view.sentences]
    runs = []
    for judge, metrics in by_judge.items():
        hallucination = next((m for m in metrics if m["Metric"] == HALLUCINATION), None)
        value = None if hallucination is None or hallucination["value"] is None else hallucination["value"]
        scored = max(_utc(m["scored"]) for m in metrics)
        sentences: dict[int, JudgedSentence] = {}
        used: set[int] = set()
        for metric in metrics:
            for judged in judged_sentences(str(metric["details"])):
                wanted = normal_sentence(judged.sentence)
                for index, sentence in enumerate(normalised):
                    if sentence and sentence == wanted:
                        sentences.setdefault(index, judged)
            if metric["Metric"] == UTILIZATION:
                used |= _utilised_documents(str(metric["details"]))
        runs.append(
            JudgeRun(
                judge,
                None if value is None else float(value) >= 0.5,
                max((float(m["latency"]) for m in metrics), default=0.0),
                (scored - view.time).total_seconds(),
                sentences,
                frozenset(used),
            )
        )
    return runs


def _utilised_documents(details: str) -> set[int]:
    """Documents named by the keys of ``utilized_keys`` (the support judge's ``0a``, ``1c``)."""
    try:
        parsed = json.loads(details) if details else {}
    except (json.JSONDecodeError, RecursionError):
        return set()
    keys = parsed.get("utilized_keys", []) if isinstance(parsed, dict) else []
    found = set()
    for key in keys if isinstance(keys, list) else []:
        match = _DOCUMENT_KEY.match(key) if isinstance(key, str) else None
        if match:
            found.add(int(match.group(1)))
    return found


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
