"""The separator candidates around a slot are looked for by string search, each distinct token written as one
character: the answer must be the token scan's for any regions and runs, and a window of more distinct tokens
than there are characters must still be answered, by the scan."""

from __future__ import annotations

from unittest import mock

from hypothesis import given
from hypothesis import strategies as st
from ragpulse_assembly.learnt import loops
from ragpulse_assembly.learnt.tokens import find_run

TOKENS = st.sampled_from(["a", "b", "\n", " ", "--", "\ue002#", "é", "文", "\x00"])
REGIONS = st.lists(st.lists(TOKENS, max_size=30).map(tuple), min_size=1, max_size=4)


@given(REGIONS, st.lists(TOKENS, min_size=1, max_size=5).map(tuple))
def test_a_run_is_found_by_the_search_exactly_where_the_token_scan_finds_it(
    regions: list[tuple[str, ...]], run: tuple[str, ...]
) -> None:
    scanned = any(find_run(region, run, 0) >= 0 for region in regions)

    assert loops._run_finder(regions)(run) is scanned


@given(REGIONS, st.lists(TOKENS, min_size=1, max_size=5).map(tuple))
def test_more_distinct_tokens_than_characters_are_answered_by_the_scan(
    regions: list[tuple[str, ...]], run: tuple[str, ...]
) -> None:
    scanned = any(find_run(region, run, 0) >= 0 for region in regions)

    with mock.patch.object(loops, "_CODES", 1):
        assert loops._run_finder(regions)(run) is scanned
