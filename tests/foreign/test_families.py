"""Every captured foreign-trace case (tests/foreign/cases, made by capture/capture.py from the real
instrumentation libraries) replayed into the collector over OTLP/HTTP, assembled as the scheduler does and
scored by the lexical judge: the request must hold exactly the question, context and answer the service used,
say where it came from, and be scored, or, when the trace cannot tell, be left unscored with the reason."""

from __future__ import annotations

import json
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.message import Message
from ragpulse_collector.server import CollectorServer
from ragpulse_core.store import Store
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.models import RagRequest
from ragpulse_scorers.outcomes import Outcome
from ragpulse_scorers.pipeline.tick import TickReport, run_tick
from ragpulse_scorers.settings import ScorersSettings

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent / "capture" / "apps"))
from replay import Case, all_cases, replay
from service import ARTICLES, QUESTIONS

CASES = all_cases()
FIELDS = ("question", "context", "answer", "source", "context_source", "unscorable")
SOURCES = {"openinference", "genai", "openllmetry", "openlit", "haystack"}
CONTEXT_SOURCES = {"retriever", "documents", "prompt", ""}
REASONS = {"", "no_content", "no_question", "no_answer", "no_context", "context_unavailable", "unparseable"}


def by_name(cases: list[Case]) -> Any:
    return pytest.mark.parametrize("case", cases, ids=[case.name for case in cases])


def tick(store: Store, chdb_dsn: str) -> TickReport:
    settings = ScorersSettings.load(
        store={"dsn": chdb_dsn},
        scorer={"settle_delay_s": 0},
        # One request per family: nothing to learn a template from, so read it now with the rules.
        assembly={"templates": {"wait_s": 0}},
    )
    return run_tick(settings, store, [LexicalScorer()], now=datetime.now(UTC))


def assembled(case: Case, store: Store, chdb_dsn: str, collector: CollectorServer, **order: bool) -> Any:
    """Replay the case, let the scheduler tick once; return the one request row and the tick's report."""
    replay(case, collector.url, **order)
    assert collector.flush()
    report = tick(store, chdb_dsn)
    rows = store.query_dicts(f"SELECT * FROM {store.table('ragpulse_requests')} FINAL")
    assert len(rows) == 1, f"{case.name}: {len(rows)} requests assembled, expected 1"
    return rows[0], report


def observed(row: dict[str, Any]) -> dict[str, Any]:
    request = RagRequest.from_row(row)
    return {
        "question": request.question or None,
        "context": [chunk.text for chunk in request.context],
        "answer": request.answer or None,
        "source": row["Source"],
        "context_source": row["ContextSource"],
        "unscorable": row["Unscorable"],
    }


def expected(case: Case) -> dict[str, Any]:
    return {name: case.expected[name] for name in FIELDS}


def lexical_scores(store: Store, trace: str) -> int:
    table = store.table("ragpulse_scores")
    sql = f"SELECT count() FROM {table} WHERE TraceId = {{t:String}} AND Scorer = 'lexical'"
    return int(store.query(sql, {"t": trace})[0][0])


@by_name(CASES)
def test_a_traced_service_becomes_the_request_it_served(
    case: Case, store: Store, chdb_dsn: str, collector: CollectorServer
) -> None:
    row, report = assembled(case, store, chdb_dsn, collector)

    assert observed(row) == expected(case)
    if case.expected["unscorable"]:
        assert report.count("lexical", Outcome.SCORED) == 0
        assert lexical_scores(store, row["TraceId"]) == 0
    else:
        assert report.count("lexical", Outcome.SCORED) == 1
        assert lexical_scores(store, row["TraceId"]) > 0


WITH_LOGS = [case for case in CASES if any(p.signal == "logs" for p in case.payloads)]


@by_name(WITH_LOGS)
def test_log_events_that_arrive_before_their_spans_give_the_same_request(
    case: Case, store: Store, chdb_dsn: str, collector: CollectorServer
) -> None:
    row, _ = assembled(case, store, chdb_dsn, collector, logs_first=True)

    assert observed(row) == expected(case)


# The corpus itself: what each case claims about its payloads is true of the bytes captured.


def strings(message: Message) -> list[str]:
    """Every string value in an OTLP message (attribute values, log bodies, nested kvlists and arrays)."""
    found: list[str] = []
    for descriptor, value in message.ListFields():
        if descriptor.message_type is not None:
            for item in value if descriptor.is_repeated else [value]:
                found.extend(strings(item))
        elif descriptor.name == "string_value":
            found.append(value)
    return found


def appears(text: str, haystack: str) -> bool:
    """Whether ``text`` is in the payloads verbatim, or escaped as JSON or a Python repr would write it."""
    return any(form in haystack for form in (text, json.dumps(text)[1:-1], repr(text)[1:-1]))


def payload_text(case: Case) -> str:
    return "\n".join(s for payload in case.payloads for s in strings(payload.message()))


@by_name(CASES)
def test_each_case_is_complete_and_says_what_its_payloads_hold(case: Case) -> None:
    truth = case.expected
    assert set(truth) >= {"family", "packages", "description", *FIELDS}
    assert truth["packages"] and all(truth["packages"].values())
    assert (truth["source"], truth["context_source"], truth["unscorable"]) in {
        (s, c, r) for s in SOURCES for c in CONTEXT_SOURCES for r in REASONS
    }
    assert any(p.signal == "traces" for p in case.payloads)
    text = payload_text(case)
    if truth["question"] is None:
        assert not [q for q in QUESTIONS.values() if appears(q, text)]
    else:
        assert appears(truth["question"], text)
    assert truth["answer"] is None or appears(truth["answer"], text)
    if truth["context"]:
        assert all(appears(chunk, text) for chunk in truth["context"])
    else:
        assert not [a.id for a in ARTICLES if appears(a.text, text)]
    assert bool(truth["unscorable"]) == (not truth["context"] or None in (truth["question"], truth["answer"]))


def test_the_corpus_covers_every_family() -> None:
    families = {case.expected["family"] for case in CASES}
    assert families >= {
        "openinference-openai", "openinference-haystack", "openinference-dspy", "openai-v2", "genai-util",
        "openllmetry", "openllmetry-0.40", "openlit", "haystack-native",
    }  # fmt: skip
    reasons = Counter(case.expected["unscorable"] for case in CASES)
    assert reasons[""] >= 30
    assert {"no_content", "no_answer", "context_unavailable"} <= set(reasons)
