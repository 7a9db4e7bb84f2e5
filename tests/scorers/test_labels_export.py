"""From production to evaluation: requests scored by the free judge and labelled by people give the judge's
figures against them; ``ragpulse export --labelled`` then ``ragpulse eval support`` on the file reproduces the
same balanced accuracy."""

from __future__ import annotations

import io
import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from ragpulse_core.cli import main
from ragpulse_core.store import Store
from ragpulse_dashboards.report.collect import collect_report
from ragpulse_dashboards.report.error_rates import REVIEWER_SOURCE
from ragpulse_dashboards.report.html import render_html
from ragpulse_dashboards.report.terminal import render_terminal
from ragpulse_dashboards.review.figures import corrected_rates
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_scorers.labels.correction import CorrectedRate
from ragpulse_scorers.labels.figures import Reference, judge_figures
from ragpulse_scorers.labels.store import Label, RequestRef, write_labels
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.pipeline.tick import ScoringJob
from ragpulse_scorers.review.queue import in_uniform_share_sql
from rich.console import Console

SPAN_COLUMNS = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
                "SpanAttributes", "Duration", "StatusCode"]  # fmt: skip
PARIS = "Paris is the capital of France. It lies on the Seine."
SUPPORTED = "Paris is the capital of France."
UNSUPPORTED = "Berlin was founded in 1237 by Albert the Bear and has 3,850,809 residents."


def rag_span(trace_id: str, span_id: str, at: datetime, answer: str) -> list[object]:
    attributes = {
        "ragpulse.kind": "rag", "ragpulse.pipeline": "capitals", "ragpulse.variant": "A",
        "input.value": "What is the capital of France?", "output.value": answer,
        "ragpulse.context": json.dumps([{"id": "paris", "text": PARIS, "rank": 1}]),
    }  # fmt: skip
    return [at, trace_id, span_id, "", "rag capitals", "Internal", "svc", attributes, 2_000_000, "Ok"]


def request_ids(store: Store, count: int, *, drawn: bool) -> list[tuple[str, str]]:
    """``count`` fresh (trace id, span id) pairs inside (``drawn``) or outside the queue's random share."""
    candidates = [(uuid.uuid4().hex, uuid.uuid4().hex[:16]) for _ in range(40 * count)]
    rows = store.query(
        f"SELECT TraceId, SpanId FROM (SELECT arrayJoin({{ids:Array(Tuple(String, String))}}) AS pair,"
        f" pair.1 AS TraceId, pair.2 AS SpanId) WHERE {in_uniform_share_sql()} = {{drawn:Bool}}",
        {"ids": candidates, "drawn": drawn},
    )
    return [(str(trace), str(span)) for trace, span in rows][:count]


def test_export_then_eval_reproduces_the_reported_balanced_accuracy(
    store: Store, chdb_dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=20)
    # People agree with the free judge mostly, not always: every cell of the 2×2 table is filled.
    people = ["hallucinated"] * 9 + ["grounded"] * 3 + ["grounded"] * 10 + ["hallucinated"] * 2
    answers = [UNSUPPORTED] * 12 + [SUPPORTED] * 12
    # Four more requests, labelled outside the queue's random share: the figures and the default export leave
    # them out (the queue picks those where the judges err), `export --all` keeps them.
    people += ["grounded"] * 4
    answers += [UNSUPPORTED] * 4
    ids = request_ids(store, 24, drawn=True) + request_ids(store, 4, drawn=False)
    spans, requests = [], []
    for n, answer in enumerate(answers):
        trace_id, span_id = ids[n]
        at = start + timedelta(seconds=n, microseconds=137 * n)
        spans.append(rag_span(trace_id, span_id, at, answer))
        requests.append(RequestRef(trace_id, span_id, at, "svc", "capitals", "A"))
    store.insert("otel_traces", spans, SPAN_COLUMNS)
    settings = DashboardsSettings.load(store={"dsn": "chdb:///unused"}, scorer={"settle_delay_s": 60})
    ScoringJob(settings, store, [LexicalScorer()]).run(datetime.now(UTC))
    write_labels(
        store,
        [
            Label.of(r, verdict, author="ann", source="reviewer")
            for r, verdict in zip(requests, people, strict=True)
        ],
    )
    write_labels(store, [Label.of(requests[0], "grounded", author="", source="user", score=1.0)])

    (figures,) = judge_figures(store, since=start - timedelta(minutes=1))
    assert (figures.judge, figures.service, figures.variant) == ("lexical", "svc", "A")
    assert figures.confusion.n == 24 and figures.confusion.positives == 11
    reported = figures.agreement.balanced_accuracy.value
    assert reported is not None and 0.5 < reported < 1
    (user_figures,) = judge_figures(store, since=start - timedelta(minutes=1), reference=Reference.USER)
    assert user_figures.confusion.n == 1  # end-user feedback counted apart

    report = collect_report(store, start - timedelta(minutes=1))
    assert report.people is not None
    (shown,) = [row for row in report.people.reviewer if row.judge == "lexical"]
    assert shown.agreement.balanced_accuracy.value == reported
    (corrected,) = [row for row in report.people.corrected if row.judge == "lexical"]
    assert isinstance(corrected.result, CorrectedRate) and corrected.result.source == REVIEWER_SOURCE
    # 16 of 28 flagged (the raw rate counts every request); sensitivity 9/11 and specificity 10/13 come from
    # the random share alone: (16/28 + 10/13 - 1) / (9/11 + 10/13 - 1).
    assert corrected.result.estimate == pytest.approx((16 / 28 + 10 / 13 - 1) / (9 / 11 + 10 / 13 - 1))
    # The review page and the corrected-rate alert take the same figure.
    (on_review_page,) = corrected_rates(
        store, start - timedelta(minutes=1), datetime.now(UTC), None, start - timedelta(minutes=1)
    )
    assert on_review_page.result == corrected.result
    page = render_html(report)
    assert "Judges against people" in page and "reviewer labels" in page
    console = Console(record=True, width=200, file=io.StringIO())
    render_terminal(report, console)
    assert "corrected for the judge" in console.export_text()

    assert main(["export", "--labelled", "--dsn", chdb_dsn, "--since", "1h"]) == 0
    exported, said = capsys.readouterr()
    assert len(exported.splitlines()) == 24
    assert "exported 24 labelled requests; 4 more that the review queue picked" in " ".join(said.split())
    data = tmp_path / "set.jsonl"
    data.write_text(exported)
    assert main(["eval", "support", "--data", str(data), "--judge", "lexical", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["n"] == 24
    assert result["balanced_accuracy"] == pytest.approx(reported)
    assert main(["export", "--labelled", "--all", "--dsn", chdb_dsn, "--since", "1h"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 28
