"""A trace written by another instrumentation (OpenInference's LangChain instrumentor) whose spans reach the
collector in two exports, with a scoring tick (which assembles settled traces) between them: the root first
and its children later, or the children first and the root later. Either way the trace is one request with
its context, scored once. (Children first, the request is assembled from them before the root arrives and is
named by the outermost child; the root's later arrival does not assemble it again.)"""

from __future__ import annotations

import random
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from ragpulse_collector.server import CollectorServer
from ragpulse_core.store import Store
from trials import export, hallucination_of, lexical_tick, outcomes_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scorers"))
from span_trees import FusionRequest

CORPUS = {
    "n1": "The Eiffel Tower is 330 metres tall.",
    "n2": "It was built for the 1889 World's Fair.",
    "n3": "Paris is the capital of France.",
}
QUESTION = "How tall is the Eiffel Tower?"
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def langchain_trace(service: str, trace_id: str = "", span_offset: int = 0) -> list[dict[str, Any]]:
    """A LangChain RAG-Fusion trace as OpenInference exports it, as the exporter child takes spans."""
    request = FusionRequest(
        shape="langchain", question=QUESTION, answer="The Eiffel Tower is 330 metres tall.", corpus=CORPUS,
        generated=["Eiffel Tower height"], question_searched=False,
        rankings={"Eiffel Tower height": ["n1", "n2"]}, fused=["n1", "n3"],
    )  # fmt: skip
    trace_id = trace_id or format(random.getrandbits(128), "032x")

    def shifted(span_id: str) -> str:
        return format(int(span_id, 16) + span_offset, "016x") if span_id else ""

    spans = []
    for span in request.spans(datetime.now(UTC) - timedelta(minutes=5), service):
        start = (span.timestamp - EPOCH) // timedelta(microseconds=1) * 1000
        spans.append(
            {
                "service": service, "name": span.name, "trace_id": trace_id, "span_id": shifted(span.span_id),
                "parent_id": shifted(span.parent_span_id), "start": start, "end": start + span.duration_ns,
                "attributes": span.attributes, "scope": span.scope_name,
            }
        )  # fmt: skip
    return spans


def assembled(store: Store, service: str) -> list[tuple[str, str, str]]:
    return store.query(
        f"SELECT TraceId, SpanId, Context FROM {store.table('ragpulse_requests')} FINAL"
        " WHERE ServiceName = {s:String}",
        {"s": service},
    )


@pytest.mark.parametrize("first", ["root", "children"])
def test_a_trace_split_over_two_exports_with_a_tick_between_is_one_request_scored_once(
    migrated_store: Store, shared_collector: CollectorServer, first: str
) -> None:
    service = f"split-{first}-{uuid.uuid4().hex[:6]}"
    spans = langchain_trace(service)
    roots, children = [s for s in spans if not s["parent_id"]], [s for s in spans if s["parent_id"]]
    endpoint = f"{shared_collector.url}/v1/traces"
    assert export("http", endpoint, [roots if first == "root" else children]) == ["SUCCESS"]
    assert shared_collector.flush()
    lexical_tick(migrated_store)
    assert export("http", endpoint, [children if first == "root" else roots]) == ["SUCCESS"]
    assert shared_collector.flush()
    lexical_tick(migrated_store)
    lexical_tick(migrated_store)

    ((trace_id, _, context),) = assembled(migrated_store, service)
    assert trace_id == roots[0]["trace_id"]
    assert CORPUS["n1"] in context and CORPUS["n3"] in context
    (values,) = hallucination_of(migrated_store, service).values()
    assert len(values) == 1
    ((_, lines),) = outcomes_of(migrated_store, service).items()
    assert [outcome for outcome, _ in lines] == ["scored"]


@pytest.mark.parametrize(
    ("span_ids", "services"),
    [("own", 2), ("alike", 2), ("own", 1)],
    ids=["own-ids", "ids-alike", "one-service"],
)
def test_requests_tracing_under_one_trace_id_at_once_are_each_a_request_scored_once(
    migrated_store: Store, shared_collector: CollectorServer, span_ids: str, services: int
) -> None:
    """Two services (or two concurrent requests of one), instrumented by OpenInference, each handling a
    request under the same trace id at once, with span ids of their own or (seeded alike) the same ones.
    Before, the first was assembled alone (the other lost), or, with the ids alike, the interleaved spans
    were cut into six fragments counted as requests."""
    trace_id = format(random.getrandbits(128), "032x")
    names = [f"shared-trace-{n}-{uuid.uuid4().hex[:6]}" for n in range(services)]
    offset = 1000 if span_ids == "own" else 0
    traces = [langchain_trace(names[0], trace_id), langchain_trace(names[-1], trace_id, offset)]
    endpoint = f"{shared_collector.url}/v1/traces"
    assert export("http", endpoint, traces) == ["SUCCESS", "SUCCESS"]
    assert shared_collector.flush()
    lexical_tick(migrated_store)
    lexical_tick(migrated_store)
    rows = [row for name in names for row in assembled(migrated_store, name)]
    assert len(rows) == 2
    assert all(trace == trace_id and CORPUS["n1"] in context for trace, _, context in rows)
    logged = [lines for name in names for lines in outcomes_of(migrated_store, name).values()]
    assert [[outcome for outcome, _ in lines] for lines in logged] == [["scored"], ["scored"]]
