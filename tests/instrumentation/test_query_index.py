"""A retrieval's query index: what the caller says, else its query's position among the request's queries,
whichever thread or task reaches the retriever first."""

from __future__ import annotations

import contextvars
import json
import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import ragpulse
from ragpulse import semconv
from span_capture import Spans

VARIATION_COUNT = 5


@ragpulse.variations
def make_variations(question: str) -> list[str]:
    return [f"{question} #{number}" for number in range(1, VARIATION_COUNT + 1)]


@ragpulse.retrieve
def search(query: str) -> list[dict[str, str]]:
    return [{"id": f"doc-for-{query}", "text": query}]


def _retrievals(spans: Spans, name: str) -> list[tuple[str, int]]:
    retrievals = json.loads(dict(spans.one(name).attributes or {})[semconv.RETRIEVALS])
    return [(retrieval["query"], retrieval["query_index"]) for retrieval in retrievals]


def test_retrievals_in_a_thread_pool_with_jitter_keep_their_query_index(spans: Spans) -> None:
    """Threads reach the retriever in random order; each retrieval still gets its query's position (the old
    rule, the order in which retrievals started, misattributed most of them)."""
    jitter = random.Random(20260523)

    def delayed_search(query: str, delay: float) -> list[dict[str, str]]:
        time.sleep(delay)
        return search(query)

    @ragpulse.rag
    def request(question: str) -> str:
        queries = [question, *make_variations(question)]
        # Later queries sleep less, so they tend to start first; the jitter shuffles them further.
        delays = [0.01 * (len(queries) - rank) + jitter.uniform(0, 0.02) for rank in range(len(queries))]
        with ThreadPoolExecutor(max_workers=len(queries)) as pool:
            futures = [
                pool.submit(contextvars.copy_context().run, delayed_search, query, delay)
                for query, delay in zip(queries, delays, strict=True)
            ]
            for future in futures:
                future.result()
        return "done"

    for _ in range(3):
        spans.exporter.clear()
        request("q")
        expected = [("q", 0)] + [(f"q #{number}", number) for number in range(1, VARIATION_COUNT + 1)]
        assert _retrievals(spans, "rag request") == expected
        by_span = {
            dict(span.attributes or {})[semconv.INPUT_VALUE]: dict(span.attributes or {})[semconv.QUERY_INDEX]
            for span in spans.named("retrieve")
        }
        assert by_span == dict(expected)


def test_a_query_that_is_neither_question_nor_variation_gets_the_next_free_index_once(spans: Spans) -> None:
    @ragpulse.rag
    def request(question: str) -> str:
        make_variations(question)
        search("unplanned")
        search("q #2")
        search("unplanned")
        return "done"

    request("q")
    assert _retrievals(spans, "rag request") == [
        ("q #2", 2),
        ("unplanned", VARIATION_COUNT + 1),
        ("unplanned", VARIATION_COUNT + 1),
    ]


def test_the_caller_s_query_index_wins_even_when_the_function_does_not_take_it(spans: Spans) -> None:
    received: list[dict[str, Any]] = []

    @ragpulse.retrieve
    def search_plain(query: str, **options: Any) -> list[str]:
        received.append(options)
        return [query]

    @ragpulse.retrieve
    def search_bare(query: str) -> list[str]:
        return [query]

    @ragpulse.rag
    def request(question: str) -> str:
        search_bare("first", query_index=7)
        search_plain("second", query_index=3, top_k=2)
        return "done"

    request("q")
    assert _retrievals(spans, "rag request") == [("second", 3), ("first", 7)]
    assert received == [{"query_index": 3, "top_k": 2}]
