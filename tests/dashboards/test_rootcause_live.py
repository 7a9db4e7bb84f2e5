"""The live page's new views (a slice's requests, conversations, one conversation, the request page's spans,
variations, chunks and evidence) are as safe to expose as the rest of the page: behind the read token and the
Host allowlist, and every traced string, however hostile, shown as text."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlencode

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ragpulse_core.store import Store
from ragpulse_dashboards.live import LivePage
from ragpulse_dashboards.report.details import judged_sentences
from ragpulse_dashboards.review.trace import MAX_SPANS
from ragpulse_dashboards.rootcause.cause import Cause
from ragpulse_dashboards.rootcause.facts import update_facts
from ragpulse_dashboards.settings import RootCauseSettings
from rootcause_data import SPAN_COLUMNS, StoredRequest, minutes_ago, write_requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scorers"))
from live_testing import fetch, running_page, signed_in_cookie

HOSTILE = "<script>alert('x')</script><img src=x onerror=alert(1)>\u202e\x00\x1b[31m"
SERVICE = "support-bot"


@pytest.fixture
def page(store: Store) -> Iterator[tuple[LivePage, str]]:
    """A hostile request: its question, answer, session, attributes, documents and span names are markup."""
    [trace] = write_requests(
        store,
        [
            StoredRequest(
                minutes_ago(30), True, question=f"Q {HOSTILE}",
                answer=f"First {HOSTILE}. Second sentence here.",
                documents=[(f"doc{HOSTILE}", f"src{HOSTILE}")], attributes={"customer.tier": HOSTILE},
                session=f"s{HOSTILE}", model=HOSTILE, service=SERVICE,
            )
        ],
    )  # fmt: skip
    at = minutes_ago(30)
    store.insert(
        "otel_traces",
        [[at + timedelta(milliseconds=5), trace, "abcdefabcdef0001", trace[:16], f"retrieve {HOSTILE}",
          "Internal", SERVICE, {}, {"ragpulse.query_index": "1", "input.value": HOSTILE}, 1_000_000, "Ok"]],
        SPAN_COLUMNS,
    )  # fmt: skip
    store.command(
        f"ALTER TABLE {store.table('ragpulse_requests')}"
        " UPDATE Variations = {v:String}, Retrievals = {r:String}"
        " WHERE TraceId = {t:String} SETTINGS mutations_sync = 1",
        {
            "t": trace,
            "v": json.dumps([HOSTILE]),
            "r": json.dumps(
                [{"query": HOSTILE, "query_index": 1, "documents": [{"id": HOSTILE, "rank": 1}]}]
            ),
        },
    )
    update_facts(store, RootCauseSettings(attributes=["customer.tier"]))
    with running_page(store) as running:
        yield running, trace


def _paths(store: Store, trace: str) -> list[str]:
    [(span, at)] = store.query(
        f"SELECT SpanId, toUnixTimestamp64Micro(Timestamp) FROM {store.table('ragpulse_requests')}"
        " WHERE TraceId = {t:String}",
        {"t": trace},
    )
    return [
        "/conversations",
        f"/conversation?{urlencode({'service': SERVICE, 'session': f's{HOSTILE}'})}",
        f"/slice?{urlencode({'service': SERVICE, 'dimension': 'customer.tier', 'value': HOSTILE})}",
        f"/review/request?{urlencode({'trace': trace, 'span': span, 'at': at})}",
    ]


def test_every_new_view_needs_the_token_and_an_allowed_host(page: tuple[LivePage, str], store: Store) -> None:
    running, trace = page
    cookie = signed_in_cookie(running.url)
    for path in _paths(store, trace):
        assert fetch(running.url, path).status == 401, path
        assert fetch(running.url, path, host="evil.example", headers={"Cookie": cookie}).status == 421, path
        answer = fetch(running.url, path, headers={"Cookie": cookie})
        assert answer.status == 200, (path, answer.body[:300])
        assert "Content-Security-Policy" in answer.headers and answer.headers["X-Frame-Options"] == "DENY"
        # Traced text is text: no tag, attribute handler or control character of it reaches the page.
        assert "<script>" not in answer.body and "<img" not in answer.body, path
        assert "\x00" not in answer.body and "\x1b" not in answer.body and "\u202e" not in answer.body, path
        assert "&lt;script&gt;" in answer.body, path


def test_the_request_page_escapes_spans_variations_chunks_and_evidence(
    page: tuple[LivePage, str], store: Store
) -> None:
    running, trace = page
    cookie = signed_in_cookie(running.url)
    body = fetch(running.url, _paths(store, trace)[-1], headers={"Cookie": cookie}).body
    for section in ("How it ran: spans and judges", "Query variations and their rankings", "Fused context"):
        assert section in body
    assert body.count("&lt;script&gt;") >= 5


@pytest.mark.parametrize(
    "path",
    [
        "/slice?service=support-bot",
        "/conversation?service=support-bot",
        f"/slice?service={'s' * 5000}&dimension=model&value=x",
        "/conversation?service=support-bot&session=nobody",
    ],
)
def test_a_view_asked_for_nothing_it_can_show_says_so(page: tuple[LivePage, str], path: str) -> None:
    running, _ = page
    answer = fetch(running.url, path, headers={"Cookie": signed_in_cookie(running.url)})
    assert answer.status in (400, 404) and "Nothing to show" in answer.body


@given(
    st.recursive(
        st.none() | st.booleans() | st.floats() | st.text(),
        lambda children: st.lists(children) | st.dictionaries(st.text(), children),
        max_leaves=30,
    )
)
def test_stored_causes_and_judge_details_of_any_shape_read_as_something_or_nothing(value: object) -> None:
    text = json.dumps(value)
    assert Cause.from_json(text) is None or isinstance(Cause.from_json(text), Cause)
    assert isinstance(judged_sentences(text), list)


def test_a_trace_of_ten_thousand_spans_and_megabyte_names_opens_bounded(
    page: tuple[LivePage, str], store: Store
) -> None:
    """A hostile trace costs the request page one bounded read: at most MAX_SPANS bars, names cut, the spans
    left out said (at least how many), unicode shown as written."""
    running, trace = page
    at = minutes_ago(30)
    huge = "\u0645\u0631\u062d\u0628\u0627 ü 🧪" + "x" * 1_000_000
    store.insert(
        "otel_traces",
        [[at + timedelta(microseconds=10 * i), trace, f"{i:016x}", trace[:16] if i % 2 else f"{i - 1:016x}",
          huge if i == 7 else f"step {i} 🧪", "Internal", SERVICE, {}, {}, 1_000, "Ok"]
         for i in range(1, 10_001)],
        SPAN_COLUMNS,
    )  # fmt: skip
    cookie = signed_in_cookie(running.url)

    answer = fetch(running.url, _paths(store, trace)[-1], headers={"Cookie": cookie})

    assert answer.status == 200 and len(answer.body) < 400_000
    assert answer.body.count("<rect") <= MAX_SPANS + 5
    assert "more span(s) of this request are not drawn" in answer.body and "at least" in answer.body
    assert "\u0645\u0631\u062d\u0628\u0627 ü 🧪" in answer.body and "step 1 🧪" in answer.body


@pytest.mark.parametrize(
    "query",
    [
        {"trace": "' OR 1=1 --", "span": "x", "at": "1"},
        {"trace": "../../etc/passwd", "span": "%00", "at": "-1"},
        {"trace": "a" * 10_000, "span": "\u202e", "at": "9" * 40},
        {"trace": "abc", "span": "", "at": "nan"},
    ],
)
def test_a_request_named_by_hostile_ids_is_refused_or_not_found(
    page: tuple[LivePage, str], query: dict[str, str]
) -> None:
    running, _ = page
    answer = fetch(
        running.url, f"/review/request?{urlencode(query)}", headers={"Cookie": signed_in_cookie(running.url)}
    )
    assert answer.status in (400, 404), (query, answer.status, answer.body[:300])
    assert "<script" not in answer.body and "\u202e" not in answer.body
