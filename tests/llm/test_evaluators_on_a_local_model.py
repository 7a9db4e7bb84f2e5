"""A team's own evaluators against a real small model (../shared/llm), as a user with their own model server
would run them: an ``llm`` evaluator with the team's prompt beside a ``regex`` and a ``json_schema`` one,
tried on stored requests with ``ragpulse evaluators test``, bound to a rule and scored by ``ragpulse score``,
then read in the report, in an alert on a pass rate and as OTel events.

The 1.5B model is often wrong; this does not grade its judgment. It checks what a user relies on whatever the
model: the prompt the judge saw, its raw reply, a score in range with the judge's reasoning, the verdict
beside it, and every request either scored or logged with the reason it was not.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from ragpulse_collector.server import CollectorServer
from ragpulse_core.cli import main
from ragpulse_core.store import Store
from ragpulse_dashboards.alerts.evaluator import evaluate_alerts
from ragpulse_dashboards.settings import DashboardsSettings
from ragpulse_scorers.settings import JudgeSettings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scorers"))
from pipeline_testing import insert_requests

pytestmark = pytest.mark.llm

CONFIG = """
[scorer]
scorers = []
settle_delay_s = 60

[judge]
base_url = "{base_url}"
api_key = "{api_key}"
model = "{model}"

[export]
otlp_endpoint = "{receiver}"
schedule_delay_s = 0.1

[alerts]
min_samples = 3
pass_rates = {{ cites = 0.9 }}

[[rules]]
name = "own-checks"
judges = ["names_a_city", "cites", "widget"]

[evaluators.llm.names_a_city]
system = "You check whether an answer names a city. Score 5 if it names a city, 1 if it names none."
user = "Answer: {{answer}}"
output = "score"
range = [1, 5]
pass_at = 4

[evaluators.regex.cites]
pattern = '\\[\\d+\\]'

[evaluators.json_schema.widget]
schema = {{ type = "object", required = ["answer"] }}
"""
ANSWERS = ['{"answer": "The capital of France is Paris [1]."}', "Paris is the capital of France.", "No idea."]


def test_own_evaluators_on_a_local_model(
    local_model: JudgeSettings,
    store: Store,
    chdb_dsn: str,
    collector: CollectorServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert local_model.api_key is not None
    config = tmp_path / "ragpulse.toml"
    config.write_text(
        CONFIG.format(
            base_url=local_model.base_url,
            api_key=local_model.api_key.get_secret_value(),
            model=local_model.model,
            receiver=collector.url,
        )
    )
    traces = [insert_requests(store, 1, prefix=f"local-{i}", answer=a)[0] for i, a in enumerate(ANSWERS)]

    assert main(["evaluators", "test", "names_a_city", "--request", traces[1], "--config", str(config),
                 "--dsn", chdb_dsn]) == 0  # fmt: skip
    shown = capsys.readouterr().out
    assert "Answer: <answer>\nParis is the capital of France.\n</answer>" in shown
    reply = shown.split("raw reply\n", 1)[1]
    assert '"score"' in reply and '"reasoning"' in reply
    assert "1 scored" in shown or "1 failed" in shown

    assert main(["score", "--once", "--config", str(config), "--dsn", chdb_dsn]) == 0
    assert collector.flush()
    rows = store.query_dicts(
        f"SELECT TraceId, Metric, Value, Explanation, Error FROM {store.table('ragpulse_scores')} FINAL"
        " WHERE Scorer = 'names_a_city'"
    )
    logged = store.query_dicts(
        f"SELECT TraceId, Outcome, Reason FROM {store.table('ragpulse_scoring_log')}"
        " WHERE Scorer = 'names_a_city'"
    )
    assert {row["TraceId"] for row in logged} == set(traces)
    scored = [row for row in rows if row["Metric"] == "score"]
    assert scored, f"the local model scored none: {logged}"
    for row in scored:
        assert 1.0 <= row["Value"] <= 5.0 and row["Explanation"].strip()
    verdicts = {row["TraceId"]: row["Value"] for row in rows if row["Metric"] == "pass"}
    assert set(verdicts) == {row["TraceId"] for row in scored}
    assert all(row["Reason"] for row in logged if row["Outcome"] != "scored")

    capsys.readouterr()
    assert main(["report", "--config", str(config), "--dsn", chdb_dsn]) == 0
    terminal = capsys.readouterr().out
    assert "Evaluators: pass rate per variant" in terminal
    assert "cites" in terminal and "widget" in terminal

    settings = DashboardsSettings.load(config, store={"dsn": chdb_dsn})
    fired = evaluate_alerts(store, settings.alerts).fired
    assert [(alert.key.rule, alert.key.scorer) for alert in fired] == [("evaluator_pass_rate", "cites")]

    names = {
        row[0]
        for row in store.query(
            f"SELECT LogAttributes['gen_ai.evaluation.name'] FROM {store.table('otel_logs')}"
            " WHERE EventName = 'gen_ai.evaluation.result'"
        )
    }
    assert {"cites.pass", "widget.pass"} <= names
    assert "names_a_city.score" in names or "names_a_city" in names
