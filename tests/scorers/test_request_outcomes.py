"""Every request has an outcome: per service and scorer, requests = scored + not scored (with the log's
reason) + pending (younger than the settle delay, or waiting for the next tick), after every tick, over mixed
traffic: normal, unscorable, failed requests, a failing judge, sampling, and requests that reuse ids."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from live_testing import fetch, running_page, signed_in_cookie
from pipeline_testing import CONTEXT, SPAN_COLUMNS, RecordingScorer
from ragpulse_core.store import Store
from ragpulse_dashboards.report import collect_report, render_html, render_terminal
from ragpulse_dashboards.report.queries import request_outcomes
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.pipeline.tick import ScoringJob
from rich.console import Console

SETTLE = timedelta(seconds=60)
DURATION = timedelta(milliseconds=2)
KINDS = ("normal", "no context", "failed", "flaky", "reused", "normal")


@dataclass(frozen=True)
class Sent:
    service: str
    kind: str
    start: datetime

    @property
    def settles_at(self) -> datetime:
        return self.start + DURATION + SETTLE


def span(trace: str, span_id: str, start: datetime, service: str, kind: str) -> list[object]:
    attributes = {
        "ragpulse.kind": "rag",
        "ragpulse.pipeline": "fusion",
        "ragpulse.variant": "A",
        "input.value": f"What is the capital of France? ({kind})",
        "output.value": "" if kind == "failed" else "Paris is the capital.",
        "ragpulse.context": "[]" if kind == "no context" else CONTEXT,
    }
    status = "Error" if kind == "failed" else "Ok"
    return [start, trace, span_id, "", "rag fusion", "Internal", service, attributes, 2_000_000, status]


def send_traffic(store: Store, now: datetime) -> list[Sent]:
    """Requests of two services, one every 15 s over the last 10 minutes, of every kind in turn."""
    rows: list[list[object]] = []
    sent: list[Sent] = []
    reused = ("", "")
    for index in range(40):
        service = ("shop", "docs")[index % 2]
        kind = KINDS[index % len(KINDS)]
        start = now - timedelta(seconds=10 + 15 * (39 - index), microseconds=index)
        trace = hashlib.md5(f"outcomes-{index}".encode()).hexdigest()
        ids = (trace, trace[:16])
        if kind == "reused" and reused[0]:
            ids = reused  # a restarted service seeded alike: an earlier request's ids at another time
        elif kind == "normal":
            reused = ids
        rows.append(span(*ids, start, service, kind))
        sent.append(Sent(service, kind, start))
    store.insert("otel_traces", rows, SPAN_COLUMNS)
    return sent


def flaky(request: RagRequest) -> list[Score] | None:
    if "(flaky)" in request.question:
        raise RuntimeError("judge answered garbage")
    return None


def scored_in_scores_table(store: Store, service: str, scorer: str) -> int:
    return int(
        store.query(
            f"SELECT uniqExact(TraceId, SpanId, RequestTime) FROM {store.table('ragpulse_scores')} FINAL"
            " WHERE ServiceName = {s:String} AND Scorer = {j:String} AND Error = ''",
            {"s": service, "j": scorer},
        )[0][0]
    )


def test_every_request_is_scored_not_scored_with_a_reason_or_pending_after_every_tick(store: Store) -> None:
    now = datetime.now(UTC)
    sent = send_traffic(store, now)
    settings = DashboardsSettings.load(
        store={"dsn": "chdb:///unused"},
        scorer={"settle_delay_s": SETTLE.total_seconds(), "sample_rate": 0.6, "max_attempts": 2},
    )
    scorers = [LexicalScorer(), RecordingScorer(name="flaky-judge", behaviour=flaky)]
    since = now - timedelta(hours=1)

    for tick_at in (now - timedelta(minutes=8), now - timedelta(minutes=4), now, now + timedelta(minutes=3)):
        ScoringJob(settings, store, scorers).run(tick_at)
        outcomes = request_outcomes(store, {"since_ms": int(since.timestamp() * 1000), "service": ""})

        assert {(row.service, row.scorer) for row in outcomes} == {
            (service, scorer.name) for service in ("shop", "docs") for scorer in scorers
        }
        for row in outcomes:
            mine = [request for request in sent if request.service == row.service]
            settled = [request for request in mine if request.settles_at <= tick_at]
            assert row.balanced, row
            assert row.requests == len(mine), row
            assert row.pending == len(mine) - len(settled), row
            assert row.scored == scored_in_scores_table(store, row.service, row.scorer), row
            # Sampling comes first: an unscorable request out of the sample is logged as sampled out.
            unscorable = sum(1 for request in settled if request.kind in ("no context", "failed"))
            if row.scorer == "lexical":
                assert row.not_scored.get("skipped", 0) <= unscorable, row
                assert set(row.not_scored) <= {"skipped", "sampled_out"}, row
            else:
                assert set(row.not_scored) <= {"skipped", "sampled_out", "failed"}, row
                assert row.not_scored.get("failed", 0) > 0 or not any(r.kind == "flaky" for r in settled)

    data = collect_report(store, since)
    console = Console(record=True, width=200)
    render_terminal(data, console)
    text, page = console.export_text(), render_html(data)
    for row in data.outcomes:
        line = f"{row.service} · {row.scorer}: {row.requests} requests = {row.scored} scored"
        assert line in text and line in page
    assert json.dumps(sorted(row.pending for row in data.outcomes)) == "[0, 0, 0, 0]"


def test_the_live_page_shows_each_scorers_outcome_line(store: Store) -> None:
    now = datetime.now(UTC)
    send_traffic(store, now)
    settings = DashboardsSettings.load(store={"dsn": "chdb:///unused"}, scorer={"settle_delay_s": 60})
    ScoringJob(settings, store, [LexicalScorer()]).run(now)

    with running_page(store) as page:
        cookie = signed_in_cookie(page.url)
        body = fetch(page.url, "/", headers={"Cookie": cookie}).body

    assert "Every request&#x27;s outcome" in body
    for service in ("shop", "docs"):
        assert re.search(
            rf"{service} · lexical: 20 requests = \d+ scored \+ \d+ not scored.* \+ \d+ pending", body
        )
