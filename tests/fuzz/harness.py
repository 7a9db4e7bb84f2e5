"""One fuzzing example run against the real thing: hostile OTLP/JSON spans and log records posted to the real
collector over HTTP, a labels file imported, a rule from the config, a judge whose reply is hostile, then one
scoring tick with the free judge and the support judge. Beside the hostile data every example posts one
ordinary request, and checks the invariants: the tick finishes, the ordinary request is still scored, the log
stays within its budget and memory stays bounded."""

from __future__ import annotations

import io
import json
import logging
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx
from pydantic import SecretStr, ValidationError
from ragpulse_core.store import Store
from ragpulse_scorers.judges.support import SupportScorer
from ragpulse_scorers.labels.importing import import_labels
from ragpulse_scorers.lexical.scorer import build as build_lexical
from ragpulse_scorers.llm.client import JudgeClient
from ragpulse_scorers.pipeline.tick import ScoringJob
from ragpulse_scorers.settings import JudgeSettings, ScorersSettings

TICK_TIMEOUT_S = 120.0
"""A tick that has not finished after this long counts as stalled."""
LOG_WINDOW_S = 60.0
LOG_LINES_PER_WINDOW = 120
"""Warnings and errors ragpulse may log per minute under any input: the budgets of refused items (20), of
failing requests (20) and assemblies (10), of malformed HTTP (5) and failing steps (3), with room."""
RSS_GROWTH_BYTES = 768 << 20
"""How far resident memory may grow over a run: the stores and caches a run fills, not one reply's size."""


@dataclass(frozen=True)
class Case:
    traces: list[bytes]
    logs: list[bytes]
    labels: bytes
    rule: dict[str, Any]
    judge_reply: str


@dataclass
class Figures:
    examples: int = 0
    ticks: int = 0
    max_lines_per_window: int = 0
    peak_rss_bytes: int = 0
    start_rss_bytes: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    refused_rules: int = 0
    found: list[str] = field(default_factory=list)


