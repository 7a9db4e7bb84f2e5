"""Per-service mappings: where a service's question, documents and answer are, when the rules cannot tell."""

from __future__ import annotations

import json
import string
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError
from ragpulse_assembly.context import context_texts
from ragpulse_assembly.job import assemble_trace
from ragpulse_assembly.jsonpath import select
from ragpulse_assembly.model import TraceSpan
from ragpulse_assembly.names import ContextSource
from ragpulse_assembly.preview import preview
from ragpulse_assembly.reasons import Unscorable
from ragpulse_assembly.settings import AssemblySettings, ServiceMapping
from ragpulse_core.store import Store

SCOPE = "openinference.instrumentation.openai"
QUESTION = "How long do refunds take?"
DOCUMENTS = ["Refunds take 5 business days to reach the card.", "Shipping is free above 50 euros."]
ANSWER = "Refunds take 5 business days to reach the card."


def llm_span(
    messages: list[tuple[str, str]],
    output: str = ANSWER,
    *,
    service: str = "support-bot",
    extra: dict[str, str] | None = None,
    resource: dict[str, str] | None = None,
    start: datetime | None = None,
) -> TraceSpan:
    attributes = {"openinference.span.kind": "LLM", "llm.output_messages.0.message.role": "assistant",
                  "llm.output_messages.0.message.content": output, **(extra or {})}  # fmt: skip
    for n, (role, content) in enumerate(messages):
        attributes[f"llm.input_messages.{n}.message.role"] = role
        attributes[f"llm.input_messages.{n}.message.content"] = content
    when = start or datetime.now(UTC) - timedelta(minutes=5)
    return TraceSpan("00000000000000a1", "", "ChatCompletion", service, SCOPE, when, 2_000_000, "Ok",
                     attributes, resource=resource or {})  # fmt: skip


def mapping(**fields: Any) -> ServiceMapping:
    return ServiceMapping.model_validate({"service": "support-*", **fields})


# A service that sends its knowledge base and the user's question as one JSON message of its own design.
JSON_PROMPT = json.dumps({"task": "answer from kb", "kb": [{"body": d} for d in DOCUMENTS], "ask": QUESTION})
JSON_MAPPING = mapping(
    question={"message": "user", "jsonpath": "$.ask"},
    documents={"message": "user", "jsonpath": "$.kb[*].body"},
)


def test_a_mapping_reads_question_and_documents_where_the_service_put_them() -> None:
    span = llm_span([("system", "Answer from the knowledge base only."), ("user", JSON_PROMPT)])

    request = assemble_trace("t1", [span], (JSON_MAPPING,))

    assert request is not None
    assert request.question == QUESTION
    assert context_texts(request.context) == DOCUMENTS
    assert request.answer == ANSWER
    assert request.context_source is ContextSource.MAPPING
    assert request.unscorable is Unscorable.SCORABLE


def test_a_mapping_applies_only_to_the_services_and_attributes_it_names() -> None:
    prod_only = JSON_MAPPING.model_copy(update={"attributes": {"deployment.environment": "prod"}})
    messages = [("system", "Answer from the knowledge base only."), ("user", JSON_PROMPT)]
    other_service = assemble_trace("t1", [llm_span(messages, service="billing-bot")], (JSON_MAPPING,))
    staging = assemble_trace(
        "t2", [llm_span(messages, resource={"deployment.environment": "staging"})], (prod_only,)
    )
    prod = assemble_trace(
        "t3", [llm_span(messages, resource={"deployment.environment": "prod"})], (prod_only,)
    )

    assert other_service is not None and other_service.context_source is not ContextSource.MAPPING
    assert staging is not None and staging.context_source is not ContextSource.MAPPING
    assert prod is not None and context_texts(prod.context) == DOCUMENTS


def test_a_field_the_mapping_cannot_find_is_a_reason_not_a_guess() -> None:
    wrong_path = mapping(documents={"message": "user", "jsonpath": "$.knowledge[*].body"})
    span = llm_span([("system", "Answer from the knowledge base only."), ("user", JSON_PROMPT)])

    request = assemble_trace("t1", [span], (wrong_path,))

    assert request is not None
    assert request.unscorable is Unscorable.MAPPING_FOUND_NOTHING
    assert request.context == ""


def test_one_document_per_message_and_a_regex_over_the_answer() -> None:
    messages = [("system", "You answer support questions."), *(("system", doc) for doc in DOCUMENTS),
                ("user", f"Customer asks: {QUESTION}")]  # fmt: skip
    per_message = mapping(
        documents={"message": "system", "regex": r"^(?:You answer.*|(?P<text>.+))$"},
        question={"message": "user", "regex": r"Customer asks: (.+)"},
        answer={"regex": r"(?s)^(?P<text>.*?)\s*(?:\n\nSources:.*)?$"},
    )
    span = llm_span(messages, output=f"{ANSWER}\n\nSources: kb-12")

    request = assemble_trace("t1", [span], (per_message,))

    assert request is not None
    assert (request.question, request.answer) == (QUESTION, ANSWER)
    assert context_texts(request.context) == DOCUMENTS
    assert request.unscorable is Unscorable.SCORABLE


def test_an_attribute_holds_the_documents_as_json() -> None:
    extra = {"app.retrieved": json.dumps([{"text": d, "id": n} for n, d in enumerate(DOCUMENTS)])}
    span = llm_span([("system", "Be brief."), ("user", QUESTION)], extra=extra)
    by_attribute = mapping(documents={"attribute": "app.retrieved", "jsonpath": "$[*]"})

    request = assemble_trace("t1", [span], (by_attribute,))

    assert request is not None and context_texts(request.context) == DOCUMENTS
    assert request.unscorable is Unscorable.SCORABLE


