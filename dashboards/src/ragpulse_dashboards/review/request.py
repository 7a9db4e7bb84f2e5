"""One request as a reviewer reads it: question, context, answer sentences, each judge's verdicts, its labels.

A request is its trace id, its root span id and its start in microseconds (``at``). The answer is split into
sentences the way the judges split it (:func:`ragpulse_judge.text.split_sentences`), so a sentence index
means the same thing in a label as in the free judge's details.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ragpulse_assembly.context import context_texts
from ragpulse_core.store import Store
from ragpulse_judge.text import split_sentences
from ragpulse_scorers.metric_names import ADHERENCE, HALLUCINATION

from ragpulse_dashboards.report.details import unsupported_sentences

# Sentences a judge flagged, read from its details (any shape the report reads), up to this many.
_FLAGGED_LIMIT = 200


@dataclass(frozen=True)
class RequestId:
    trace_id: str
    span_id: str
    at_us: int


@dataclass(frozen=True)
class JudgeVerdict:
    """One judge's newest hallucination verdict on the request, and the answer sentences it flagged."""

    judge: str
    hallucinated: bool
    explanation: str
    flagged: frozenset[int]
    """Indices of answer sentences the judge marked unsupported (empty when it judges whole answers)."""


@dataclass(frozen=True)
class GivenLabel:
    label: str
    sentences: tuple[int, ...]
    author: str
    source: str
    note: str
    at: datetime


@dataclass(frozen=True)
class RequestView:
    id: RequestId
    service: str
    pipeline: str
    variant: str
    time: datetime
    question: str
    context: list[str]
    answer: str
    sentences: list[str]
    verdicts: list[JudgeVerdict]
    labels: list[GivenLabel]


def _match(time: str) -> str:
    """The condition naming one request in a table whose start column is ``time``."""
    return (
        "TraceId = {trace:String} AND SpanId = {span:String}"
        f" AND toUnixTimestamp64Micro({time}) = {{at:Int64}}"
    )


def read_request(store: Store, request: RequestId) -> RequestView | None:
    """The request and everything judged and said about it; None when no such request is stored."""
    params: dict[str, Any] = {"trace": request.trace_id, "span": request.span_id, "at": request.at_us}
    rows = store.query_dicts(
        "SELECT ServiceName, Pipeline, Variant, Timestamp, Question, Context, Answer"
        f" FROM {store.table('ragpulse_requests')} WHERE {_match('Timestamp')} LIMIT 1",
        params,
    )
    if not rows:
        return None
    row = rows[0]
    sentences = split_sentences(str(row["Answer"]))
    return RequestView(
        id=request,
        service=str(row["ServiceName"]),
        pipeline=str(row["Pipeline"]),
        variant=str(row["Variant"]),
        time=_utc(row["Timestamp"]),
        question=str(row["Question"]),
        context=context_texts(str(row["Context"])),
        answer=str(row["Answer"]),
        sentences=sentences,
        verdicts=_verdicts(store, params, sentences),
        labels=_labels(store, params),
    )


def _verdicts(store: Store, params: dict[str, Any], sentences: list[str]) -> list[JudgeVerdict]:
    rows = store.query_dicts(
        "SELECT Scorer, Metric, argMax(Value, ScoredAt) AS value,"
        " argMax(Explanation, ScoredAt) AS explanation, argMax(Details, ScoredAt) AS details"
        f" FROM {store.table('ragpulse_scores')} WHERE {_match('RequestTime')}"
        " AND Metric IN {metrics:Array(String)} AND Error = '' AND Value IS NOT NULL"
        " GROUP BY Scorer, Metric ORDER BY Scorer, Metric",
        {**params, "metrics": [HALLUCINATION, ADHERENCE]},
    )
    by_judge: dict[str, dict[str, dict[str, Any]]] = {}
    for row in rows:
        by_judge.setdefault(str(row["Scorer"]), {})[str(row["Metric"])] = row
    verdicts = []
    for judge, metrics in by_judge.items():
        hallucination = metrics.get(HALLUCINATION)
        if hallucination is None:
            continue
        explanation = str(hallucination["explanation"]) or str(
            metrics.get(ADHERENCE, {}).get("explanation", "")
        )
        flagged = _flagged([str(metric["details"]) for metric in metrics.values()], sentences)
        verdicts.append(JudgeVerdict(judge, float(hallucination["value"]) >= 0.5, explanation, flagged))
    return verdicts


def _flagged(details: list[str], sentences: list[str]) -> frozenset[int]:
    """Answer sentences a judge's details mark unsupported, found by their text (a judge may split or trim
    differently; a flagged text that names no answer sentence is left out rather than guessed)."""
    normalised = [normal_sentence(sentence) for sentence in sentences]
    flagged: set[int] = set()
    for raw in details:
        for text in unsupported_sentences(raw, limit=_FLAGGED_LIMIT):
            wanted = normal_sentence(text)
            flagged.update(
                index for index, sentence in enumerate(normalised) if sentence and sentence == wanted
            )
    return frozenset(flagged)


def normal_sentence(text: str) -> str:
    """A sentence as sentences are matched across judges: spacing folded, case ignored."""
    return " ".join(text.split()).strip().lower()


def _labels(store: Store, params: dict[str, Any]) -> list[GivenLabel]:
    rows = store.query_dicts(
        "SELECT Label, Sentences, Author, Source, Note, LabelTime"
        f" FROM {store.table('ragpulse_labels')} FINAL WHERE {_match('RequestTime')}"
        " ORDER BY LabelTime DESC",
        params,
    )
    return [
        GivenLabel(
            str(row["Label"]),
            tuple(int(index) for index in row["Sentences"]),
            str(row["Author"]),
            str(row["Source"]),
            str(row["Note"]),
            _utc(row["LabelTime"]),
        )
        for row in rows
    ]


def _utc(moment: datetime) -> datetime:
    """A time read from the store (naive, in UTC) as an aware one."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