class LogWindow(logging.Handler):
    """Counts ragpulse's warnings and errors in sliding windows of ``LOG_WINDOW_S``."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self._times: deque[float] = deque()
        self.most = 0
        self.tracebacks: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith(("ragpulse", "aiohttp")):
            return
        now = time.monotonic()
        self._times.append(now)
        while self._times and self._times[0] < now - LOG_WINDOW_S:
            self._times.popleft()
        self.most = max(self.most, len(self._times))
        if record.exc_info and record.levelno >= logging.ERROR and len(self.tracebacks) < 20:
            self.tracebacks.append(f"{record.name}: {record.getMessage()[:200]}")


def rss_bytes() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


class Harness:
    """Holds the collector's URL, the store and the figures across examples."""

    def __init__(self, store: Store, collector_url: str, dsn: str) -> None:
        self.store = store
        self.url = collector_url
        self.dsn = dsn
        self.figures = Figures(start_rss_bytes=rss_bytes())
        self.log = LogWindow()
        logging.getLogger().addHandler(self.log)
        self._http = httpx.Client(timeout=30)

    def close(self) -> None:
        logging.getLogger().removeHandler(self.log)
        self._http.close()

    def run(self, case: Case) -> None:
        """One example; an AssertionError names the invariant that failed."""
        self.figures.examples += 1
        for body in case.traces:
            self._post("/v1/traces", body)
        for body in case.logs:
            self._post("/v1/logs", body)
        good = self._post_ordinary_request()
        import_labels(self.store, io.BytesIO(case.labels), "fuzz")
        settings = self._settings(case.rule)
        report = self._tick(settings, case.judge_reply)
        self.figures.ticks += 1
        stopped = {name: error for name, error in report.errors.items() if "unreachable" not in error.lower()}
        assert not stopped, f"a step of the tick failed: {stopped}"
        scored = self.store.query(
            f"SELECT Outcome FROM {self.store.table('ragpulse_scoring_log')}"
            " WHERE TraceId = {trace:String} AND Scorer = 'lexical'",
            {"trace": good},
        )
        assert [outcome for (outcome,) in scored] == ["scored"], (
            f"the ordinary request was not scored: {scored}"
        )
        self.figures.max_lines_per_window = max(self.figures.max_lines_per_window, self.log.most)
        assert self.log.most <= LOG_LINES_PER_WINDOW, f"{self.log.most} log lines in a minute"
        assert not self.log.tracebacks, f"tracebacks logged: {self.log.tracebacks}"
        rss = rss_bytes()
        self.figures.peak_rss_bytes = max(self.figures.peak_rss_bytes, rss)
        assert rss - self.figures.start_rss_bytes < RSS_GROWTH_BYTES, (
            f"resident memory grew to {rss >> 20} MiB"
        )

    def _post(self, path: str, body: bytes) -> None:
        answer = self._http.post(
            f"{self.url}{path}", content=body, headers={"Content-Type": "application/json"}
        )
        self.figures.statuses[answer.status_code] = self.figures.statuses.get(answer.status_code, 0) + 1
        assert answer.status_code in (200, 400, 413), f"the collector answered {answer.status_code}"

    def _post_ordinary_request(self) -> str:
        trace = uuid.uuid4().hex
        start = time.time_ns() - 300 * 10**9
        attributes = {
            "ragpulse.kind": "rag",
            "ragpulse.pipeline": "fusion",
            "ragpulse.variant": "A",
            "input.value": "What is the capital of France?",
            "output.value": "Paris is the capital of France.",
            "ragpulse.context": json.dumps(
                [{"id": "d1", "text": "Paris is the capital of France.", "rank": 1}]
            ),
        }
        span = {
            "traceId": trace,
            "spanId": trace[:16],
            "name": "rag fusion",
            "kind": 1,
            "startTimeUnixNano": str(start),
            "endTimeUnixNano": str(start + 10**9),
            "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attributes.items()],
        }
        resource = {"attributes": [{"key": "service.name", "value": {"stringValue": "fuzz-ordinary"}}]}
        document = {"resourceSpans": [{"resource": resource, "scopeSpans": [{"spans": [span]}]}]}
        answer = self._http.post(f"{self.url}/v1/traces", json=document)
        assert answer.status_code == 200, answer.text
        return trace

    def _settings(self, rule: dict[str, Any]) -> ScorersSettings:
        base: dict[str, Any] = {
            "store": {"dsn": self.dsn},
            "scorer": {"settle_delay_s": 60, "sample_rate": 1.0, "scorers": ["lexical", "support"]},
        }
        try:
            return ScorersSettings.load(**base, rules=[rule])
        except (ValidationError, ValueError):
            self.figures.refused_rules += 1  # refused at config load, with the reason: never a stall later
            return ScorersSettings.load(**base)

    def _tick(self, settings: ScorersSettings, reply: str) -> Any:
        judge = JudgeSettings(
            base_url="http://judge.test/v1", api_key=SecretStr("fuzz"), model="fuzz-judge", max_retries=0,
            requests_per_minute=60_000, repairs=0,
        )  # fmt: skip
        transport = httpx.MockTransport(lambda request: _completion(reply))
        support = SupportScorer(JudgeClient(judge, http_client=httpx.Client(transport=transport)))
        scorers = [build_lexical(settings, self.store), support]
        results: list[Any] = []
        worker = threading.Thread(
            target=lambda: results.append(ScoringJob(settings, self.store, scorers).run(datetime.now(UTC))),
            daemon=True,
        )
        worker.start()
        worker.join(TICK_TIMEOUT_S)
        assert results, f"the tick did not finish in {TICK_TIMEOUT_S:g} s"
        return results[0]


def _completion(content: str) -> httpx.Response:
    return httpx.Response(
        200,
        json={
            "id": "fuzz", "object": "chat.completion", "created": 0, "model": "fuzz-judge",
            "choices": [
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        },
    )  # fmt: skip
