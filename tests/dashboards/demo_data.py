"""Demo-like data for the dashboard and alert-rule queries: requests as OTel spans (root spans feed
ragpulse_requests through the materialized view; child spans give step latency) and score rows from the
lexical, LLM support, coverage and retrieval scorers, all within the last hour."""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ragpulse_core.store import Store
from ragpulse_scorers.review.queue import in_uniform_share_sql

SERVICE = "ragpulse-example"
PIPELINE = "fusion"
VARIANTS = {"A": 0.1, "B": 0.3}
EVALUATOR = "cites"
EVALUATOR_PASS_RATE = 0.75  # hallucination rate the lexical judge sees per variant
REQUESTS_PER_VARIANT = 60
STEPS = ("variations", "retrieve", "retrieve", "retrieve", "fuse", "generate")

SPAN_COLUMNS = [
    "Timestamp",
    "TraceId",
    "SpanId",
    "ParentSpanId",
    "SpanName",
    "SpanKind",
    "ServiceName",
    "ResourceAttributes",
    "SpanAttributes",
    "Duration",
    "StatusCode",
]
SCORE_COLUMNS = [
    "TraceId",
    "RequestTime",
    "ScoredAt",
    "ServiceName",
    "Pipeline",
    "Variant",
    "Scorer",
    "ScorerVersion",
    "Metric",
    "Value",
    "Label",
    "Explanation",
    "Details",
    "JudgeModel",
    "InputTokens",
    "OutputTokens",
    "CostUSD",
    "LatencyMs",
    "Error",
]


@dataclass
class Demo:
    now: datetime
    hallucinated_trace: str = ""
    hallucinated_sentences: int = 0
    spans_per_trace: int = len(STEPS) + 1
    lexical: dict[str, list[int]] = field(default_factory=dict)  # variant -> hallucination flags


def truncate(store: Store) -> None:
    tables = store.query(
        "SELECT name FROM system.tables WHERE database = {db:String} "
        "AND engine NOT IN ('MaterializedView', 'View') AND name != 'ragpulse_schema_migrations'",
        {"db": store.database},
    )
    for (name,) in tables:
        store.command(f"TRUNCATE TABLE {store.table(name)}")


def _score(
    trace: str,
    at: datetime,
    variant: str,
    scorer: str,
    metric: str,
    value: float | None,
    details: str = "{}",
    cost: float = 0.0,
    error: str = "",
) -> list[Any]:
    return [
        trace,
        at,
        at + timedelta(seconds=20),
        SERVICE,
        PIPELINE,
        variant,
        scorer,
        "1",
        metric,
        value,
        "",
        "",
        details,
        "gpt-4o-mini" if cost else "",
        0,
        0,
        cost,
        5.0,
        error,
    ]


def _drawn_trace(store: Store) -> str:
    """A fresh trace id whose request (span id '', as the demo's labels name it) is in the random share."""
    candidates = [uuid.uuid4().hex for _ in range(64)]
    rows = store.query(
        "SELECT TraceId FROM (SELECT arrayJoin({ids:Array(String)}) AS TraceId, '' AS SpanId)"
        f" WHERE {in_uniform_share_sql()} LIMIT 1",
        {"ids": candidates},
    )
    return str(rows[0][0])


