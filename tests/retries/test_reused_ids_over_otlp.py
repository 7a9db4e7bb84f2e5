"""Requests that share ids, exported by the stock OpenTelemetry exporters (HTTP and gRPC, in child processes)
to a collector over chDB, then scored by the lexical judge: each request is stored, scored, logged and counted
once, and each score belongs to its own request (a supported answer scores below an unsupported one)."""

from __future__ import annotations

import random
import uuid

from ragpulse_collector.server import CollectorServer
from ragpulse_core.store import Store
from trials import (
    SUPPORTED,
    UNSUPPORTED,
    Request,
    finish,
    hallucination_of,
    lexical_tick,
    not_scored_counts,
    now_ns,
    outcomes_of,
    report_counts,
    request,
    requests_of,
    since,
    spans_of,
    start_export,
)


def service(case: str) -> str:
    return f"{case}-{uuid.uuid4().hex[:6]}"


def ids() -> tuple[str, str]:
    rng = random.Random()
    return format(rng.getrandbits(128), "032x"), format(rng.getrandbits(64), "016x")


def export_concurrently(endpoint: tuple[str, str], *exports: list[list[dict[str, object]]]) -> None:
    """Each plan from its own app process, all at once."""
    children = [start_export(*endpoint, plan) for plan in exports]
    for child in children:
        assert set(finish(child)) == {"SUCCESS"}


def assert_each_once(
    store: Store, collector: CollectorServer, services: set[str], made: list[Request]
) -> None:
    """Every span stored once; every request stored, scored, logged and counted once, with its own score."""
    assert collector.flush()
    lexical_tick(store)
    for name in services:
        mine = [r for r in made if r.service == name]
        spans = sorted((s["trace_id"], s["span_id"], s["start"]) for r in mine for s in r.spans)
        assert spans_of(store, name) == spans
        assert requests_of(store, name) == sorted((*r.key, r.answer) for r in mine)
        values = hallucination_of(store, name)
        assert sorted(values) == sorted(r.key for r in mine)
        assert all(len(found) == 1 for found in values.values()), values
        supported = [values[r.key][0] for r in mine if r.answer == SUPPORTED]
        unsupported = [values[r.key][0] for r in mine if r.answer == UNSUPPORTED]
        assert all(low < high for low in supported for high in unsupported), values
        outcomes = {key: [outcome for outcome, _ in lines] for key, lines in outcomes_of(store, name).items()}
        assert outcomes == {r.key: ["scored"] for r in mine}
        assert report_counts(store, name, since()) == (len(mine), len(mine))


def test_one_trace_id_used_by_two_services_at_once(
    migrated_store: Store, shared_collector: CollectorServer, endpoint: tuple[str, str]
) -> None:
    trace_id, _ = ids()
    start = now_ns()
    a, b = service("front"), service("back")
    made = [
        request(a, trace_id, ids()[1], start, SUPPORTED),
        request(b, trace_id, ids()[1], start, UNSUPPORTED),
    ]
    export_concurrently(endpoint, [made[0].spans], [made[1].spans])
    assert_each_once(migrated_store, shared_collector, {a, b}, made)


def test_two_services_seeded_alike_repeat_every_id_at_the_same_instant(
    migrated_store: Store, shared_collector: CollectorServer, endpoint: tuple[str, str]
) -> None:
    """Each service's spans are stored; scores and log rows name a request by (trace, root span, start
    microsecond), so neither is judged: each is counted, and unscored for a reason that says why."""
    trace_id, root_id = ids()
    steps = [ids()[1], ids()[1]]
    start = now_ns()
    a, b = service("replica-a"), service("replica-b")
    made = [
        request(a, trace_id, root_id, start, SUPPORTED, steps),
        request(b, trace_id, root_id, start, UNSUPPORTED, steps),
    ]
    export_concurrently(endpoint, [made[0].spans], [made[1].spans])
    assert_told_apart_but_not_judged(migrated_store, shared_collector, made)


def test_one_service_repeats_every_id_within_one_microsecond(
    migrated_store: Store, shared_collector: CollectorServer, endpoint: tuple[str, str]
) -> None:
    """Replicas of one service seeded alike, starting a request in the same microsecond: the requests table
    names a request to the microsecond and merges the two, so neither may be judged; the log says why."""
    trace_id, root_id = ids()
    steps = [ids()[1], ids()[1]]
    start = now_ns() // 1000 * 1000
    name = service("same-micro")
    made = [
        request(name, trace_id, root_id, start + 100, SUPPORTED, steps),
        request(name, trace_id, root_id, start + 600, UNSUPPORTED, steps),
    ]
    export_concurrently(endpoint, [made[0].spans], [made[1].spans])
    assert shared_collector.flush()
    migrated_store.command(f"OPTIMIZE TABLE {migrated_store.table('ragpulse_requests')} FINAL")
    lexical_tick(migrated_store)
    lexical_tick(migrated_store)
    spans = sorted((s["trace_id"], s["span_id"], s["start"]) for r in made for s in r.spans)
    assert spans_of(migrated_store, name) == spans
    assert hallucination_of(migrated_store, name) == {}
    ((outcome, reason),) = outcomes_of(migrated_store, name)[made[0].key]
    assert outcome == "skipped" and "2 requests" in reason and "start microsecond" in reason


