"""Building requests as ragpulse's decorators trace them, exporting them with the stock exporters in child
processes, and reading back what ragpulse made of them: requests, scores, scoring log, report figures."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ragpulse_core.store import Store

HERE = Path(__file__).resolve().parent
PARIS = "Paris is the capital of France. It lies on the Seine."
SUPPORTED = "Paris is the capital of France."
UNSUPPORTED = "Berlin was founded in 1237 by Albert the Bear and has 3,850,809 residents."
STEPS = ("retrieve", "generate")


@dataclass
class Request:
    """One RAG request: a ragpulse root span and its step spans (all ids as hex)."""

    service: str
    trace_id: str
    root_id: str
    start: int
    answer: str
    step_ids: tuple[str, ...]
    spans: list[dict[str, Any]] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, str, int]:
        """(TraceId, SpanId, start in microseconds): how ragpulse names a request."""
        return (self.trace_id, self.root_id, self.start // 1000)

    @property
    def root(self) -> dict[str, Any]:
        return self.spans[0]

    @property
    def children(self) -> list[dict[str, Any]]:
        return self.spans[1:]


def new_ids(rng: random.Random) -> tuple[str, str]:
    return format(rng.getrandbits(128), "032x"), format(rng.getrandbits(64), "016x")


def request(
    service: str,
    trace_id: str,
    root_id: str,
    start: int,
    answer: str,
    step_ids: Sequence[str] | None = None,
    rng: random.Random | None = None,
) -> Request:
    """A request as ``@ragpulse.rag`` exports it: a root holding question, context and answer, and steps."""
    rng = rng or random.Random()
    steps = tuple(step_ids) if step_ids is not None else tuple(new_ids(rng)[1] for _ in STEPS)
    made = Request(service, trace_id, root_id, start, answer, steps)
    context = json.dumps([{"id": "paris", "text": PARIS, "rank": 1}])
    made.spans.append(
        {
            "service": service, "name": "rag capitals", "trace_id": trace_id, "span_id": root_id,
            "start": start, "end": start + 30_000_000,
            "attributes": {
                "ragpulse.kind": "rag", "ragpulse.pipeline": "capitals", "ragpulse.variant": "A",
                "openinference.span.kind": "CHAIN",
                "input.value": "What is the capital of France?", "output.value": answer,
                "ragpulse.context": context,
            },
        }
    )  # fmt: skip
    for offset, (name, span_id) in enumerate(zip(STEPS, steps, strict=True)):
        made.spans.append(
            {
                "service": service, "name": name, "trace_id": trace_id, "span_id": span_id,
                "parent_id": root_id, "start": start + (offset + 1) * 1_000_000,
                "end": start + (offset + 2) * 1_000_000, "attributes": {"ragpulse.step": name},
            }
        )  # fmt: skip
    return made


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        str(Path(entry).resolve()) for entry in env.get("PYTHONPATH", "").split(os.pathsep) if entry
    )
    return env


def start_export(
    protocol: str,
    endpoint: str,
    exports: list[list[dict[str, Any]]],
    *,
    retry: bool = True,
    timeout: float = 10,
    resend_superset: bool = False,
) -> subprocess.Popen[str]:
    """A child process exporting ``exports`` with the stock exporter of ``protocol``, one batch per call."""
    plan = {
        "protocol": protocol, "endpoint": endpoint, "exports": exports,
        "retry_until_success": retry, "timeout": timeout, "resend_superset": resend_superset,
    }  # fmt: skip
    process = subprocess.Popen(
        [sys.executable, str(HERE / "stock_exporter.py")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(),
    )  # fmt: skip
    assert process.stdin is not None
    process.stdin.write(json.dumps(plan))
    process.stdin.close()
    return process


def finish(process: subprocess.Popen[str], timeout: float = 60) -> list[str]:
    """The export results the child printed, once it exits."""
    assert process.stdout is not None and process.stderr is not None
    out = process.stdout.read()
    process.wait(timeout)
    assert process.returncode == 0, process.stderr.read()
    return out.split()


def export(protocol: str, endpoint: str, exports: list[list[dict[str, Any]]]) -> list[str]:
    return finish(start_export(protocol, endpoint, exports))


def now_ns(seconds_ago: float = 300) -> int:
    """A start time a few minutes back (tables keep recent data; requests must have settled)."""
    return time.time_ns() - int(seconds_ago * 1e9)


def micros(value: datetime) -> int:
    stamp = value.replace(tzinfo=UTC) if value.tzinfo is None else value
    return int(stamp.timestamp()) * 1_000_000 + stamp.microsecond


def spans_of(store: Store, service: str) -> list[tuple[str, str, int]]:
    """Every stored span of ``service`` as (TraceId, SpanId, start ns), duplicates included."""
    rows = store.query(
        f"SELECT TraceId, SpanId, toUnixTimestamp64Nano(Timestamp) FROM {store.table('otel_traces')}"
        " WHERE ServiceName = {s:String} ORDER BY 1, 2, 3",
        {"s": service},
    )
    return [(trace, span, int(start)) for trace, span, start in rows]


def requests_of(store: Store, service: str) -> list[tuple[str, str, int, str]]:
    """The service's requests as (TraceId, SpanId, start µs, answer), as the dashboards read them."""
    rows = store.query(
        f"SELECT TraceId, SpanId, Timestamp, Answer FROM {store.table('ragpulse_requests')} FINAL"
        " WHERE ServiceName = {s:String} ORDER BY 1, 2, 3",
        {"s": service},
    )
    return [(trace, span, micros(at), answer) for trace, span, at, answer in rows]