def seed(store: Store, now: datetime) -> Demo:
    rng = random.Random(7)
    demo = Demo(now=now)
    spans: list[list[Any]] = []
    scores: list[list[Any]] = []
    labels: list[list[Any]] = []
    resource = {"service.name": SERVICE}
    for variant, rate in VARIANTS.items():
        flags = [1] * round(rate * REQUESTS_PER_VARIANT) + [0] * round((1 - rate) * REQUESTS_PER_VARIANT)
        rng.shuffle(flags)
        demo.lexical[variant] = flags
        for index, hallucinated in enumerate(flags):
            labelled = index % 3 == 0
            trace, root = _drawn_trace(store) if labelled else uuid.uuid4().hex, uuid.uuid4().hex[:16]
            at = now - timedelta(minutes=55) + timedelta(seconds=50 * index + (7 if variant == "B" else 0))
            failed = index % 25 == 24
            answer = (
                "Python lists are mutable. They were invented in 1850."
                if hallucinated
                else "Lists are mutable."
            )
            attributes = {
                "ragpulse.kind": "rag",
                "ragpulse.pipeline": PIPELINE,
                "ragpulse.variant": variant,
                "input.value": f"Are Python lists mutable? ({variant}{index})",
                "output.value": answer,
                "ragpulse.context": json.dumps(
                    [{"id": "doc1", "text": "Lists are mutable sequences.", "rank": 1, "source": "tutorial"}]
                ),
                "session.id": f"{variant}-{index // 3}",
            }
            total_ms = 0
            for position, step in enumerate(STEPS):
                duration_ms = rng.randint(5, 40) if step != "generate" else rng.randint(200, 900)
                total_ms += duration_ms
                spans.append(
                    [
                        at + timedelta(milliseconds=10 * position),
                        trace,
                        uuid.uuid4().hex[:16],
                        root,
                        step,
                        "Internal",
                        SERVICE,
                        resource,
                        {"ragpulse.step": step},
                        duration_ms * 10**6,
                        "Ok",
                    ]
                )
            spans.append(
                [
                    at,
                    trace,
                    root,
                    "",
                    f"rag {PIPELINE}",
                    "Server",
                    SERVICE,
                    resource,
                    attributes,
                    total_ms * 10**6,
                    "Error" if failed else "Ok",
                ]
            )
            # Details as the judges write them: the lexical judge's "sentences" list, the LLM support judge's
            # "sentence_support" with the sentence texts by key.
            sentences = [
                {
                    "sentence": "Python lists are mutable.",
                    "verdict": "supported",
                    "score": 0.9,
                    "chunk_id": "doc1",
                    "evidence": "Lists are mutable sequences.",
                }
            ]
            if hallucinated:
                sentences.append(
                    {
                        "sentence": "They were invented in 1850.",
                        "verdict": "unsupported",
                        "score": 0.05,
                        "chunk_id": None,
                        "evidence": "",
                    }
                )
                if not demo.hallucinated_trace and index % 2 == 0 and index % 10 != 0:  # LLM-judged too
                    demo.hallucinated_trace, demo.hallucinated_sentences = trace, len(sentences)
            llm_details = json.dumps(
                {
                    "sentence_support": [
                        {
                            "sentence_key": f"r{i}",
                            "is_supported": s["verdict"] == "supported",
                            "explanation": "x",
                        }
                        for i, s in enumerate(sentences)
                    ],
                    "sentences": {f"r{i}": s["sentence"] for i, s in enumerate(sentences)},
                }
            )
            # A reviewer labelled every third request, disagreeing with the judge now and then; the span id is
            # as the demo's score rows name the request (they carry none). Those requests are in the review
            # queue's random share, the only reviewer labels the figures count.
            if labelled:
                said = "hallucinated" if bool(hallucinated) != (index % 15 == 0) else "grounded"
                labels.append(
                    [now, trace, "", at, SERVICE, PIPELINE, variant, said, [], "ann", "reviewer", None, ""]
                )
            details = json.dumps({"sentences": sentences})
            support = 0.5 if hallucinated else 1.0  # one of two sentences unsupported, or the only one fine
            scores += [
                _score(trace, at, variant, "lexical", "hallucination", float(hallucinated), details),
                _score(trace, at, variant, "lexical", "support", support, details),
                _score(trace, at, variant, "lexical", "utilization", rng.uniform(0.3, 0.9), details),
                _score(trace, at, variant, "lexical", "context_utilization", rng.uniform(0.2, 0.8), details),
                _score(trace, at, variant, "lexical", "unsupported_sentences", float(hallucinated), details),
                # A team's own evaluator ([evaluators.regex.cites]): three answers in four cite a source.
                _score(trace, at, variant, EVALUATOR, "pass", float(index % 4 != 0)),
            ]
            if index % 2 == 0:
                cost = 0.0004
                if index % 10 == 0:
                    scores.append(
                        _score(
                            trace,
                            at,
                            variant,
                            "support",
                            "hallucination",
                            None,
                            cost=cost,
                            error="judge timed out",
                        )
                    )
                else:
                    for metric, value in (
                        ("relevance", 0.6),
                        ("utilization", 0.5),
                        ("completeness", 0.7),
                        ("adherence", 1.0 - hallucinated),
                        ("hallucination", float(hallucinated)),
                    ):
                        row_details = llm_details if metric == "adherence" else "{}"
                        scores.append(
                            _score(trace, at, variant, "support", metric, value, row_details, cost / 5)
                        )
                for metric in ("coverage_core", "coverage_background", "coverage_follow_up"):
                    scores.append(
                        _score(trace, at, variant, "coverage", metric, rng.uniform(0.2, 1.0), cost=0.0002)
                    )
                for metric in ("mrr5_very_relevant", "mrr5_relevant"):
                    scores.append(
                        _score(trace, at, variant, "retrieval", metric, rng.choice([0.0, 0.5, 1.0]))
                    )
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    store.insert("ragpulse_scores", scores, SCORE_COLUMNS)
    store.insert("ragpulse_requests", _unscorable_requests(now), UNSCORABLE_COLUMNS)
    store.insert("ragpulse_labels", labels, LABEL_COLUMNS)
    return demo


LABEL_COLUMNS = [
    "LabelTime", "TraceId", "SpanId", "RequestTime", "ServiceName", "Pipeline", "Variant", "Label",
    "Sentences", "Author", "Source", "Score", "Note",
]  # fmt: skip
UNSCORABLE_COLUMNS = [
    "TraceId", "Timestamp", "ServiceName", "Pipeline", "Variant", "Question", "Source", "ContextSource",
    "Unscorable", "DurationMs",
]  # fmt: skip


def _unscorable_requests(now: datetime) -> list[list[Any]]:
    """Requests assembled from other instrumentations that no judge may score, one per reason."""
    return [
        [uuid.uuid4().hex, now - timedelta(minutes=20 + n), SERVICE, PIPELINE, "B", question, source, origin,
         reason, 350.0]
        for n, (question, source, origin, reason) in enumerate(
            [
                ("", "genai", "", "no_content"),
                ("How do I share a folder?", "openllmetry", "", "no_context"),
                ("Are lists mutable?", "openinference", "prompt", "unparseable"),
            ]
        )
    ]  # fmt: skip