def assert_told_apart_but_not_judged(store: Store, collector: CollectorServer, made: list[Request]) -> None:
    assert collector.flush()
    lexical_tick(store)
    lexical_tick(store)  # and a later tick judges neither
    for name in {r.service for r in made}:
        mine = [r for r in made if r.service == name]
        spans = sorted((s["trace_id"], s["span_id"], s["start"]) for r in mine for s in r.spans)
        assert spans_of(store, name) == spans
        assert requests_of(store, name) == sorted(
            (r.trace_id, r.root_id, r.start // 1000, r.answer) for r in mine
        )
        assert hallucination_of(store, name) == {}
        logged = outcomes_of(store, name)
        assert list(logged) == [mine[0].key]
        ((outcome, reason),) = logged[mine[0].key]
        assert outcome == "skipped" and "share this trace id, root span id and start microsecond" in reason
        assert report_counts(store, name, since()) == (len(mine), 0)


def test_two_concurrent_requests_of_one_service_share_a_trace_id(
    migrated_store: Store, shared_collector: CollectorServer, endpoint: tuple[str, str]
) -> None:
    trace_id, _ = ids()
    start = now_ns()
    name = service("web")
    made = [
        request(name, trace_id, ids()[1], start, SUPPORTED),
        request(name, trace_id, ids()[1], start + 1, UNSUPPORTED),
    ]
    export_concurrently(endpoint, [made[0].spans], [made[1].spans])
    assert_each_once(migrated_store, shared_collector, {name}, made)


def test_ids_reused_within_one_second_by_one_service(
    migrated_store: Store, shared_collector: CollectorServer, endpoint: tuple[str, str]
) -> None:
    trace_id, root_id = ids()
    steps = [ids()[1], ids()[1]]
    start = now_ns() // 10**9 * 10**9
    name = service("seeded")
    made = [
        request(name, trace_id, root_id, start + 1_000, SUPPORTED, steps),
        request(name, trace_id, root_id, start + 900_000_000, UNSUPPORTED, steps),
    ]
    export_concurrently(endpoint, [made[0].spans], [made[1].spans])
    assert_each_once(migrated_store, shared_collector, {name}, made)


def test_span_ids_colliding_across_traces(
    migrated_store: Store, shared_collector: CollectorServer, endpoint: tuple[str, str]
) -> None:
    root_id = ids()[1]
    steps = [ids()[1], ids()[1]]
    start = now_ns()
    name = service("collide")
    made = [
        request(name, ids()[0], root_id, start, SUPPORTED, steps),
        request(name, ids()[0], root_id, start, UNSUPPORTED, steps),
    ]
    export_concurrently(endpoint, [made[0].spans, made[1].spans])
    assert_each_once(migrated_store, shared_collector, {name}, made)


def test_children_exported_after_the_root_and_before_it(
    migrated_store: Store, shared_collector: CollectorServer, endpoint: tuple[str, str]
) -> None:
    name = service("split")
    start = now_ns()
    root_first = request(name, *ids(), start, SUPPORTED)
    children_first = request(name, *ids(), start + 5_000, UNSUPPORTED)
    export_concurrently(endpoint, [[root_first.root], children_first.children])
    lexical_tick(migrated_store)  # judged between the two exports
    export_concurrently(endpoint, [root_first.children, [children_first.root]])
    assert_each_once(migrated_store, shared_collector, {name}, [root_first, children_first])


def test_a_batch_sent_again_with_a_subset_or_a_superset_of_its_spans(
    migrated_store: Store, shared_collector: CollectorServer, endpoint: tuple[str, str]
) -> None:
    name = service("resend")
    start = now_ns()
    made = [request(name, *ids(), start + n * 7_000, (SUPPORTED, UNSUPPORTED)[n % 2]) for n in range(4)]
    everything = [span for r in made for span in r.spans]
    first_half, rest = everything[:5], everything[5:]
    # A partial failure retried with what failed plus some that did not; an app restarted with a persisted
    # queue re-exporting the whole batch; a retry of a subset; all of it once more after a score was written.
    export_concurrently(endpoint, [first_half, everything[3:9], everything, everything[::2]])
    lexical_tick(migrated_store)
    export_concurrently(endpoint, [rest[::-1], everything])
    assert_each_once(migrated_store, shared_collector, {name}, made)


def test_unscorable_requests_reusing_ids_within_one_second_are_each_counted_with_their_reason(
    migrated_store: Store, shared_collector: CollectorServer, endpoint: tuple[str, str]
) -> None:
    trace_id, root_id = ids()
    start = now_ns() // 10**9 * 10**9
    name = service("no-context")
    made = [request(name, trace_id, root_id, start + n * 200_000_000 + 1_000, SUPPORTED) for n in range(3)]
    for made_request in made:
        made_request.root["attributes"]["ragpulse.context"] = "[]"
    export_concurrently(endpoint, *[[r.spans] for r in made])
    assert shared_collector.flush()
    lexical_tick(migrated_store)
    assert len(requests_of(migrated_store, name)) == 3
    logged = outcomes_of(migrated_store, name)
    assert sorted(logged) == sorted(r.key for r in made)
    assert all([outcome for outcome, _ in lines] == ["skipped"] for lines in logged.values())
    assert not_scored_counts(migrated_store, name, since()) == {"no_context": 3}
