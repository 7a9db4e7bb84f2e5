"""Rows for ``ragpulse_scores`` and ``ragpulse_scoring_log``, and the order they are written in."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby
from operator import itemgetter
from typing import Any

from ragpulse_core.store import Store

from ragpulse_scorers import metric_names
from ragpulse_scorers.export import installed as score_export
from ragpulse_scorers.models import Score
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.candidates import INTERPRETED, epoch_micros

ERROR_METRIC = metric_names.ERROR

SCORE_COLUMNS = (
    "TraceId", "SpanId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer",
    "ScorerVersion", "Metric", "Value", "Label", "Explanation", "Details", "JudgeModel", "InputTokens",
    "OutputTokens", "CostUSD", "LatencyMs", "Error", "InclusionProbability",
)  # fmt: skip
LOG_COLUMNS = (
    "LoggedAt", "TraceId", "SpanId", "RequestTime", "ServiceName", "Variant", "Scorer", "ScorerVersion",
    "Outcome", "Reason", "Worker", "Rule", "RuleSet", "CostUSD", "InclusionProbability",
)  # fmt: skip

# The columns that tell one batch from another: a retried insert repeats them, another batch never does
# (each judgment has its own ScoredAt, each write its own LoggedAt). Hashing these, not the whole rows with
# their details, keeps the token cheap.
_TOKEN_KEYS = {
    "ragpulse_scores": ("TraceId", "SpanId", "ScoredAt", "Scorer", "ScorerVersion", "Metric"),
    "ragpulse_scoring_log": ("LoggedAt", "TraceId", "SpanId", "Scorer", "ScorerVersion", "Outcome"),
}
_UINT32_MAX = 2**32 - 1
_COST_USD = SCORE_COLUMNS.index("CostUSD")
# One encoder for every score's details, as json.dumps would build for each call with these options.
_DETAILS = json.JSONEncoder(ensure_ascii=False, default=str)


@dataclass(frozen=True)
class RequestKey:
    """What a score or log row copies from its request, named by (trace_id, span_id, request_time)."""

    trace_id: str
    span_id: str
    request_time: datetime
    service_name: str
    pipeline: str
    variant: str


@dataclass(frozen=True)
class Judgment:
    """One candidate's fate in a tick: its outcome, why, and the score rows to write (possibly none)."""

    request: RequestKey
    outcome: Outcome
    reason: str = ""
    score_rows: list[list[Any]] = field(default_factory=list)
    replaces_error: bool = False
    """A scored request that failed before: its earlier Error row is removed."""
    rule: str = ""
    """The rule that included the request and pays for its judgment (empty when none did)."""
    rule_set: str = ""
    """For a sampled-out request: the digest of the rules that left it out."""
    inclusion_probability: float = 1.0
    """How likely the rules were to include the request for this scorer (see ``rules.book.Wanted``)."""

    @property
    def cost_usd(self) -> float:
        return sum(float(row[_COST_USD]) for row in self.score_rows)


def error_score(message: str) -> Score:
    return Score(metric=ERROR_METRIC, value=None, error=message)


def score_rows(
    request: RequestKey, scorer: str, version: str, scores: Sequence[Score], scored_at: datetime
) -> list[list[Any]]:
    """Table rows for ``scores``; raises ``TypeError``/``ValueError`` on a value no column can hold."""
    return [
        [
            request.trace_id,
            request.span_id,
            request.request_time,
            scored_at,
            request.service_name,
            request.pipeline,
            request.variant,
            scorer,
            version,
            score.metric,
            _finite_or_none(score.value),
            score.label,
            score.explanation,
            _DETAILS.encode(score.details) if score.details else "{}",
            score.judge_model,
            _uint32(score.input_tokens),
            _uint32(score.output_tokens),
            float(score.cost_usd),
            float(score.latency_ms),
            score.error,
            _probability(score.inclusion_probability),
        ]
        for score in scores
    ]


def _finite_or_none(value: float | None) -> float | None:
    # NaN and infinities would poison every average a dashboard takes.
    return float(value) if value is not None and math.isfinite(value) else None


def _probability(value: float) -> float:
    # A weight of 1 / 0 or a negative one would make every weighted rate over the request meaningless.
    if not 0.0 < value <= 1.0:
        raise ValueError(f"inclusion probability must be in (0, 1], got {value}")
    return float(value)


