"""The guard and the online lexical scorer reach one verdict: every RAGTruth dev response goes through a
decorated service with ``@rag(guard=...)``, the stock OTLP exporter, the collector and the scorer's tick,
and the score the scorer writes is the verdict the service got, which the scorer says it confirmed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import ragpulse
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace.export import SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from ragpulse.settings import apply_settings
from ragpulse_collector.server import CollectorServer
from ragpulse_core.store import Store
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_judge.learnt import LearntJudge
from ragpulse_judge.rules import LexicalJudge
from ragpulse_judge.training.data import split_passages
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.pipeline.tick import ScoringJob

JUDGES = {"rules": LexicalJudge, "learnt": LearntJudge}


@pytest.fixture
def whole_texts() -> Iterator[None]:
    """Spans carry whole texts (RAGTruth contexts pass the default 16,000-character cap)."""
    apply_settings(max_text_chars=1_000_000)
    yield
    apply_settings()


@pytest.mark.parametrize("judge", sorted(JUDGES))
def test_the_guards_verdicts_are_the_online_scorers_on_ragtruth_dev(
    judge: str,
    shared_data: Path,
    store: Store,
    collector: CollectorServer,
    span_exporter: InMemorySpanExporter,
    whole_texts: None,
) -> None:
    rows = [json.loads(line) for line in (shared_data / "ragtruth_qa_dev.jsonl").open(encoding="utf-8")]
    given: list[ragpulse.GuardVerdict] = []

    def keep(verdict: ragpulse.GuardVerdict, answer: str) -> str:
        given.append(verdict)
        return answer

    @ragpulse.generate(model="ragtruth")
    def generate(question: str, chunks: list[str], response: str) -> str:
        return response

    # A bound no loaded machine reaches: this test is about equal verdicts, the bound has its own tests.
    @ragpulse.rag(pipeline="ragtruth", guard=ragpulse.Guard(judge=judge, timeout_ms=60_000, on_verdict=keep))
    def answer(question: str, row: dict[str, str]) -> str:
        return generate(question, split_passages(row["context"]), row["response"])

    span_exporter.clear()
    for row in rows:
        answer(row["question"], row)
    spans = span_exporter.get_finished_spans()
    roots = [span.get_span_context() for span in spans if span.name == "rag ragtruth"]
    verdicts = {
        (format(root.trace_id, "032x"), format(root.span_id, "016x")): verdict
        for root, verdict in zip(roots, given, strict=True)
    }
    exporter = OTLPSpanExporter(endpoint=f"{collector.url}/v1/traces")
    assert exporter.export(spans) is SpanExportResult.SUCCESS
    assert collector.flush()
    settings = DashboardsSettings.load(store={"dsn": "chdb:///unused"})
    ScoringJob(settings, store, [LexicalScorer(JUDGES[judge]())]).run(
        datetime.now(UTC) + timedelta(minutes=1)
    )  # past the settle delay

    scored = store.query(
        f"SELECT TraceId, SpanId, Label, Details FROM {store.table('ragpulse_scores')} "
        "WHERE Scorer = 'lexical' AND Metric = 'hallucination'"
    )
    supports = dict(
        ((trace, span), value)
        for trace, span, value in store.query(
            f"SELECT TraceId, SpanId, Value FROM {store.table('ragpulse_scores')} "
            "WHERE Scorer = 'lexical' AND Metric = 'support'"
        )
    )
    assert len(scored) == len(verdicts) == len(rows)
    for trace, span, label, details in scored:
        verdict = verdicts[(trace, span)]
        assert (label == "hallucinated") is (verdict.verdict == "unsupported"), (trace, verdict)
        assert supports[(trace, span)] == pytest.approx(verdict.score, abs=1e-9)
        sentences = json.loads(details)["sentences"]
        assert [(s["sentence"], s["verdict"], s["evidence"]) for s in sentences] == [
            (claim.claim, claim.verdict, claim.evidence) for claim in verdict.claims
        ]
        assert json.loads(details)["guard"]["status"] == "confirmed"
    hallucinated = sum(verdict.verdict == "unsupported" for verdict in verdicts.values())
    assert 0 < hallucinated < len(rows)
