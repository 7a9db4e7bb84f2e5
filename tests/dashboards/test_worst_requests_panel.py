"""The "Worst requests first" panel on requests scored more than once (the demo has no re-scores)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from demo_data import SCORE_COLUMNS, SERVICE, Demo
from ragpulse_core.store import Store
from ragpulse_dashboards.report.queries import worst_requests
from test_panel_queries import panel, run

REQUEST_COLUMNS = [
    "TraceId",
    "Timestamp",
    "ServiceName",
    "Pipeline",
    "Variant",
    "Question",
    "Answer",
    "SampleKey",
]


def _scores(
    trace: str, at: datetime, scored_at: datetime, hallucination: float, support: float
) -> list[list[object]]:
    return [
        [trace, at, scored_at, SERVICE, "fusion", "A", "lexical", "1", metric, value, "", "", "{}", "",
         0, 0, 0.0, 0.0, ""]
        for metric, value in (("hallucination", hallucination), ("support", support))
    ]  # fmt: skip


def _requests(store: Store, traces: list[str], now: datetime) -> dict[str, datetime]:
    """One request per trace, a minute apart back from ``now``, with the SampleKey its view would compute
    (what the panel joins scores on); their start times by trace."""
    keys = dict(store.query("SELECT id, cityHash64(id) FROM system.one ARRAY JOIN {ids:Array(String)} AS id",
                            {"ids": traces}))  # fmt: skip
    at = {trace: now - timedelta(minutes=index + 1) for index, trace in enumerate(traces)}
    store.insert(
        "ragpulse_requests",
        [[trace, at[trace], SERVICE, "fusion", "A", f"q{trace[-1]}", "a", keys[trace]] for trace in traces],
        REQUEST_COLUMNS,
    )
    return at


def test_a_request_scored_twice_is_listed_once(store: Store) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    traces = [f"{index:032x}" for index in range(1, 6)]
    at = _requests(store, traces, now)
    store.insert(
        "ragpulse_scores",
        [row for index, trace in enumerate(traces)
         for row in _scores(trace, at[trace], now, float(index < 2), 0.2 + index / 10)],
        SCORE_COLUMNS,
    )  # fmt: skip
    # The last, well-supported request is judged again, hallucinated and barely supported.
    store.insert(
        "ragpulse_scores",
        _scores(traces[4], at[traces[4]], now + timedelta(seconds=5), 1.0, 0.1),
        SCORE_COLUMNS,
    )

    rows = run(
        store, panel("request-explorer.json", "Worst requests first")["targets"][0]["rawSql"], Demo(now=now)
    )

    assert [row["trace_id"] for row in rows] == [traces[4], traces[0], traces[1], traces[2], traces[3]]
    assert [row["hallucination"] for row in rows] == [1.0, 1.0, 1.0, 0.0, 0.0]
    assert rows[0]["support"] == 0.1


def test_a_request_judged_again_as_grounded_leaves_the_worst_list(store: Store) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    traces = [f"{index:032x}" for index in range(11, 15)]
    at = _requests(store, traces, now)
    store.insert(
        "ragpulse_scores",
        [row for trace in traces for row in _scores(trace, at[trace], now, 1.0, 0.1)],
        SCORE_COLUMNS,
    )
    # The first is judged again, in a part of its own no merge has touched: grounded and well supported.
    store.insert("ragpulse_scores", _scores(traces[0], at[traces[0]], now + timedelta(seconds=5), 0.0, 0.9),
                 SCORE_COLUMNS)  # fmt: skip

    rows = run(
        store, panel("request-explorer.json", "Worst requests first")["targets"][0]["rawSql"], Demo(now=now)
    )
    report = worst_requests(
        store, {"since_ms": int((now - timedelta(hours=1)).timestamp() * 1000), "service": "",
                "scorer": "lexical", "limit": 20}
    )  # fmt: skip

    assert [row["trace_id"] for row in rows] == [*traces[1:], traces[0]]
    assert [(row["hallucination"], row["support"]) for row in rows][-1] == (0.0, 0.9)
    # The report lists the same requests in the same order, from the same tables.
    assert [request.trace_id for request in report] == [row["trace_id"] for row in rows]
    assert not report[-1].hallucinated and report[-1].support == 0.9