def _uint32(value: int) -> int:
    return min(max(int(value), 0), _UINT32_MAX)


class ScoreWriter:
    """Writes one scorer's judgments: scores first, then the log rows that mark them done.

    A worker killed between the two leaves requests whose log row is missing; they are selected again and
    re-scored, and the ReplacingMergeTree keeps one set of rows per (request, scorer, metric); the view
    into ``ragpulse_score_values`` takes back the earlier judgment as the new one is written, so the panels'
    sums count the request once at once. Each insert carries a token derived from its rows, so a retried
    insert of the same batch is a no-op where the table deduplicates inserts.
    """

    def __init__(self, store: Store, scorer: str, version: str, worker: str) -> None:
        self._store = store
        self._scorer = scorer
        self._version = version
        self._worker = worker

    def write(self, judgments: Sequence[Judgment], logged_at: datetime) -> None:
        rows = [row for judgment in judgments for row in judgment.score_rows]
        self._insert("ragpulse_scores", rows, SCORE_COLUMNS)
        recovered = [j.request for j in judgments if j.replaces_error and j.outcome == Outcome.SCORED]
        if recovered:
            # The request times bound the delete to the partitions (and hours) that hold those error rows; an
            # error row from before requests had a SpanId (empty) was its trace's.
            self._store.command(
                f"DELETE FROM {self._store.table('ragpulse_scores')} WHERE Scorer = {{scorer:String}}"
                " AND Metric = {metric:String} AND has({ids:Array(String)}, TraceId)"
                " AND (SpanId = '' OR has({requests:Array(Tuple(String, String, Int64))},"
                " (TraceId, SpanId, toUnixTimestamp64Micro(RequestTime))))"
                " AND RequestTime BETWEEN {first:DateTime64(9)} AND {last:DateTime64(9)}"
                " AND ScoredAt < {logged_at:DateTime64(6)}",
                {
                    "scorer": self._scorer,
                    "metric": ERROR_METRIC,
                    "ids": [request.trace_id for request in recovered],
                    "requests": [
                        (request.trace_id, request.span_id, epoch_micros(request.request_time))
                        for request in recovered
                    ],
                    "first": min(request.request_time for request in recovered),
                    "last": max(request.request_time for request in recovered),
                    "logged_at": logged_at,
                },
            )
        self._insert("ragpulse_scoring_log", [self._log_row(j, logged_at) for j in judgments], LOG_COLUMNS)
        # Only now: a write that failed part-way is re-scored, and its scores would be sent twice.
        score_export.publish(SCORE_COLUMNS, rows)

    def _log_row(self, judgment: Judgment, logged_at: datetime) -> list[Any]:
        request = judgment.request
        return [
            logged_at,
            request.trace_id,
            request.span_id,
            request.request_time,
            request.service_name,
            request.variant,
            self._scorer,
            self._version,
            judgment.outcome,
            judgment.reason,
            self._worker,
            judgment.rule,
            judgment.rule_set,
            judgment.cost_usd,
            judgment.inclusion_probability,
        ]

    def _insert(self, table: str, rows: list[list[Any]], columns: Sequence[str]) -> None:
        if rows:
            self._store.insert(
                table, rows, columns, dedup_token=_token(table, rows, columns), settings=INTERPRETED
            )


def _token(table: str, rows: list[list[Any]], columns: Sequence[str]) -> str:
    """A digest of the rows' key columns, column by column: the same rows give the same token, rows with any
    key of theirs different another.

    A time column is digested as runs of one value and their lengths (a judgment's rows share its ScoredAt,
    a write's log rows their LoggedAt), the same sequence in a fifth of the formatting: formatting a time per
    row was most of the token's cost (0.14 s of CPU for a 10,000-request write)."""
    digest = hashlib.sha256(table.encode())
    for name in _TOKEN_KEYS[table]:
        values: list[Any] = list(map(itemgetter(columns.index(name)), rows))
        if isinstance(values[0], datetime):
            values = [(value, sum(1 for _ in run)) for value, run in groupby(values)]
        digest.update(repr(values).encode())
    return digest.hexdigest()
