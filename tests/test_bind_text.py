"""Large array parameters rendered by the Store bind exactly as the driver would, and read back intact."""

from __future__ import annotations

from typing import Any

from clickhouse_connect.driver.binding import bind_query
from hypothesis import given, settings
from hypothesis import strategies as st
from ragpulse_core.bind_text import prerendered
from ragpulse_core.store import Store

SQL = (
    "SELECT 1 WHERE TraceId IN {ids:Array(String)}"
    " AND (TraceId, SpanId, RequestMicros) IN {requests:Array(Tuple(String, String, Int64))}"
    " AND has({marks:Array(Int64)}, 1) AND Scorer = {scorer:String}"
    " AND has({stamps:Array(DateTime64(6))}, Timestamp)"
)
texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
micros = st.integers(min_value=-(2**63), max_value=2**63 - 1)


@settings(max_examples=60, deadline=None)
@given(
    ids=st.lists(texts, max_size=150),
    requests=st.lists(st.tuples(texts, texts, micros), max_size=150),
    marks=st.lists(micros | st.booleans(), max_size=150),
    scorer=texts,
    stamps=st.lists(st.integers(min_value=0, max_value=2**62), max_size=150),
)
def test_a_query_binds_the_same_text_as_the_driver_would(
    ids: list[str], requests: list[tuple[str, str, int]], marks: list[Any], scorer: str, stamps: list[int]
) -> None:
    parameters = {"ids": ids, "requests": requests, "marks": marks, "scorer": scorer, "stamps": stamps}
    assert bind_query(SQL, prerendered(SQL, parameters)) == bind_query(SQL, parameters)


def test_values_the_driver_formats_otherwise_are_left_to_it() -> None:
    parameters = {"flags": [True] * 99, "floats": [0.5] * 99, "nested": [[1]] * 99, "pyformat": ["a"] * 99}
    sql = "SELECT {flags:Array(Bool)}, {floats:Array(Float64)}, {nested:Array(Array(Int64))}, %(pyformat)s"
    assert prerendered(sql, parameters) == parameters


def test_awkward_strings_in_a_large_array_reach_the_database_unchanged(store: Store) -> None:
    awkward = ["it's", "back\\slash", "tab\there", "new\nline", "`tick`", 'quote"', "ünïcødé ✓", ""] * 20
    pairs = [(text, text[::-1], index) for index, text in enumerate(awkward)]
    rows = store.query(
        "SELECT {ids:Array(String)}, {pairs:Array(Tuple(String, String, Int64))}",
        {"ids": awkward, "pairs": pairs},
    )
    assert rows[0][0] == awkward
    assert [tuple(pair) for pair in rows[0][1]] == pairs
