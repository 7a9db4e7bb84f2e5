"""Where a loop's separator recurs inside a gap is found from positions indexed once per pattern, and the
heading each piece sits on in one pass (a prompt of thousands of "[n] " markers once took minutes): for any
tokens, gaps, patterns and pieces, the answers are those a scan of the gap and a look back give."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from ragpulse_assembly.learnt.alignment import Constant, Gap, _goes_on, _headings, _Occurrences, opens_heading
from ragpulse_assembly.learnt.tokens import generalised, tokenize

PIECES = ["\n", "\n\n", "---", "-", "[1]", "[2]", " ", "a", "b", ".", "*", "7"]


def _scanned(general: list[str], start: int, end: int, pattern: tuple[str, ...]) -> bool:
    """The gap read token by token, its edges having no neighbour."""
    inside = general[start:end]
    width = len(pattern)
    for at in range(len(inside) - width + 1):
        if tuple(inside[at : at + width]) != pattern:
            continue
        before = inside[at - 1] if at else ""
        after = inside[at + width] if at + width < len(inside) else ""
        if not (_goes_on(before, pattern[0]) or _goes_on(after, pattern[-1])):
            return True
    return False


@settings(max_examples=400)
@given(
    st.lists(st.lists(st.sampled_from(PIECES), max_size=40).map("".join), min_size=1, max_size=3),
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=3).map("".join),
    st.data(),
)
def test_a_pattern_recurs_in_a_gap_exactly_where_a_scan_finds_it(
    texts: list[str], separator: str, data: st.DataObject
) -> None:
    tokens = [tokenize(text) for text in texts]
    pattern = tuple(generalised(token) for token in tokenize(separator).tokens)
    ranges = []
    for text in tokens:
        start = data.draw(st.integers(0, len(text.tokens)))
        ranges.append((start, data.draw(st.integers(start, len(text.tokens)))))
    occurrences = _Occurrences(tokens)

    for gap in (Gap(tuple(ranges)), Gap(tuple((0, len(text.tokens)) for text in tokens))):
        general = [[generalised(token) for token in text.tokens] for text in tokens]
        expected = any(
            _scanned(g, start, end, pattern) for g, (start, end) in zip(general, gap.ranges, strict=True)
        )
        assert occurrences.recur(gap, pattern) is expected


CONSTANTS = [
    ("\n",),
    ("### ",),
    ("\n", "## ", "["),
    ("[", "1", "]", " "),
    ("\n", "text"),
    ("\ue001",),
    (" ",),
]


@settings(max_examples=300)
@given(st.lists(st.one_of(st.sampled_from(CONSTANTS).map(Constant), st.just(Gap(((0, 0),)))), max_size=30))
def test_the_heading_each_piece_sits_on_is_the_one_a_look_back_finds(pieces: list[Constant | Gap]) -> None:
    assert _headings(pieces) == [opens_heading(pieces, index) for index in range(len(pieces))]