def test_a_mapping_that_names_nothing_or_a_broken_pattern_is_refused_at_load() -> None:
    with pytest.raises(ValidationError, match="names none of question, documents, answer"):
        ServiceMapping(service="support-bot")
    with pytest.raises(ValidationError, match="not a usable regular expression"):
        mapping(question={"regex": "(unclosed"})
    with pytest.raises(ValidationError, match="lookaround need backtracking"):
        mapping(documents={"message": "system", "regex": r"^(?!You answer)(?P<text>.+)$"})
    with pytest.raises(ValidationError, match="JSONPath"):
        mapping(question={"jsonpath": "ask"})
    with pytest.raises(ValidationError, match="extra"):
        AssemblySettings.model_validate({"mappings": [{"service": "x", "question": {"regexp": "a"}}]})


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(string.ascii_letters, min_size=1,
                                                                        max_size=4), inner, max_size=3),
    max_leaves=8,
)  # fmt: skip


@st.composite
def planted(draw: st.DrawFn) -> tuple[Any, str, str]:
    """A JSON document, a path into it, and the string planted at the path's end."""
    target = draw(st.text(min_size=1, max_size=8))
    value: Any = target
    path = ""
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            key = draw(st.text(string.ascii_letters, min_size=1, max_size=4))
            value = {**draw(st.dictionaries(st.text(string.digits, min_size=1, max_size=2), JSON_VALUES,
                                            max_size=2)), key: value}  # fmt: skip
            path = f".{key}{path}" if draw(st.booleans()) else f"['{key}']{path}"
        else:
            before = draw(st.lists(JSON_VALUES, max_size=2))
            index = len(before) if draw(st.booleans()) else len(before) - (len(before) + 1)
            value = [*before, value]
            path = f"[{index}]{path}"
    return value, f"${path}", target


@given(planted())
def test_a_jsonpath_reaches_exactly_what_it_names(case: tuple[Any, str, str]) -> None:
    document, path, target = case
    assert select(json.loads(json.dumps(document)), path) == [target]


DOCUMENT_TEXTS = st.text(string.ascii_letters + " .,", min_size=1, max_size=30).map(str.strip).filter(bool)


@given(st.lists(DOCUMENT_TEXTS, min_size=1, max_size=6), st.sampled_from(["~~~", "#DOC#", "<<>>"]))
def test_documents_behind_any_delimiter_a_regex_names_are_recovered_exactly(
    documents: list[str], delimiter: str
) -> None:
    prompt = "Answer from these.\n" + "".join(f"{delimiter}{doc}\n" for doc in documents)
    escaped = "".join(f"\\{c}" if not c.isalnum() else c for c in delimiter)
    by_delimiter = mapping(documents={"message": "user", "regex": rf"{escaped}(?P<text>[^\n]*)"})

    request = assemble_trace("t1", [llm_span([("user", prompt)], output=documents[0])], (by_delimiter,))

    assert request is not None and context_texts(request.context) == documents


def test_preview_shows_what_the_rules_and_the_mapping_make_of_stored_traces(store: Store) -> None:
    now = datetime.now(UTC)
    rows = []
    for n in range(3):
        span = llm_span([("system", "Answer from the knowledge base only."), ("user", JSON_PROMPT)],
                        start=now - timedelta(minutes=n))  # fmt: skip
        rows.append([span.timestamp, f"{n:032x}", span.span_id, "", span.name, "Client", span.service_name,
                     span.scope_name, dict(span.attributes), span.duration_ns, span.status_code])  # fmt: skip
    columns = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
               "ScopeName", "SpanAttributes", "Duration", "StatusCode"]  # fmt: skip
    store.insert("otel_traces", rows, columns)

    found = preview(store, "support-bot", (JSON_MAPPING,), last=2, since=timedelta(hours=1))

    assert [traced.trace_id for traced in found.traces] == [f"{0:032x}", f"{1:032x}"]
    assert found.scorable == 2
    assert all(traced.documents == DOCUMENTS and traced.mapping is not None for traced in found.traces)
    # The rules alone see a serialized object where this service keeps its question and documents.
    assert found.scorable_by_rules == 0
    assert found.reasons == {}


def test_the_preview_command_prints_each_trace_and_what_would_be_scored(
    store: Store, chdb_dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ragpulse_core.cli import main

    span = llm_span([("system", "Answer from the knowledge base only."), ("user", JSON_PROMPT)],
                    service="support-preview")  # fmt: skip
    store.insert("otel_traces", [[span.timestamp, "c" * 32, span.span_id, "", span.name, "Client",
                                  span.service_name, span.scope_name, dict(span.attributes), span.duration_ns,
                                  span.status_code]],
                 ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
                  "ScopeName", "SpanAttributes", "Duration", "StatusCode"])  # fmt: skip
    config = tmp_path / "ragpulse.toml"
    config.write_text(
        '[[assembly.mappings]]\nservice = "support-*"\n'
        'question = { message = "user", jsonpath = "$.ask" }\n'
        'documents = { message = "user", jsonpath = "$.kb[*].body" }\n'
    )
    assert main(["assembly", "preview", "--service", "support-preview", "--dsn", chdb_dsn]) == 0
    by_rules = capsys.readouterr().out
    assert main(["assembly", "preview", "--service", "support-preview", "--dsn", chdb_dsn,
                 "--config", str(config)]) == 0  # fmt: skip
    mapped = capsys.readouterr().out

    summary = "1 of 1 would be scored (0 by the rules alone; 1 read through a mapping)"
    assert "0 of 1 would be scored" in " ".join(by_rules.split())
    assert summary in " ".join(mapped.split())
    assert "Shipping" in mapped  # the second mapped document (the question column shows only the question)