def hallucination_of(store: Store, service: str) -> dict[tuple[str, str, int], list[float]]:
    """Each request's lexical hallucination values (one each when every request is scored once)."""
    rows = store.query(
        f"SELECT TraceId, SpanId, RequestTime, Value FROM {store.table('ragpulse_scores')} FINAL"
        " WHERE ServiceName = {s:String} AND Scorer = 'lexical' AND Metric = 'hallucination'",
        {"s": service},
    )
    found: dict[tuple[str, str, int], list[float]] = {}
    for trace, span, at, value in rows:
        found.setdefault((trace, span, micros(at)), []).append(value)
    return found


def outcomes_of(store: Store, service: str) -> dict[tuple[str, str, int], list[tuple[str, str]]]:
    """Each request's lexical scoring-log lines as (outcome, reason)."""
    rows = store.query(
        f"SELECT TraceId, SpanId, RequestTime, Outcome, Reason FROM {store.table('ragpulse_scoring_log')}"
        " WHERE ServiceName = {s:String} AND Scorer = 'lexical'",
        {"s": service},
    )
    found: dict[tuple[str, str, int], list[tuple[str, str]]] = {}
    for trace, span, at, outcome, reason in rows:
        found.setdefault((trace, span, micros(at)), []).append((outcome, reason))
    return found


def lexical_tick(store: Store, at: datetime | None = None) -> None:
    from ragpulse_dashboards.settings import DashboardsSettings
    from ragpulse_scorers.lexical.scorer import LexicalScorer
    from ragpulse_scorers.pipeline.tick import ScoringJob

    settings = DashboardsSettings.load(store={"dsn": "chdb:///unused"}, scorer={"settle_delay_s": 60})
    ScoringJob(settings, store, [LexicalScorer()]).run(at or datetime.now(UTC))


def report_counts(store: Store, service: str, since: datetime) -> tuple[int, int]:
    """(requests, scored) of the service as the report shows them."""
    from ragpulse_dashboards.report.collect import collect_report

    report = collect_report(store, since)
    rows = [row for row in report.variants if row.service == service]
    return (sum(row.requests for row in rows), sum(row.scored for row in rows))


def not_scored_counts(store: Store, service: str, since: datetime) -> dict[str, int]:
    """The report's "not scored, and why" for the service: requests per reason, by the query the report runs
    for it (alone, so that it reads a store of an earlier schema, whose other tables the report reads too)."""
    from ragpulse_dashboards.report import queries

    rows = queries.not_scored(store, {"since_ms": int(since.timestamp() * 1000), "service": ""})
    return {row.reason: row.requests for row in rows if row.service == service}


def since() -> datetime:
    return datetime.now(UTC) - timedelta(hours=1)
