"""Learnt templates in the scheduler, against embedded chDB: a service's first prompts wait while its template
is learnt from its traffic, then are read with it; every request says which template version read it, the
versions are stored with what they read, `ragpulse assembly templates` shows them and prints the mapping that
pins one, a pinned version reads the service's prompts alone, and the report splits figures by version."""

from __future__ import annotations

import json
import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pipeline_testing import settings_for, trace_id
from ragpulse_assembly.model import TraceSpan
from ragpulse_assembly.settings import ServiceMapping, TemplateSettings
from ragpulse_core.cli import main
from ragpulse_core.store import Store
from ragpulse_dashboards.report import render_html, render_terminal
from ragpulse_dashboards.report.collect import collect_report
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.pipeline.tick import ScoringJob
from ragpulse_scorers.settings import ScorersSettings
from rich.console import Console
from span_trees import SPAN_ROW_COLUMNS, span_rows

SERVICE = "handbook-bot"
POOL = [
    "Annual leave is 25 days a year. Unused days expire on 31 March.",
    "Parental leave is 26 weeks at full pay for either parent.",
    "Expenses are refunded within 10 working days of approval.",
    "Laptops are replaced every three years, or sooner when broken.",
    "The office opens at 7:30 and closes at 20:00 on weekdays.",
    "Remote work is allowed up to three days a week with a manager's consent.",
    "Sick leave needs a doctor's note from the fourth day on.",
    "Training budgets are 1,500 euros per person per year.",
]


def prompt_span(number: int, start: datetime, service: str = SERVICE) -> tuple[TraceSpan, list[str], str]:
    """A chat call whose prompt pastes its documents as "§ n" paragraphs the structure rules do not know."""
    documents = [POOL[(number + k) % len(POOL)] for k in range(1 + number % 3)]
    question = f"Question number {number}: what does the handbook say?"
    pasted = "\n".join(f"§ {n} ~ {text}" for n, text in enumerate(documents, 1))
    messages = [
        {"role": "system", "parts": [{"type": "text", "content": f"Handbook excerpts:\n{pasted}\n§ end"}]},
        {"role": "user", "parts": [{"type": "text", "content": question}]},
    ]
    answer = documents[0]
    attributes = {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.input.messages": json.dumps(messages),
        "gen_ai.output.messages": json.dumps(
            [{"role": "assistant", "parts": [{"type": "text", "content": answer}], "finish_reason": "stop"}]
        ),
    }
    span = TraceSpan(
        f"{number + 1:016x}", "", "chat gpt-4o-mini", service, "opentelemetry.instrumentation.openai_v2",
        start, 800_000_000, "Ok", attributes,
    )  # fmt: skip
    return span, documents, question


def insert(store: Store, numbers: range, age: timedelta, service: str = SERVICE) -> dict[str, list[str]]:
    sent = {}
    for number in numbers:
        span, documents, _ = prompt_span(number, datetime.now(UTC) - age, service)
        trace = trace_id(service[:2], number)
        store.insert("otel_traces", span_rows(trace, [span]), SPAN_ROW_COLUMNS)
        sent[trace] = documents
    return sent


def requests(store: Store) -> dict[str, dict[str, Any]]:
    rows = store.query_dicts(f"SELECT * FROM {store.table('ragpulse_requests')} FINAL")
    return {row["TraceId"]: row for row in rows}


def texts(row: dict[str, Any]) -> list[str]:
    return [chunk["text"] for chunk in json.loads(row["Context"])] if row["Context"] else []


def settings(dsn: str) -> ScorersSettings:
    return settings_for(dsn, settle_delay_s=5)


def test_first_prompts_wait_for_their_template_then_are_read_with_it(store: Store, chdb_dsn: str) -> None:
    job = ScoringJob(settings(chdb_dsn), store, [LexicalScorer()])
    first = insert(store, range(3), timedelta(seconds=30))
    job.run()
    assert requests(store) == {}  # held: their template is not learnt yet, and they may still wait

    rest = insert(store, range(3, 12), timedelta(seconds=30))
    job.run()
    rows = requests(store)

    assert {trace: texts(row) for trace, row in rows.items()} == {**first, **rest}
    assert {row["Unscorable"] for row in rows.values()} == {""}
    versions = {row["TemplateVersion"] for row in rows.values()}
    assert len(versions) == 1 and versions != {""}
    stored = store.query(
        f"SELECT Version, sum(Requests), sum(Refused), any(Skeleton) FROM {store.table('ragpulse_templates')}"
        " WHERE ServiceName = {service:String} GROUP BY Version",
        {"service": SERVICE},
    )
    assert [(version, requests_read, refused) for version, requests_read, refused, _ in stored] == [
        (versions.pop(), 12, 0)
    ]
    assert "{{documents}}" in stored[0][3] and "{{question}}" in stored[0][3]


