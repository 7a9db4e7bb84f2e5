"""``ragpulse assembly rerun``: after a mapping changes, recent requests are assembled again and what was
judged on their old rows is superseded, never counted twice; requests that did not change keep theirs."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from pipeline_testing import settings_for, trace_id
from ragpulse_assembly.settings import ServiceMapping
from ragpulse_core.store import Store
from ragpulse_dashboards.report.queries import scoring_health
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.reassembly import reassemble
from ragpulse_scorers.pipeline.tick import run_tick

SCOPE = "openinference.instrumentation.openai"
COLUMNS = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
           "ScopeName", "SpanAttributes", "Duration", "StatusCode"]  # fmt: skip
ANSWER = "Refunds reach the card within five business days."
# The service pastes a stale notice the rules read as context; its retrieved documents are in an attribute.
PROMPT = "Context:\nOur office is closed on public holidays."
RETRIEVED = json.dumps([{"text": "Refunds reach the card within five business days."}])


def insert_trace(store: Store, trace: str, service: str, started: datetime) -> None:
    attributes = {
        "openinference.span.kind": "LLM",
        "llm.input_messages.0.message.role": "system",
        "llm.input_messages.0.message.content": PROMPT,
        "llm.input_messages.1.message.role": "user",
        "llm.input_messages.1.message.content": "How long do refunds take?",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": ANSWER,
        "app.retrieved": RETRIEVED,
    }
    row = [started, trace, "00000000000000a1", "", "ChatCompletion", "Client", service, SCOPE, attributes,
           1_000_000, "Ok"]  # fmt: skip
    store.insert("otel_traces", [row], COLUMNS)


def counted(store: Store, trace: str) -> dict[str, tuple[int, float]]:
    """Per metric of the lexical judge: how many values count for the request, and their sum."""
    rows = store.query(
        "SELECT Metric, sum(Sign), sum(Sign * assumeNotNull(Value))"
        f" FROM {store.table('ragpulse_score_values')}"
        " WHERE TraceKey = cityHash64({trace:String}) AND Scorer = 'lexical' GROUP BY Metric",
        {"trace": trace},
    )
    return {str(metric): (int(count), float(total)) for metric, count, total in rows}


def best_verdict(store: Store, trace: str) -> tuple[int, int]:
    """What the alert rules count of the request: its counted best-judge verdicts and how many say
    hallucinated."""
    rows = store.query(
        "SELECT sum(Sign), sum(Sign * Hallucinated)"
        f" FROM {store.table('ragpulse_request_verdicts')} WHERE TraceKey = cityHash64({{trace:String}})",
        {"trace": trace},
    )
    return int(rows[0][0]), int(rows[0][1])


def outcomes_agree_with_the_log(store: Store) -> dict[str, int]:
    """The report's outcome counts over the last two hours (whole hours: the hourly counts) are the log's."""
    since = datetime.now(UTC) - timedelta(hours=2)
    logged = {
        f"{scorer}: {outcome}": int(count)
        for scorer, outcome, count in store.query(
            f"SELECT Scorer, Outcome, count() FROM {store.table('ragpulse_scoring_log')}"
            " WHERE RequestTime >= {since:DateTime64(6)} GROUP BY Scorer, Outcome ORDER BY Scorer, Outcome",
            {"since": since},
        )
    }
    shown = scoring_health(store, {"since_ms": int(since.timestamp() * 1000), "service": ""}, 0).outcomes
    assert shown == logged
    return shown


def test_a_changed_mapping_supersedes_the_old_judgment_and_leaves_the_others(
    store: Store, chdb_dsn: str
) -> None:
    started = datetime.now(UTC) - timedelta(minutes=10)
    mapped, other = trace_id("remap", 0), trace_id("remap", 1)
    insert_trace(store, mapped, "support-bot", started)
    insert_trace(store, other, "billing-bot", started + timedelta(seconds=1))
    settings = settings_for(chdb_dsn)
    first = run_tick(settings, store, [LexicalScorer()])
    assert first.count("lexical", Outcome.SCORED) == 2
    assert counted(store, mapped)["hallucination"] == (1, 1.0)  # judged against the stale notice
    assert best_verdict(store, mapped) == (1, 1)
    assert outcomes_agree_with_the_log(store)["lexical: scored"] == 2
    kept = counted(store, other)

    mapping = ServiceMapping.model_validate(
        {"service": "support-bot", "documents": {"attribute": "app.retrieved", "jsonpath": "$[*]"}}
    )
    report = reassemble(store, [mapping], timedelta(hours=1), timedelta(seconds=60))

    assert (report.changed, report.added) == (1, 0)
    assert counted(store, mapped)["hallucination"] == (0, 0.0)  # taken back at once, before any re-judging
    assert best_verdict(store, mapped) == (0, 0)
    assert outcomes_agree_with_the_log(store)["lexical: scored"] == 1
    second = run_tick(settings, store, [LexicalScorer()])
    assert second.count("lexical", Outcome.SCORED) == 1
    assert counted(store, mapped)["hallucination"] == (1, 0.0)  # judged once more, on the mapped documents
    assert best_verdict(store, mapped) == (1, 0)
    assert outcomes_agree_with_the_log(store)["lexical: scored"] == 2
    assert counted(store, other) == kept
    assert best_verdict(store, other) == (1, int(kept["hallucination"][1]))

    again = reassemble(store, [mapping], timedelta(hours=1), timedelta(seconds=60))
    assert (again.changed, again.added) == (0, 0)
    rows = store.query(
        f"SELECT count() FROM {store.table('ragpulse_requests')} FINAL"
        " WHERE TraceId IN ({a:String}, {b:String})",
        {"a": mapped, "b": other},
    )
    assert rows[0][0] == 2
