"""A team's own evaluators from config to every place people look, as a user would go: an ``llm`` evaluator
with its own prompt (judged by a loopback OpenAI-compatible server), a ``regex`` and a ``json_schema`` one
in the config; tried on stored requests with ``ragpulse evaluators test``; bound to a rule; scored by
``ragpulse score --once``; then seen in the report, the live page, a Grafana panel, an alert on a pass rate
and as OTel ``gen_ai.evaluation.result`` events."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
from fake_judge_server import FakeJudge, fake_judge
from live_testing import TOKEN, fetch, running_page
from pipeline_testing import insert_requests
from ragpulse_collector.server import CollectorServer
from ragpulse_core.cli import main
from ragpulse_core.store import Store
from ragpulse_dashboards.alerts.evaluator import evaluate_alerts
from ragpulse_dashboards.commands.views import reads_document
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_scorers.evaluators.trials import stored_from_json

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboards"))
from grafana_macros import ALL, TimeRange, Variable, expand_dashboard_query

OVERVIEW = Path(__file__).resolve().parents[2] / "dashboards" / "grafana" / "json" / "overview.json"
CITED = '{"title": "Capital", "answer": "Paris is the capital of France [1]."}'
UNCITED = '{"title": "Capital", "answer": "Paris is the capital of France."}'
NOT_JSON = "Sorry, I could not find that."
CONFIG = """
[scorer]
scorers = ["lexical"]
settle_delay_s = 60

[judge]
base_url = "{judge}"
model = "fake-judge"

[export]
otlp_endpoint = "{receiver}"
schedule_delay_s = 0.1

[alerts]
min_samples = 5
pass_rates = {{ cites = 0.9 }}

[[rules]]
name = "own-checks"
match = {{ service = "svc" }}
judges = ["answers_the_question", "cites", "widget"]

[evaluators.llm.answers_the_question]
system = "You check that a support answer names a city. Score 1 when it names none, 5 when it names one."
user = "The customer asked:\\n{{question}}\\n\\nWe answered:\\n{{answer}}"
output = "score"
range = [1, 5]
pass_at = 4

[evaluators.regex.cites]
pattern = '\\[\\d+\\]'