def run_past_the_wait(job: ScoringJob) -> None:
    """A tick now, and one once the template wait is over: a reading the service's other requests could not
    confirm yet (two documents seen only side by side so far) waits like a prompt of no learnt template,
    then is decided."""
    job.run()
    job.run(now=datetime.now(UTC) + timedelta(seconds=TemplateSettings().wait_s + 10))


def test_the_report_splits_requests_by_template_version(store: Store, chdb_dsn: str) -> None:
    insert(store, range(10), timedelta(seconds=30))
    run_past_the_wait(ScoringJob(settings(chdb_dsn), store, [LexicalScorer()]))
    (version,) = {row["TemplateVersion"] for row in requests(store).values()}

    data = collect_report(store, datetime.now(UTC) - timedelta(hours=1))
    (row,) = data.template_versions
    assert (row.service, row.version, row.requests, row.not_scored, row.hallucination.n) == (
        SERVICE,
        version,
        10,
        0,
        10,
    )
    out = Console(record=True, width=160)
    render_terminal(data, out)
    assert "Per prompt template version" in out.export_text()
    assert version in render_html(data)


def test_past_the_wait_a_request_of_no_learnt_template_is_decided_by_the_rules(
    store: Store, chdb_dsn: str
) -> None:
    insert(store, range(2), timedelta(minutes=10), service="rare-bot")
    ScoringJob(settings(chdb_dsn), store, [LexicalScorer()]).run()
    rows = requests(store)

    assert len(rows) == 2
    assert {row["TemplateVersion"] for row in rows.values()} == {""}


def test_templates_are_listed_and_a_pinned_version_reads_the_service_alone(
    store: Store, chdb_dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    insert(store, range(10), timedelta(seconds=30))
    run_past_the_wait(ScoringJob(settings(chdb_dsn), store, [LexicalScorer()]))
    (version,) = {row["TemplateVersion"] for row in requests(store).values()}

    assert main(["assembly", "templates", "--service", SERVICE, "--dsn", chdb_dsn]) == 0
    listed = capsys.readouterr().out
    assert version in listed and "read 10 requests" in " ".join(listed.split())
    assert "§ end" in listed  # the skeleton, as the prompts have it
    assert "[system,user]" in listed and "\\[" not in listed  # markup escaped once, printed as written
    assert main(["assembly", "templates", "--pin", version, "--dsn", chdb_dsn]) == 0
    pin = capsys.readouterr().out
    assert f'template = "{version}"' in pin
    assert main(["assembly", "templates", "--pin", "nonesuch", "--dsn", chdb_dsn]) == 1

    config = tmp_path / "ragpulse.toml"
    config.write_text(f'[[assembly.mappings]]\nservice = "{SERVICE}"\ntemplate = "{version}"\n')
    pinned = ScorersSettings.load(config, store={"dsn": chdb_dsn}, scorer={"settle_delay_s": 5})
    later = insert(store, range(10, 12), timedelta(seconds=30))
    run_past_the_wait(ScoringJob(pinned, store, [LexicalScorer()]))
    rows = requests(store)

    assert {trace: texts(rows[trace]) for trace in later} == later
    assert {rows[trace]["ContextSource"] for trace in later} == {"mapping"}
    assert {rows[trace]["TemplateVersion"] for trace in later} == {version}


def test_a_service_name_cannot_write_its_own_config_through_the_pin(
    store: Store, chdb_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The service name is the traffic's: its quotes, line breaks, brackets and glob marks are printed so
    the snippet, pasted as it is, maps that one service and nothing else."""
    hostile = 'bot*"\n[judge]\nbase_url = "http://attacker.example/v1'
    insert(store, range(10), timedelta(seconds=30), service=hostile)
    run_past_the_wait(ScoringJob(settings(chdb_dsn), store, [LexicalScorer()]))
    (version,) = {row["TemplateVersion"] for row in requests(store).values()}

    assert main(["assembly", "templates", "--pin", version, "--dsn", chdb_dsn]) == 0
    snippet = capsys.readouterr().out.split("\n\n", 1)[1]
    config = tomllib.loads(snippet)

    (mapping,) = config["assembly"]["mappings"]
    assert set(config) == {"assembly"} and mapping == {"service": mapping["service"], "template": version}
    pinned = ServiceMapping(service=mapping["service"], template=version)
    assert pinned.matches(hostile, {}) and not pinned.matches("bot-other", {})
