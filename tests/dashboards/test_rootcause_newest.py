"""The live page's lists of the newest (conversations, a slice's requests) read the last hours first: what
they list must be what the whole window holds, newest first, whether the last hours hold enough or not."""

from __future__ import annotations

from datetime import timedelta

from ragpulse_core.store import Store
from ragpulse_dashboards.rootcause.conversations import (
    CONVERSATIONS_LISTED,
    SLICE_REQUESTS,
    conversations,
    slice_requests,
)
from ragpulse_dashboards.rootcause.facts import update_facts
from ragpulse_dashboards.rootcause.ranking import SliceKey
from ragpulse_dashboards.settings import RootCauseSettings
from rootcause_data import SERVICE, StoredRequest, minutes_ago, write_requests

MONTH = timedelta(days=30)


def test_the_newest_conversations_count_their_turns_of_the_whole_window(store: Store) -> None:
    recent = [
        StoredRequest(minutes_ago(1 + index), index % 2 == 0, session=f"s-{index}")
        for index in range(CONVERSATIONS_LISTED + 10)
    ]
    # The five newest conversations began three days ago; older conversations are not among the newest.
    earlier = [StoredRequest(minutes_ago(3 * 24 * 60), True, session=f"s-{index}") for index in range(5)]
    older = [StoredRequest(minutes_ago(10 * 60), False, session=f"old-{index}") for index in range(20)]
    write_requests(store, [*recent, *earlier, *older])
    update_facts(store, RootCauseSettings())

    listed = conversations(store, minutes_ago(0) - MONTH, None)

    assert [line.session for line in listed] == [f"s-{index}" for index in range(CONVERSATIONS_LISTED)]
    by_session = {line.session: line for line in listed}
    assert [(by_session[f"s-{i}"].turns, by_session[f"s-{i}"].judged) for i in range(5)] == [(2, 2)] * 5
    assert by_session["s-0"].first == earlier[0].time
    assert (by_session["s-1"].unsupported, by_session["s-2"].unsupported) == (1, 2)
    assert (by_session["s-5"].turns, by_session["s-5"].unsupported) == (1, 0)


def test_few_recent_conversations_are_listed_with_the_older_ones(store: Store) -> None:
    write_requests(store, [
        StoredRequest(minutes_ago(5), False, session="today"),
        StoredRequest(minutes_ago(12 * 60), True, session="this morning"),
        StoredRequest(minutes_ago(5 * 24 * 60), False, session="last week"),
        StoredRequest(minutes_ago(40 * 24 * 60), False, session="before the window"),
    ])  # fmt: skip
    update_facts(store, RootCauseSettings())

    listed = conversations(store, minutes_ago(0) - MONTH, None)

    assert [(line.session, line.unsupported) for line in listed] == [
        ("today", 0), ("this morning", 1), ("last week", 0)
    ]  # fmt: skip


def test_a_slices_unsupported_requests_come_first_from_the_whole_window(store: Store) -> None:
    # The last hours hold fewer unsupported requests than are listed: the older ones fill the list, before
    # any supported request however new.
    recent_bad = [StoredRequest(minutes_ago(10 + index), True) for index in range(10)]
    recent_good = [StoredRequest(minutes_ago(30 + index), False) for index in range(SLICE_REQUESTS)]
    older_bad = [StoredRequest(minutes_ago(3 * 24 * 60 + index), True) for index in range(SLICE_REQUESTS)]
    other = [StoredRequest(minutes_ago(5), True, documents=(("guide.md", "handbook"),))]
    traces = write_requests(store, [*recent_bad, *recent_good, *older_bad, *other])
    update_facts(store, RootCauseSettings())

    found = slice_requests(store, minutes_ago(0) - MONTH, SERVICE, SliceKey("source", "faq"))

    expected = traces[:10] + traces[10 + SLICE_REQUESTS : 10 + SLICE_REQUESTS + SLICE_REQUESTS - 10]
    assert [ref.trace_id for ref in found] == expected
    assert all(ref.hallucinated for ref in found)