[evaluators.json_schema.widget]
schema = {{ type = "object", required = ["title", "answer"] }}
"""


def city_judge(system: str, user: str) -> str:
    names = "Paris" in user.split("We answered:")[-1]
    return json.dumps(
        {"reasoning": "It names Paris." if names else "It names no city.", "score": 5 if names else 1}
    )


@pytest.fixture
def judge() -> Iterator[FakeJudge]:
    with fake_judge(city_judge) as server:
        yield server


def test_own_evaluators_reach_every_place_people_look(
    store: Store,
    chdb_dsn: str,
    judge: FakeJudge,
    collector: CollectorServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = tmp_path / "ragpulse.toml"
    config.write_text(CONFIG.format(judge=judge.url, receiver=collector.url))
    cited = insert_requests(store, 4, prefix="cited", answer=CITED)
    uncited = insert_requests(store, 4, prefix="uncited", answer=UNCITED)
    broken = insert_requests(store, 1, prefix="broken", answer=NOT_JSON)

    # Tried on stored traffic first: the rendered prompt, the raw reply and the score; nothing written.
    assert main(["evaluators", "test", "answers_the_question", "--request", cited[0], "--config", str(config),
                 "--dsn", chdb_dsn]) == 0  # fmt: skip
    shown = capsys.readouterr().out
    assert "We answered:\n<answer>\n" + CITED + "\n</answer>" in shown
    assert '{"reasoning": "It names Paris.", "score": 5}' in shown
    assert "nothing is written" in shown and "verdicts: 1 pass, 0 fail" in shown
    assert (
        main(["evaluators", "test", "widget", "--last", "20", "--config", str(config), "--dsn", chdb_dsn])
        == 0
    )
    shown = capsys.readouterr().out
    assert "summary: 9 scored, verdicts: 8 pass, 1 fail" in shown
    assert store.query(f"SELECT count() FROM {store.table('ragpulse_scores')}")[0][0] == 0

    assert main(["score", "--once", "--config", str(config), "--dsn", chdb_dsn]) == 0
    assert collector.flush()
    capsys.readouterr()

    # The report: each evaluator's pass rate per variant, red below its alert threshold.
    report = tmp_path / "report.html"
    assert main(["report", "--config", str(config), "--dsn", chdb_dsn, "--html", str(report)]) == 0
    assert "Evaluators: pass rate per variant" in capsys.readouterr().out
    page = report.read_text()
    card = page[page.index("Evaluators: pass rate per variant") :]
    for name, passed, shown in (("answers_the_question", 8, "88.9%"), ("cites", 4, "44.4%"),
                                ("widget", 8, "88.9%")):  # fmt: skip
        row = re.search(
            rf"<td>{name}</td><td>A</td><td[^>]*>9</td><td[^>]*>{passed}</td><td[^>]*>(.*?)</td>", card
        )
        assert row is not None and re.sub("<[^>]+>", "", row.group(1)).startswith(shown), name
    assert re.search(r"<span class='bad'>44\.4%", card)  # cites, below its 90% threshold

    # The live page shows the same card.
    with running_page(store) as page:
        body = fetch(page.url, "/", headers={"Authorization": f"Bearer {TOKEN}"}).body
    assert "Evaluators: pass rate per variant" in body and "answers_the_question" in body

    # The Grafana panel, with its evaluator variable on All.
    panel = next(
        p
        for p in json.loads(OVERVIEW.read_text())["panels"]
        if p["title"] == "Evaluator pass rate per variant"
    )
    now = datetime.now(UTC)
    variables = {
        "evaluator": Variable(ALL, ("answers_the_question", "cites", "widget"), multi=True),
        **{name: Variable(ALL, (), multi=True) for name in ("service", "pipeline", "variant")},
    }
    sql = expand_dashboard_query(
        panel["targets"][0]["rawSql"], variables, TimeRange(now - timedelta(hours=1), now)
    )
    rows = {row["evaluator"]: row for row in store.query_dicts(sql)}
    assert {name: (row["judged"], row["passed"]) for name, row in rows.items()} == {
        "answers_the_question": (9, 8), "cites": (9, 4), "widget": (9, 8),
    }  # fmt: skip

    # The alert on cites' pass rate (4 of 9, its interval below 90%) fires, naming the evaluator.
    settings = DashboardsSettings.load(config, store={"dsn": chdb_dsn})
    fired = evaluate_alerts(store, settings.alerts).fired
    assert [(alert.key.rule, alert.key.scorer) for alert in fired] == [("evaluator_pass_rate", "cites")]
    assert fired[0].summary.startswith("cites pass rate 44.4%")

    # OTel events beside each request's trace, named after the evaluator and its metric, with its version.
    events = store.query_dicts(
        f"SELECT TraceId, LogAttributes FROM {store.table('otel_logs')}"
        " WHERE EventName = 'gen_ai.evaluation.result'"
    )
    by_name: dict[str, set[tuple[str, str]]] = {}
    for event in events:
        attributes = event["LogAttributes"]
        by_name.setdefault(attributes["gen_ai.evaluation.name"], set()).add(
            (event["TraceId"], attributes.get("gen_ai.evaluation.score.label", ""))
        )
    assert by_name["cites.pass"] == {*((t, "pass") for t in cited), *((t, "fail") for t in uncited + broken)}
    assert by_name["answers_the_question.pass"] >= {(broken[0], "fail"), (cited[0], "pass")}
    assert by_name["widget.pass"] >= {(broken[0], "fail")}
    versions = {
        e["LogAttributes"]["ragpulse.scorer.version"]
        for e in events
        if e["LogAttributes"]["ragpulse.scorer"] == "cites"
    }
    assert versions == {settings.evaluators.regex["cites"].version()}


def test_stored_requests_are_read_through_a_serving_page_for_a_test(store: Store) -> None:
    """While ``ragpulse serve`` holds the database, ``evaluators test`` reads the requests through its page
    (behind the read token), each with the attributes the evaluator reads; the evaluator runs in the
    caller."""
    (trace,) = insert_requests(store, 1, prefix="served", answer=CITED)
    reads = quote(reads_document(["ragpulse.variant"], [], ["context"]))
    with running_page(store) as page:
        path = f"/api/v1/evaluator-requests?since=1h&trace={trace}&limit=1&reads={reads}"
        answer = json.loads(fetch(page.url, path, headers={"Authorization": f"Bearer {TOKEN}"}).body)
        refused = fetch(page.url, path)
    assert answer["exit"] == 0 and refused.status == 401
    (found,) = stored_from_json(answer["output"])
    assert found.trace_id == trace and found.request is not None
    assert found.request.answer == CITED and found.request.span_attributes == {"ragpulse.variant": "A"}
